/// CEA-608 byte pairs as a caption encoder sends them (odd parity, each control code twice), to
/// build test captions from text.
public enum CEA608Writer {
    /// One byte pair, parity bits set.
    public typealias Pair = (UInt8, UInt8)

    /// `byte` (7 bits) with its odd-parity bit.
    public static func withParity(_ byte: UInt8) -> UInt8 {
        let low = byte & 0x7F
        return low.nonzeroBitCount % 2 == 0 ? low | 0x80 : low
    }

    /// Padding: the pair sent when there is nothing to say.
    public static let padding: Pair = (0x80, 0x80)

    /// A control code of data channel `channel` (0: CC1 or CC3; 1: CC2 or CC4), sent twice.
    public static func control(_ first: UInt8, _ second: UInt8, channel: Int = 0) -> [Pair] {
        let pair = (withParity(first | (channel == 1 ? 0x08 : 0)), withParity(second))
        return [pair, pair]
    }

    /// Text of the standard set (ASCII letters, digits, punctuation), two characters a pair.
    public static func characters(_ text: String) -> [Pair] {
        var bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) & 0x7F }
        if bytes.count % 2 == 1 { bytes.append(0) }
        return stride(from: 0, to: bytes.count, by: 2).map { index in
            (withParity(bytes[index]), bytes[index + 1] == 0 ? 0x80 : withParity(bytes[index + 1]))
        }
    }

    /// The preamble address code of `row` (1 to 15, as CEA-608 numbers them), white, no indent.
    public static func preamble(row: Int, channel: Int = 0) -> [Pair] {
        let codes: [(UInt8, UInt8)] = [
            (0x11, 0x40), (0x11, 0x60), (0x12, 0x40), (0x12, 0x60), (0x15, 0x40), (0x15, 0x60), (0x16, 0x40),
            (0x16, 0x60), (0x17, 0x40), (0x17, 0x60), (0x10, 0x40), (0x13, 0x40), (0x13, 0x60), (0x14, 0x40),
            (0x14, 0x60),
        ]
        let (first, second) = codes[min(max(row, 1), 15) - 1]
        return control(first, second, channel: channel)
    }

    /// A pop-on caption: loaded out of sight (`RCL`, then each line at its row, the last on row
    /// 15) and shown at once by `EOC`, on the frame of the last pair.
    public static func popOn(_ lines: [String], channel: Int = 0) -> [Pair] {
        var pairs = control(0x14, 0x20, channel: channel) + control(0x14, 0x2E, channel: channel)
        for (offset, line) in lines.enumerated() {
            pairs += preamble(row: 16 - lines.count + offset, channel: channel) + characters(line)
        }
        return pairs + control(0x14, 0x2F, channel: channel)
    }

    /// A line of roll-up captions, `rows` deep: a carriage return scrolls the window up, then
    /// the text appears on the bottom row as it comes.
    public static func rollUp(_ line: String, rows: Int = 2, channel: Int = 0) -> [Pair] {
        control(0x14, UInt8(0x23 + rows), channel: channel) + control(0x14, 0x2D, channel: channel)
            + preamble(row: 15, channel: channel) + characters(line)
    }

    /// Erase displayed memory: what shows goes.
    public static func eraseDisplayed(channel: Int = 0) -> [Pair] { control(0x14, 0x2C, channel: channel) }
}
