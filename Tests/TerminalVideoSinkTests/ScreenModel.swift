import MediaEngine
import Testing

/// A small terminal emulator: what a person would see after a program's output, read from the
/// bytes the way xterm reads them (the subset the sink and a shell use: cursor moves, erasing,
/// SGR colours, DEC private modes, CR, LF with scrolling, autowrap), plus a record of the
/// sequences that matter to the tests (cursor hidden and shown, screen erased, colours set again
/// to the colour in effect).
struct ScreenModel {
    /// One character cell.
    struct Cell: Equatable {
        var character: Character = " "
        /// The foreground, nil for the terminal's default.
        var foreground: RGBAColor?
        /// The background, nil for the terminal's default.
        var background: RGBAColor?

        /// The colour a person sees in the cell's upper half, nil for the default background.
        var upper: RGBAColor? {
            switch character {
            case "▀", "█": foreground
            default: background
            }
        }

        /// The colour a person sees in the cell's lower half.
        var lower: RGBAColor? {
            switch character {
            case "▄", "█": foreground
            default: background
            }
        }

        /// Whether the cell shows a colour of the picture (rather than the default background).
        var isPainted: Bool { upper != nil && lower != nil }
    }

    /// Something the output did, in order.
    enum Event: Equatable {
        case cursorHidden
        case cursorShown
        case screenErased
        case colorsReset
        /// A colour was set (true for the foreground) while already in effect.
        case redundantColor(foreground: Bool)
    }

    let columns: Int
    let rows: Int
    private(set) var cells: [[Cell]]
    private(set) var cursorRow = 0
    private(set) var cursorColumn = 0
    private(set) var cursorVisible = true
    private(set) var events: [Event] = []
    /// How many lines scrolled off the top.
    private(set) var scrolledLines = 0
    private var pendingWrap = false
    private var foreground: RGBAColor?
    private var background: RGBAColor?

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
    }

    /// The screen after `bytes`, from a blank one.
    init(columns: Int, rows: Int, bytes: [UInt8]) {
        self.init(columns: columns, rows: rows)
        feed(bytes)
    }

    /// The cell at a row and column, both from 1 as a terminal counts them.
    subscript(row: Int, column: Int) -> Cell { cells[row - 1][column - 1] }

    /// The text of a row (from 1), trailing spaces left out.
    func text(ofRow row: Int) -> String {
        var text = String(cells[row - 1].map(\.character))
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The rows (from 1) that hold painted cells, and the columns of the painted cells in them.
    var paintedArea: (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        var rowNumbers: [Int] = []
        var columnNumbers: [Int] = []
        for (row, line) in cells.enumerated() {
            let painted = line.indices.filter { line[$0].isPainted }
            if painted.isEmpty { continue }
            rowNumbers.append(row + 1)
            columnNumbers += painted.map { $0 + 1 }
        }
        guard let top = rowNumbers.first, let bottom = rowNumbers.last, let left = columnNumbers.min(),
            let right = columnNumbers.max()
        else { return nil }
        return (top...bottom, left...right)
    }

    mutating func feed(_ bytes: [UInt8]) {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\u{1B}":
                guard index < scalars.count, scalars[index] == "[" else { continue }
                index += 1
                var parameters = ""
                while index < scalars.count, !(0x40...0x7E).contains(scalars[index].value) {
                    parameters.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count else { return }
                control(parameters, Character(scalars[index]))
                index += 1
            case "\r":
                cursorColumn = 0
                pendingWrap = false
            case "\n":
                lineFeed()
                pendingWrap = false
            default:
                if scalar.value < 0x20 { continue }
                put(Character(scalar))
            }
        }
    }

    private mutating func put(_ character: Character) {
        if pendingWrap {
            cursorColumn = 0
            lineFeed()
            pendingWrap = false
        }
        cells[cursorRow][cursorColumn] = Cell(character: character, foreground: foreground, background: background)
        if cursorColumn == columns - 1 {
            pendingWrap = true
        } else {
            cursorColumn += 1
        }
    }

    private mutating func lineFeed() {
        if cursorRow == rows - 1 {
            cells.removeFirst()
            cells.append(Array(repeating: Cell(), count: columns))
            scrolledLines += 1
        } else {
            cursorRow += 1
        }
    }

    private mutating func control(_ parameters: String, _ final: Character) {
        if parameters.hasPrefix("?") {
            if parameters == "?25" && final == "l" {
                cursorVisible = false
                events.append(.cursorHidden)
            } else if parameters == "?25" && final == "h" {
                cursorVisible = true
                events.append(.cursorShown)
            }
            return
        }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        func number(_ index: Int, default value: Int) -> Int {
            index < numbers.count && numbers[index] != 0 ? numbers[index] : value
        }
        pendingWrap = false
        switch final {
        case "H", "f":
            cursorRow = min(max(number(0, default: 1), 1), rows) - 1
            cursorColumn = min(max(number(1, default: 1), 1), columns) - 1
        case "J":
            let mode = number(0, default: 0)
            if mode == 2 {
                cells = Array(repeating: Array(repeating: Cell(background: background), count: columns), count: rows)
                events.append(.screenErased)
            } else if mode == 0 {
                eraseLine(from: cursorColumn)
                for row in (cursorRow + 1)..<rows {
                    cells[row] = Array(repeating: Cell(background: background), count: columns)
                }
                events.append(.screenErased)
            }
        case "A":
            cursorRow = max(cursorRow - number(0, default: 1), 0)
        case "K":
            eraseLine(from: cursorColumn)
        case "m":
            selectGraphicRendition(numbers.isEmpty ? [0] : numbers)
        default:
            break
        }
    }

    private mutating func eraseLine(from column: Int) {
        for erased in column..<columns { cells[cursorRow][erased] = Cell(background: background) }
    }

    private mutating func selectGraphicRendition(_ numbers: [Int]) {
        var index = 0
        while index < numbers.count {
            switch numbers[index] {
            case 0:
                foreground = nil
                background = nil
                events.append(.colorsReset)
            case 38, 48:
                guard index + 4 < numbers.count, numbers[index + 1] == 2 else { return }
                let color = RGBAColor(
                    red: UInt8(clamping: numbers[index + 2]), green: UInt8(clamping: numbers[index + 3]),
                    blue: UInt8(clamping: numbers[index + 4]))
                let isForeground = numbers[index] == 38
                if (isForeground ? foreground : background) == color {
                    events.append(.redundantColor(foreground: isForeground))
                }
                if isForeground { foreground = color } else { background = color }
                index += 4
            case 39: foreground = nil
            case 49: background = nil
            default: break
            }
            index += 1
        }
    }
}

extension ScreenModel: CustomTestStringConvertible {
    /// The screen's text, one line a row (a failed expectation shows this, not every cell).
    var testDescription: String {
        "\(columns)x\(rows) screen, cursor at \(cursorRow + 1),\(cursorColumn + 1)"
            + (cursorVisible ? "" : " (hidden)") + ":\n"
            + (1...rows).map { "|" + text(ofRow: $0) }.joined(separator: "\n")
    }
}
