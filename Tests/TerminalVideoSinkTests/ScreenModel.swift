import MediaEngine
import MediaTestSupport
import Testing

/// A small terminal emulator: what a person would see after a program's output, read from the
/// bytes the way xterm reads them (the subset the sink and a shell use: cursor moves, erasing,
/// SGR colours, DEC private modes, CR, LF with scrolling, autowrap), plus a record of the
/// sequences that matter to the tests (cursor hidden and shown, screen erased, colours set again
/// to the colour in effect).
struct ScreenModel: Sendable {
    /// One character cell.
    struct Cell: Equatable, Sendable {
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
    enum Event: Equatable, Sendable {
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

    /// The screen after `bytes`, from a blank one, read on a thread of its own: a program's
    /// output runs to megabytes, and reading it on one of Swift's few cooperative threads kept
    /// every other test of the process waiting (a 0.5 s timer fired a second late).
    static func reading(columns: Int, rows: Int, bytes: [UInt8]) async throws -> ScreenModel {
        try await OwnThread.run { ScreenModel(columns: columns, rows: rows, bytes: bytes) }
    }

    /// Reads `bytes` as UTF-8, byte by byte (a malformed sequence reads as U+FFFD).
    mutating func feed(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { continue }
                index += 1
                var isPrivate = false
                var numbers: [Int] = []
                var current = 0
                var hasParameters = false
                while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
                    switch bytes[index] {
                    case UInt8(ascii: "?"): isPrivate = true
                    case UInt8(ascii: ";"):
                        numbers.append(current)
                        current = 0
                    case UInt8(ascii: "0")...UInt8(ascii: "9"):
                        current = min(current * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000)
                    default: break
                    }
                    hasParameters = true
                    index += 1
                }
                guard index < bytes.count else { return }
                if hasParameters { numbers.append(current) }
                control(private: isPrivate, numbers, final: bytes[index])
                index += 1
            case UInt8(ascii: "\r"):
                cursorColumn = 0
                pendingWrap = false
            case UInt8(ascii: "\n"):
                lineFeed()
                pendingWrap = false
            case ..<0x20:
                continue
            case ..<0x80:
                put(Character(Unicode.Scalar(byte)))
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(index - 1 + length, bytes.count)
                let decoded = String(decoding: bytes[(index - 1)..<end], as: UTF8.self)
                index = end
                put(decoded.first ?? "\u{FFFD}")
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

    private mutating func control(private isPrivate: Bool, _ numbers: [Int], final: UInt8) {
        if isPrivate {
            if numbers == [25] && final == UInt8(ascii: "l") {
                cursorVisible = false
                events.append(.cursorHidden)
            } else if numbers == [25] && final == UInt8(ascii: "h") {
                cursorVisible = true
                events.append(.cursorShown)
            }
            return
        }
        func number(_ index: Int, default value: Int) -> Int {
            index < numbers.count && numbers[index] != 0 ? numbers[index] : value
        }
        pendingWrap = false
        switch Character(Unicode.Scalar(final)) {
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
