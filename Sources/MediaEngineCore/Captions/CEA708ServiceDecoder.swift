/// Decodes the service blocks of one CEA-708 caption service into its eight windows (CEA-708
/// sections 7 and 8): the commands that define, show, hide, clear and delete windows, move the
/// pen, and the text written at it (G0, which is ASCII with a music note for 0x7F; G1, Latin-1;
/// the G2 characters of Western text). Pen and window styles, colours and delays are read past:
/// the engine draws every caption in its own text style.
///
/// Every byte is hostile: a command cut off at the end of a block is dropped, and sizes and
/// positions are clamped into the window.
struct CEA708ServiceDecoder: Sendable, Equatable {
    private var windows = [CEA708Window?](repeating: nil, count: 8)
    private var current: Int?
    /// Whether a window was defined: the service is in use.
    private(set) var carriesCaptions = false

    /// What the service shows: the visible windows' rows, the windows by priority.
    var text: String {
        windows.compactMap { $0 }.filter(\.visible).sorted { $0.priority < $1.priority }.flatMap(\.lines)
            .joined(separator: "\n")
    }

    /// Decodes one service block's bytes.
    mutating func decode(_ data: [UInt8]) {
        var index = 0
        /// The next `count` bytes after the code at `index`, if the block has them.
        func arguments(_ count: Int) -> ArraySlice<UInt8>? {
            guard count > 0 else { return [] }
            guard count <= data.count - index - 1 else { return nil }
            return data[(index + 1)...(index + count)]
        }
        while index < data.count {
            let code = data[index]
            var length = 1
            switch code {
            case 0x00...0x1F:
                length = control(code, arguments: arguments)
            case 0x20...0x7E:
                type(Character(Unicode.Scalar(code)))
            case 0x7F:
                type("♪")
            case 0x80...0x9F:
                length = command(code, arguments: arguments)
            default:  // 0xA0...0xFF: G1, Latin-1
                type(Character(Unicode.Scalar(code)))
            }
            guard length > 0 else { return }  // cut off: the rest of the block is lost
            index += length
        }
    }

    /// A C0 code (and the extended codes behind EXT1); returns its length, 0 when cut off.
    private mutating func control(_ code: UInt8, arguments: (Int) -> ArraySlice<UInt8>?) -> Int {
        switch code {
        case 0x08: current.map { windows[$0]?.backspace() }
        case 0x0C: current.map { windows[$0]?.clear(movingPenHome: true) }
        case 0x0D: current.map { windows[$0]?.carriageReturn() }
        case 0x0E: current.map { windows[$0]?.clearPenRow() }
        case 0x10:
            guard let extended = arguments(1)?.first else { return 0 }
            return extendedCode(extended, arguments: arguments)
        case 0x11...0x17: return arguments(1) == nil ? 0 : 2
        case 0x18...0x1F: return arguments(2) == nil ? 0 : 3  // P16 and reserved: two bytes
        default: break  // NUL, ETX and reserved codes
        }
        return 1
    }

    /// EXT1 and the code after it (C2, C3, G2, G3); returns the length from EXT1 on, 0 when cut off.
    private mutating func extendedCode(_ code: UInt8, arguments: (Int) -> ArraySlice<UInt8>?) -> Int {
        let skip: Int
        switch code {
        case 0x00...0x07: skip = 0
        case 0x08...0x0F: skip = 1
        case 0x10...0x17: skip = 2
        case 0x18...0x1F: skip = 3
        case 0x20...0x7F:
            if let character = Self.g2[code] { type(character) }
            skip = 0
        case 0x80...0x87: skip = 4
        case 0x88...0x8F: skip = 5
        case 0x90...0x9F:
            // Variable length: the next byte's low 6 bits count the bytes after it.
            guard let header = arguments(2)?.last else { return 0 }
            skip = 1 + Int(header & 0x3F)
        default: skip = 0  // G3: the [CC] icon and reserved
        }
        return arguments(1 + skip) == nil ? 0 : 2 + skip
    }

    /// A C1 command; returns its length, 0 when cut off.
    private mutating func command(_ code: UInt8, arguments: (Int) -> ArraySlice<UInt8>?) -> Int {
        switch code {
        case 0x80...0x87:  // CW0-CW7: set the current window
            let id = Int(code - 0x80)
            if windows[id] != nil { current = id }
            return 1
        case 0x88...0x8C:  // CLW, DSW, HDW, TGW, DLW: one byte, a window bitmap
            guard let map = arguments(1)?.first else { return 0 }
            for id in 0..<8 where map & (1 << id) != 0 {
                switch code {
                case 0x88: windows[id]?.clear()
                case 0x89: windows[id]?.visible = true
                case 0x8A: windows[id]?.visible = false
                case 0x8B: windows[id]?.visible.toggle()
                default:
                    windows[id] = nil
                    if current == id { current = nil }
                }
            }
            return 2
        case 0x8D: return arguments(1) == nil ? 0 : 2  // DLY: the delay is not kept
        case 0x8E: return 1  // DLC
        case 0x8F:  // RST: the service starts afresh
            self = CEA708ServiceDecoder()
            return 1
        case 0x90: return arguments(2) == nil ? 0 : 3  // SPA: pen attributes
        case 0x91: return arguments(3) == nil ? 0 : 4  // SPC: pen colour
        case 0x92:  // SPL: pen location, row and column
            guard let place = arguments(2) else { return 0 }
            let row = Int(place[place.startIndex] & 0x0F)
            let column = Int(place[place.startIndex + 1] & 0x3F)
            current.map { windows[$0]?.movePen(row: row, column: column) }
            return 3
        case 0x97: return arguments(4) == nil ? 0 : 5  // SWA: window attributes
        case 0x98...0x9F:  // DF0-DF7: define a window
            guard let definition = arguments(6) else { return 0 }
            defineWindow(Int(code - 0x98), Array(definition))
            return 7
        default: return 1  // reserved
        }
    }

    /// DefineWindow: visible (bit 5 of the first byte) and priority (its low 3 bits), rows (the
    /// fourth byte's low 4 bits, plus 1) and columns (the fifth's low 6 bits, plus 1). A window
    /// defined again keeps its text; the new one becomes current.
    private mutating func defineWindow(_ id: Int, _ definition: [UInt8]) {
        var window = windows[id] ?? CEA708Window()
        window.visible = definition[0] & 0x20 != 0
        window.priority = Int(definition[0] & 0x07)
        window.resize(rows: Int(definition[3] & 0x0F) + 1, columns: Int(definition[4] & 0x3F) + 1)
        windows[id] = window
        current = id
        carriesCaptions = true
    }

    private mutating func type(_ character: Character) {
        guard let current else { return }
        windows[current]?.type(character)
    }

    /// The G2 characters with a meaning for text (after EXT1).
    private static let g2: [UInt8: Character] = [
        0x20: " ", 0x21: "\u{00A0}", 0x25: "…", 0x2A: "Š", 0x2C: "Œ", 0x30: "█", 0x31: "‘", 0x32: "’",
        0x33: "“", 0x34: "”", 0x35: "•", 0x39: "™", 0x3A: "š", 0x3C: "œ", 0x3D: "℠", 0x3F: "Ÿ", 0x76: "⅛",
        0x77: "⅜", 0x78: "⅝", 0x79: "⅞", 0x7A: "│", 0x7B: "┐", 0x7C: "└", 0x7D: "─", 0x7E: "┘", 0x7F: "┌",
    ]
}
