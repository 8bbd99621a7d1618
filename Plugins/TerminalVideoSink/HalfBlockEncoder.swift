/// Turns pixels into terminal output: each cell shows two pixels, one above the other, as a
/// half block (`▀`, U+2580) in the upper pixel's colour (the foreground) on the lower pixel's
/// (the background), in 24-bit colour (`ESC[38;2;R;G;Bm`, `ESC[48;2;R;G;Bm`).
///
/// The output is kept small, since a slow terminal drops frames: a colour is set only when it
/// differs from the one in effect; a cell whose two pixels match is a space on the background (or
/// a full block, `█`, when the foreground already has its colour); and a cell may be drawn as a
/// lower half block (`▄`) with the colours swapped when that sets fewer of them.
struct HalfBlockEncoder {
    /// The output so far.
    private(set) var bytes: [UInt8] = []
    /// The foreground in effect, nil for the terminal's default (or unknown).
    private var foreground: UInt32?
    /// The background in effect, nil for the terminal's default (or unknown).
    private var background: UInt32?

    /// `0` ... `255` as ASCII digits.
    private static let decimals: [[UInt8]] = (0...255).map { Array(String($0).utf8) }
    private static let upperHalf: [UInt8] = Array("▀".utf8)
    private static let lowerHalf: [UInt8] = Array("▄".utf8)
    private static let fullBlock: [UInt8] = Array("█".utf8)
    private static let escape: UInt8 = 0x1B

    /// Adds text as it is (an escape sequence of ``TerminalEscape``, say).
    /// - Parameter text: The text.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Moves the cursor to a cell: `ESC[H` for the top-left one, `ESC[rowH` in the first column.
    /// - Parameters:
    ///   - row: The row, from 1 at the top.
    ///   - column: The column, from 1 at the left.
    mutating func moveTo(row: Int, column: Int) {
        switch (row, column) {
        case (1, 1): append("\u{1B}[H")
        case (_, 1): append("\u{1B}[\(row)H")
        default: append("\u{1B}[\(row);\(column)H")
        }
    }

    /// Resets the colours to the terminal's defaults (`ESC[0m`).
    mutating func resetColors() {
        append(TerminalEscape.resetAttributes)
        foreground = nil
        background = nil
    }

    /// Draws pixels as `pixels.height / 2` rows of `pixels.width` cells, the first at `row`,
    /// `column` (an odd height leaves the last row's lower halves in the upper pixel's colour).
    /// - Parameters:
    ///   - pixels: The pixels.
    ///   - row: The top row, from 1.
    ///   - column: The left column, from 1.
    mutating func draw(_ pixels: CellPixels, row: Int, column: Int) {
        bytes.reserveCapacity(bytes.count + pixels.width * (pixels.height + 1) / 2 * 8)
        for cellRow in 0..<(pixels.height + 1) / 2 {
            moveTo(row: row + cellRow, column: column)
            let upperY = cellRow * 2
            let lowerY = min(upperY + 1, pixels.height - 1)
            for x in 0..<pixels.width {
                cell(upper: pixels[x, upperY], lower: pixels[x, lowerY])
            }
        }
    }

    private mutating func cell(upper: UInt32, lower: UInt32) {
        if upper == lower {
            if background == upper {
                bytes.append(0x20)
            } else if foreground == upper {
                bytes.append(contentsOf: Self.fullBlock)
            } else {
                setColors(foreground: nil, background: upper)
                bytes.append(0x20)
            }
            return
        }
        let upperCost = (foreground == upper ? 0 : 1) + (background == lower ? 0 : 1)
        let lowerCost = (foreground == lower ? 0 : 1) + (background == upper ? 0 : 1)
        if lowerCost < upperCost {
            setColors(foreground: lower, background: upper)
            bytes.append(contentsOf: Self.lowerHalf)
        } else {
            setColors(foreground: upper, background: lower)
            bytes.append(contentsOf: Self.upperHalf)
        }
    }

    /// One SGR sequence for the colours that change (a nil colour is left as it is).
    private mutating func setColors(foreground newForeground: UInt32?, background newBackground: UInt32?) {
        let changesForeground = newForeground != nil && newForeground != foreground
        let changesBackground = newBackground != nil && newBackground != background
        guard changesForeground || changesBackground else { return }
        bytes.append(Self.escape)
        bytes.append(UInt8(ascii: "["))
        if changesForeground, let color = newForeground {
            appendColor(38, color)
            foreground = color
        }
        if changesBackground, let color = newBackground {
            if changesForeground { bytes.append(UInt8(ascii: ";")) }
            appendColor(48, color)
            background = color
        }
        bytes.append(UInt8(ascii: "m"))
    }

    /// `38;2;R;G;B` (foreground) or `48;2;R;G;B` (background).
    private mutating func appendColor(_ layer: Int, _ color: UInt32) {
        bytes.append(contentsOf: Self.decimals[layer])
        bytes.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "2")])
        for component in [color >> 16, color >> 8 & 0xFF, color & 0xFF] {
            bytes.append(UInt8(ascii: ";"))
            bytes.append(contentsOf: Self.decimals[Int(component)])
        }
    }
}
