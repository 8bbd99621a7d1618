/// One of a movie's audio or subtitle tracks, as its container describes it.
public struct MediaTrack: Sendable, Hashable, CustomStringConvertible {
    /// What the track carries.
    public enum Kind: String, Sendable, Hashable {
        /// Sound: one of the movie's audio streams.
        case audio
        /// Text or pictures shown over the video: one of the movie's subtitle streams.
        case subtitle
    }

    /// What the track carries.
    public let kind: Kind
    /// Its place among the movie's tracks of its kind, from 0.
    public let index: Int
    /// Its language, as the container tags it (ISO 639: `en`, `fra`, ...), if it says.
    public let languageCode: String?
    /// Its codec, as the demuxer names it (`Vorbis`, `MPEG-4 AAC`, ...), if it says.
    public let codec: String?
    /// Its title (`Director's commentary`), if it has one.
    public let title: String?
    /// Whether it is the one played when the movie is prepared: the demuxer's first or default
    /// track of its kind.
    public let isDefault: Bool

    /// Describes a track (the player makes these from the container's tags; tests and apps that
    /// keep their own track lists may too).
    /// - Parameters:
    ///   - kind: Audio or subtitle.
    ///   - index: Its place among the tracks of its kind, from 0: what the player's track choice takes.
    ///   - languageCode: The ISO 639 language tag, if known.
    ///   - codec: The codec's name, if known.
    ///   - title: The track's title, if any.
    ///   - isDefault: Whether it plays when nothing else is chosen.
    public init(
        kind: Kind, index: Int, languageCode: String? = nil, codec: String? = nil, title: String? = nil,
        isDefault: Bool = false
    ) {
        self.kind = kind
        self.index = index
        self.languageCode = languageCode
        self.codec = codec
        self.title = title
        self.isDefault = isDefault
    }

    /// `audio 1 (fr, Vorbis, "Français")`.
    public var description: String {
        let details = [languageCode, codec, title.map { "\"\($0)\"" }].compactMap { $0 }
        return "\(kind.rawValue) \(index)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }
}
