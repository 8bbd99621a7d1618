/// One piece of metadata that belongs to a moment of the movie (MPTimedMetadata): an ID3 frame
/// carried in an MPEG-TS timed-metadata stream or at the start of packed audio, an ICY stream
/// title, or a tag that changed while the movie played.
///
/// The player announces items when playback reaches their ``time``, not when the demuxer reads
/// them (``PlayerEvent/timedMetadataChanged(_:)``, ``MoviePlayer/timedMetadata``).
public struct TimedMetadataItem: Sendable, Hashable, CustomStringConvertible {
    /// Where a key comes from, and so how to read it.
    public enum KeySpace: String, Sendable, Hashable {
        /// An ID3v2 frame ID: `TIT2`, `TXXX`, `PRIV`, `COMM`, ...
        case id3
        /// A Shoutcast/Icecast in-stream field: `StreamTitle`, `StreamUrl`.
        case icy
        /// A GStreamer tag name (`title`, `artist`, ...): a tag that changed while the movie
        /// played, or an ID3 frame GStreamer reads into a tag that has no frame ID of its own.
        case gstreamerTag
    }

    /// An item's value.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        /// Text: a text frame's (or TXXX's) value, a stream title.
        case text(String)
        /// Bytes: a PRIV frame's private data (its owner in ``TimedMetadataItem/identifier``), or
        /// the body of a frame the engine does not read as text.
        case data([UInt8])

        /// The text, for a ``text(_:)`` value.
        public var text: String? {
            if case .text(let text) = self { return text }
            return nil
        }

        /// The bytes, for a ``data(_:)`` value.
        public var data: [UInt8]? {
            if case .data(let bytes) = self { return bytes }
            return nil
        }

        /// The text in quotes, or the number of bytes.
        public var description: String {
            switch self {
            case .text(let text): "\"\(text)\""
            case .data(let bytes): "\(bytes.count) bytes"
            }
        }
    }

    /// The key: an ID3 frame ID (`TXXX`, `TIT2`, `PRIV`), `StreamTitle`, or a GStreamer tag name,
    /// as ``keySpace`` says.
    public let key: String
    /// What the key is.
    public let keySpace: KeySpace
    /// The value.
    public let value: Value
    /// What qualifies the key, when the frame has it: a TXXX frame's description, a PRIV frame's
    /// owner identifier (`com.apple.streaming.transportStreamTimestamp`), a COMM frame's
    /// description.
    public let identifier: String?
    /// The item's presentation time, as a position in the movie (the same clock as
    /// ``MoviePlayer/currentPlaybackTime``).
    public let time: Duration

    /// Makes an item.
    /// - Parameters:
    ///   - key: The key (`TIT2`, `StreamTitle`, ...).
    ///   - keySpace: What the key is.
    ///   - value: The value.
    ///   - identifier: The TXXX description or PRIV owner, if any.
    ///   - time: The presentation time.
    public init(key: String, keySpace: KeySpace, value: Value, identifier: String? = nil, time: Duration) {
        self.key = key
        self.keySpace = keySpace
        self.value = value
        self.identifier = identifier
        self.time = time
    }

    /// For a PRIV frame owned by `com.apple.streaming.transportStreamTimestamp` (the first frame
    /// of each HLS packed-audio segment carries one): the MPEG-2 presentation time stamp it holds,
    /// 33 bits of a 90 kHz clock, as a `Duration`; nil for any other item.
    public var transportStreamTimestamp: Duration? {
        guard keySpace == .id3, key == "PRIV", identifier == Self.transportStreamTimestampOwner,
            case .data(let bytes) = value, bytes.count == 8
        else { return nil }
        let ticks = bytes.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) } & 0x1_FFFF_FFFF
        return .nanoseconds(Int64(ticks) * 100_000 / 9)
    }

    /// The owner of the PRIV frame HLS packed audio starts with.
    public static let transportStreamTimestampOwner = "com.apple.streaming.transportStreamTimestamp"

    /// `TXXX[description]="value" @ 1.5 seconds`.
    public var description: String {
        let qualifier = identifier.map { "[\($0)]" } ?? ""
        return "\(key)\(qualifier)=\(value) @ \(time)"
    }
}
