/// Reads keys from the bytes a terminal in raw mode sends (xterm's encoding, which the terminals
/// in use share): printable characters (UTF-8), control keys, and the escape sequences of the
/// arrows (`ESC [ C`, `ESC O C` in application mode, `ESC [ 1 ; 2 C` with Shift, rxvt's
/// `ESC [ c`).
///
/// A value with no I/O and no clock. Bytes come in as they were read, so a sequence may be split
/// across reads: what ends in the middle of one is held back until the rest comes. Escape alone
/// is also the start of every sequence, so it is held back too: the reader waits at most
/// ``escapeTimeout`` for more (``isWaiting`` says when) and then calls ``flush()``, which gives
/// a lone Escape as ``Key/escape``. A sequence cut short by the timeout is ``Key/other(_:)``,
/// never Escape: a slow link that splits an arrow key must not read as a request to quit.
public struct KeyDecoder: Sendable {
    /// How long a reader waits after a byte that may start a sequence before ``flush()``.
    public static let escapeTimeout = Duration.milliseconds(100)

    /// The longest sequence read: past it, held bytes are given up as ``Key/other(_:)``.
    public static let longestSequence = 32

    private var pending: [UInt8] = []

    /// A decoder with nothing held back.
    public init() {}

    /// Whether bytes are held back waiting for the rest of a sequence: the reader then waits
    /// at most ``escapeTimeout`` for more, and calls ``flush()`` if none comes.
    public var isWaiting: Bool { !pending.isEmpty }

    /// The keys in `bytes`, after what was held back; a sequence not complete yet is held.
    /// - Parameter bytes: What the terminal sent, as read.
    /// - Returns: The keys, in order.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var start = pending.startIndex
        while start < pending.endIndex {
            guard let (key, length) = Self.key(at: pending[start...]) else { break }
            keys.append(key)
            start += length
        }
        pending.removeSubrange(..<start)
        if pending.count > Self.longestSequence {
            keys.append(.other(pending))
            pending.removeAll()
        }
        return keys
    }

    /// What was held back, taken as it stands: the reader waited ``escapeTimeout`` and nothing
    /// more came. A lone Escape is ``Key/escape``; anything else held (a cut sequence) is
    /// ``Key/other(_:)``.
    /// - Returns: The keys.
    public mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        if pending.isEmpty { return [] }
        if pending == [Self.escape] { return [.escape] }
        return [.other(pending)]
    }

    private static let escape: UInt8 = 0x1B

    /// The key that starts `bytes`, and how many bytes it took; nil when `bytes` ends before the
    /// key does.
    private static func key(at bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case escape: return escapeSequence(at: bytes)
        case 0x20...0x7E: return (.character(Character(Unicode.Scalar(first))), 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x80...: return utf8Character(at: bytes)
        default: return (.other([first]), 1)
        }
    }

    /// ESC and what follows it: a CSI or SS3 sequence, another ESC (the first one was alone), or
    /// Alt with a key.
    private static func escapeSequence(at bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            return controlSequence(at: bytes)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return nil }
            let final = bytes[start + 2]
            return (arrow(final).map { .arrow($0, shift: false) } ?? .other(Array(bytes.prefix(3))), 3)
        case escape:
            return (.escape, 1)
        default:
            return (.other(Array(bytes.prefix(2))), 2)
        }
    }

    /// `ESC [`, parameter bytes (`0`-`9`, `;`, ...), intermediate bytes, one final byte (ECMA-48).
    private static func controlSequence(at bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let start = bytes.startIndex
        var index = start + 2
        while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return nil }
        let final = bytes[index]
        let length = index - start + 1
        let sequence = Array(bytes[start..<(index + 1)])
        guard (0x40...0x7E).contains(final) else { return (.other(sequence), length) }
        // rxvt's Shift-arrows: ESC [ a, b, c, d.
        if length == 3, let arrow = arrow(final - 0x20) { return (.arrow(arrow, shift: true), length) }
        guard let arrow = arrow(final) else { return (.other(sequence), length) }
        // No parameters (or `1`), or `1;M`: M - 1 is a bit set of modifiers, Shift its lowest bit.
        let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
        if parameters.isEmpty || parameters == "1" { return (.arrow(arrow, shift: false), length) }
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count == 2, fields[0] == "1" || fields[0].isEmpty, let modifiers = Int(fields[1]),
            (1...16).contains(modifiers)
        else { return (.other(sequence), length) }
        return (.arrow(arrow, shift: (modifiers - 1) & 1 != 0), length)
    }

    private static func arrow(_ final: UInt8) -> Key.Arrow? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        default: nil
        }
    }

    /// A character of two to four UTF-8 bytes; a byte that cannot start one is ``Key/other(_:)``.
    private static func utf8Character(at bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let first = bytes[bytes.startIndex]
        let length: Int
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.other([first]), 1)
        }
        let continuations = bytes.dropFirst().prefix(length - 1)
        if let bad = continuations.firstIndex(where: { $0 & 0xC0 != 0x80 }) {
            return (.other(Array(bytes[bytes.startIndex..<bad])), bad - bytes.startIndex)
        }
        guard bytes.count >= length else { return nil }
        let encoded = Array(bytes.prefix(length))
        guard let text = String(validating: encoded, as: UTF8.self), let character = text.first else {
            return (.other(encoded), length)
        }
        return (.character(character), length)
    }
}
