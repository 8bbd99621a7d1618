/// The state of one CEA-608 data channel: its caption mode, its two memories and its cursor.
/// Fed control codes and characters by ``CEA608FieldDecoder``; pure, so every rule can be tested
/// without a movie.
///
/// The three caption modes of CEA-608:
/// - **pop-on** (`RCL`): a caption is written out of sight and shown whole by `EOC`, which swaps
///   the two memories;
/// - **roll-up** (`RU2`, `RU3`, `RU4`): text appears as it comes on the bottom row of a window of
///   2 to 4 rows, and a carriage return scrolls the window up;
/// - **paint-on** (`RDC`): text appears as it comes, where the cursor is.
///
/// Text mode (`TR`, `RTD`) is not captions: its characters are ignored.
struct CEA608ChannelDecoder: Sendable, Equatable {
    enum Mode: Sendable, Equatable {
        case popOn
        case paintOn
        case rollUp(rows: Int)
        case text
    }

    private(set) var mode = Mode.popOn
    private(set) var displayed = CEA608Screen()
    private var hidden = CEA608Screen()
    /// The cursor, rows and columns from 0.
    private var row = CEA608Screen.rows - 1
    private var column = 0
    /// Roll-up's bottom row.
    private var baseRow = CEA608Screen.rows - 1
    /// Whether a caption command (a mode, `EOC`, a preamble address) came: the channel is in use.
    private(set) var carriesCaptions = false

    /// A miscellaneous control code (first byte `0x14`, or `0x15` in the second field), by its
    /// second byte, `0x20...0x2F`.
    mutating func miscellaneous(_ code: UInt8) {
        switch code {
        case 0x20:  // RCL: resume caption loading
            mode = .popOn
            carriesCaptions = true
        case 0x21:  // BS: backspace
            guard column > 0 else { return }
            column -= 1  // The cursor stays on the erased cell.
            write(" ")
        case 0x24:  // DER: delete to end of row
            if mode == .popOn { hidden.clear(row: row, from: column) } else { displayed.clear(row: row, from: column) }
        case 0x25, 0x26, 0x27:  // RU2, RU3, RU4: roll-up captions
            let rows = Int(code) - 0x23
            if case .rollUp = mode {
            } else {
                displayed.clear()
                hidden.clear()
                baseRow = CEA608Screen.rows - 1
            }
            mode = .rollUp(rows: rows)
            row = baseRow
            column = 0
            carriesCaptions = true
        case 0x29:  // RDC: resume direct captioning
            mode = .paintOn
            carriesCaptions = true
        case 0x2A, 0x2B:  // TR, RTD: text mode
            mode = .text
        case 0x2C:  // EDM: erase displayed memory
            displayed.clear()
        case 0x2D:  // CR: carriage return
            guard case .rollUp(let rows) = mode else { return }
            let top = max(baseRow - rows + 1, 0)
            if top < baseRow {
                for index in top..<baseRow { displayed.setRow(index, displayed.row(index + 1)) }
            }
            for index in 0..<top { displayed.clear(row: index) }
            displayed.clear(row: baseRow)
            row = baseRow
            column = 0
        case 0x2E:  // ENM: erase non-displayed memory
            hidden.clear()
        case 0x2F:  // EOC: end of caption
            swap(&displayed, &hidden)
            mode = .popOn
            carriesCaptions = true
        default:  // AOF, AON (reserved), FON (flash): nothing to show
            return
        }
    }

    /// A preamble address code: the cursor moves to `row` (0 to 14) at `indent` columns; in
    /// roll-up mode the window moves with it.
    mutating func preambleAddress(row newRow: Int, indent: Int) {
        carriesCaptions = true
        let newRow = CEA608Screen.clampedRow(newRow)
        if case .rollUp(let rows) = mode, newRow != baseRow {
            // The window's rows move to end on the new base row.
            let window = (0..<rows).map { displayed.row(baseRow - $0) }
            displayed.clear()
            for (offset, content) in window.enumerated() where newRow - offset >= 0 {
                displayed.setRow(newRow - offset, content)
            }
            baseRow = newRow
        }
        row = newRow
        column = CEA608Screen.clampedColumn(indent)
    }

    /// A tab offset: the cursor moves right by `columns` (1 to 3).
    mutating func tab(_ columns: Int) {
        column = min(column + columns, CEA608Screen.columns - 1)
    }

    /// A mid-row code: a style change, shown as a space.
    mutating func midRow() { type(" ") }

    /// A character of the standard or special set, where the cursor is.
    mutating func type(_ character: Character) {
        guard mode != .text else { return }
        write(character)
        column = min(column + 1, CEA608Screen.columns - 1)
    }

    /// An extended character: it replaces the standard one sent before it.
    mutating func typeExtended(_ character: Character) {
        guard mode != .text else { return }
        if column > 0 { column -= 1 }
        type(character)
    }

    private mutating func write(_ character: Character) {
        if mode == .popOn {
            hidden.put(character, row: row, column: column)
        } else {
            displayed.put(character, row: row, column: column)
        }
    }
}
