import Foundation

/// MD5 (RFC 1321), for HTTP Digest authentication in ``FaultInjectingServer`` and the tests
/// that check it. Not for anything that needs a secure hash.
public enum MD5 {
    /// The digest of `text`'s UTF-8 bytes as 32 lowercase hexadecimal digits.
    /// - Parameter text: What to hash.
    /// - Returns: The hexadecimal digest.
    public static func hex(_ text: String) -> String {
        digest(Array(text.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The 16-byte digest of `bytes`.
    /// - Parameter bytes: What to hash.
    /// - Returns: The digest.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var message = bytes
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for index in 0..<8 { message.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        for start in stride(from: 0, to: message.count, by: 64) {
            var words = [UInt32](repeating: 0, count: 16)
            for index in 0..<16 {
                let offset = start + index * 4
                words[index] =
                    UInt32(message[offset]) | UInt32(message[offset + 1]) << 8 | UInt32(message[offset + 2]) << 16
                    | UInt32(message[offset + 3]) << 24
            }
            var (a, b, c, d) = state
            for step in 0..<64 {
                var mix: UInt32
                let word: Int
                switch step {
                case 0..<16:
                    mix = (b & c) | (~b & d)
                    word = step
                case 16..<32:
                    mix = (d & b) | (~d & c)
                    word = (5 * step + 1) % 16
                case 32..<48:
                    mix = b ^ c ^ d
                    word = (3 * step + 5) % 16
                default:
                    mix = c ^ (b | ~d)
                    word = (7 * step) % 16
                }
                mix = mix &+ a &+ constants[step] &+ words[word]
                a = d
                d = c
                c = b
                b = b &+ ((mix << shifts[step]) | (mix >> (32 - shifts[step])))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) }
        }
    }

    private static let shifts: [UInt32] =
        [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22]
        + [5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20]
        + [4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23]
        + [6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]

    /// floor(abs(sin(i + 1)) * 2^32), as RFC 1321 defines its table.
    private static let constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
    }
}
