/// What the writer thread writes, decided without any I/O: fed frames, layouts and status
/// lines, it returns the bytes that show them, and at the end the bytes that give the terminal back.
///
/// Each frame is one write, drawn over the last from the top-left corner (cursor-home, then a
/// cursor move to each row), never by clearing the screen, so nothing flickers. The screen is
/// cleared only before the first frame (after scrolling what was on it into the terminal's
/// history) and when the terminal's size changes. Every write leaves the colours reset and the
/// cursor at the start of the status row, below the picture.
struct TerminalPainter {
    /// Where the picture goes.
    private(set) var layout: TerminalLayout
    /// The status line's text.
    private var status: String
    /// Whether anything was written (the cursor is hidden).
    private var started = false
    /// Whether the status row holds text.
    private var statusShown = false
    /// The last frame drawn, to draw again when the terminal's size changes.
    private var last: CellPixels?

    /// A painter for a terminal laid out as `layout`, with a status line (empty for none).
    init(layout: TerminalLayout, status: String) {
        self.layout = layout
        self.status = status
    }

    /// The bytes that show a frame, a new layout or a new status line (each optional).
    /// - Parameters:
    ///   - frame: A frame to draw, or nil.
    ///   - newLayout: The terminal's layout if it may have changed (it is cleared and the last
    ///     frame drawn again if it did), or nil.
    ///   - newStatus: A new status line, or nil.
    /// - Returns: What to write; empty when nothing is to be written (nothing is written before
    ///   the first frame).
    mutating func paint(frame: CellPixels?, layout newLayout: TerminalLayout?, status newStatus: String?) -> [UInt8] {
        var encoder = HalfBlockEncoder()
        var statusDirty = false
        if let newStatus, newStatus != status {
            status = newStatus
            statusDirty = true
        }
        var picture = frame
        encoder.append(TerminalEscape.beginSynchronizedUpdate)
        if !started {
            guard frame != nil else { return [] }
            started = true
            if let newLayout { layout = newLayout }
            // Scroll what the screen shows into the terminal's history rather than erase it.
            encoder.append(String(repeating: "\n", count: layout.terminal.rows))
            encoder.moveTo(row: 1, column: 1)
            encoder.append(TerminalEscape.eraseBelow)
            encoder.append(TerminalEscape.hideCursor)
            statusDirty = !status.isEmpty
        } else if let newLayout, newLayout != layout {
            layout = newLayout
            encoder.moveTo(row: 1, column: 1)
            encoder.append(TerminalEscape.eraseScreen)
            statusShown = false
            statusDirty = !status.isEmpty
            picture = picture ?? last
        } else if picture == nil && !statusDirty {
            return []
        }
        if let picture {
            let placed = layout.place(picture)
            encoder.draw(placed.pixels, row: placed.row, column: placed.column)
            last = picture
        }
        encoder.resetColors()
        if statusDirty {
            encoder.moveTo(row: layout.statusRow, column: 1)
            encoder.append(Self.printable(status, columns: layout.terminal.columns - 1))
            encoder.append(TerminalEscape.eraseLineRight)
            statusShown = !status.isEmpty
        }
        encoder.moveTo(row: layout.statusRow, column: 1)
        encoder.append(TerminalEscape.endSynchronizedUpdate)
        return encoder.bytes
    }

    /// The bytes that give the terminal back: colours reset, the cursor moved below the status
    /// line if it holds text (else it is already below the picture), and shown.
    /// - Returns: The bytes, or nil when nothing was ever written.
    mutating func restore() -> [UInt8]? {
        guard started else { return nil }
        started = false
        var encoder = HalfBlockEncoder()
        encoder.append(TerminalEscape.resetAttributes)
        if statusShown { encoder.append("\r\n") }
        encoder.append(TerminalEscape.showCursor)
        return encoder.bytes
    }

    /// Whether the status row held text when the terminal was given back (``restore()`` then left
    /// the cursor on the row below it), for ``lateStatus(_:columns:statusShown:)``.
    var statusShownAtRestore: Bool { statusShown }

    /// The bytes that show a status line set after the terminal was given back: it replaces the
    /// status row's text in place (the cursor goes up to it first if ``restore()`` left the cursor
    /// below it), and the cursor ends below it, the colours reset and the cursor shown, as after
    /// ``restore()``: an app's last line is not lost to a terminal given back a moment before.
    /// - Parameters:
    ///   - text: The new status line.
    ///   - columns: The terminal's width.
    ///   - statusShown: Whether the status row holds text and the cursor is below it.
    /// - Returns: The bytes, and whether the status row holds text afterwards.
    static func lateStatus(_ text: String, columns: Int, statusShown: Bool) -> (bytes: [UInt8], statusShown: Bool) {
        var encoder = HalfBlockEncoder()
        if statusShown { encoder.append(TerminalEscape.cursorUp) }
        encoder.append("\r")
        encoder.append(TerminalEscape.eraseLineRight)
        let shown = printable(text, columns: columns - 1)
        encoder.append(shown)
        if !shown.isEmpty { encoder.append("\r\n") }
        encoder.append(TerminalEscape.resetAttributes)
        encoder.append(TerminalEscape.showCursor)
        return (encoder.bytes, !shown.isEmpty)
    }

    /// `text` without control characters (an escape sequence in it cannot move the cursor), cut
    /// to `columns` characters so that it never wraps onto another row.
    static func printable(_ text: String, columns: Int) -> String {
        let scalars = text.unicodeScalars.filter { !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
        return String(String(String.UnicodeScalarView(scalars)).prefix(max(0, columns)))
    }
}
