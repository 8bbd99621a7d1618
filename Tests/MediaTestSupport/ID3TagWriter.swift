/// Writes ID3v2.4 tags for tests: the timed metadata Apple's HLS carries (TXXX, TIT2, PRIV), and
/// tags with sizes that lie.
public enum ID3TagWriter {
    /// One frame: its ID and body.
    public struct Frame: Sendable {
        /// The frame's four-character ID: "TXXX", "TIT2", "PRIV", ...
        public let id: String
        /// The frame's bytes after its header, written as they are (no unsynchronisation).
        public let body: [UInt8]

        /// A frame with a body given as bytes.
        public init(id: String, body: [UInt8]) {
            self.id = id
            self.body = body
        }

        /// TXXX: UTF-8, description, value.
        public static func userText(description: String, value: String) -> Frame {
            Frame(id: "TXXX", body: [3] + Array(description.utf8) + [0] + Array(value.utf8))
        }

        /// A text frame (TIT2, TPE1, ...), UTF-8.
        public static func text(_ id: String, _ value: String) -> Frame {
            Frame(id: id, body: [3] + Array(value.utf8))
        }

        /// PRIV: owner identifier, then the data.
        public static func privateData(owner: String, _ data: [UInt8]) -> Frame {
            Frame(id: "PRIV", body: Array(owner.utf8) + [0] + data)
        }

        /// The PRIV frame HLS packed audio starts with: the 33-bit MPEG-2 timestamp of the
        /// segment's first sample, in 8 bytes.
        public static func transportStreamTimestamp(_ ticks90kHz: UInt64) -> Frame {
            let value = ticks90kHz & 0x1_FFFF_FFFF
            return privateData(
                owner: "com.apple.streaming.transportStreamTimestamp",
                (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) })
        }
    }

    /// A tag of these frames (ID3v2.4, no flags, synchsafe sizes).
    public static func tag(_ frames: [Frame]) -> [UInt8] {
        var body: [UInt8] = []
        for frame in frames {
            body += Array(frame.id.utf8) + synchsafe(frame.body.count) + [0, 0] + frame.body
        }
        return header(size: body.count) + body
    }

    /// The 10-byte tag header claiming `size` bytes after it.
    public static func header(size: Int) -> [UInt8] {
        Array("ID3".utf8) + [4, 0, 0] + synchsafe(size)
    }

    /// A 28-bit size as four 7-bit bytes.
    public static func synchsafe(_ size: Int) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: size)
        return [
            UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F),
        ]
    }
}
