/// A typed view of a movie's metadata: the GStreamer tags most apps look for, by name, with
/// every tag still in ``raw``.
///
/// Made from ``MoviePlayer/metadata`` (``MoviePlayer/movieMetadata``) or from the tags of a
/// ``PlayerEvent/metadataAvailable(_:)`` event (``init(tags:)``). Tags reach the player from the
/// container and from each stream and are merged as they arrive, so where two streams report the
/// same tag (`bitrate`), the value is the one reported last.
public struct MovieMetadata: Sendable, Hashable {
    /// GStreamer's names for the tags this view reads (`GST_TAG_TITLE`, `GST_TAG_ARTIST`, ...).
    public enum TagName {
        /// `GST_TAG_TITLE`.
        public static let title = "title"
        /// `GST_TAG_ARTIST`.
        public static let artist = "artist"
        /// `GST_TAG_ALBUM`.
        public static let album = "album"
        /// `GST_TAG_VIDEO_CODEC`.
        public static let videoCodec = "video-codec"
        /// `GST_TAG_AUDIO_CODEC`.
        public static let audioCodec = "audio-codec"
        /// `GST_TAG_CONTAINER_FORMAT`.
        public static let containerFormat = "container-format"
        /// `GST_TAG_BITRATE`: the exact or average bitrate, in bits per second.
        public static let bitrate = "bitrate"
        /// `GST_TAG_NOMINAL_BITRATE`: the nominal bitrate, in bits per second.
        public static let nominalBitrate = "nominal-bitrate"
    }

    /// The title (`title`), for example from an MP4's `©nam` box.
    public let title: String?
    /// The artist (`artist`).
    public let artist: String?
    /// The album (`album`).
    public let album: String?
    /// How the video is coded, as GStreamer describes it (`video-codec`): `H.264 / AVC`,
    /// `H.264 (High Profile)`, `On2 VP8`, ...
    public let videoCodec: String?
    /// How the audio is coded (`audio-codec`): `MPEG-4 AAC`, `Vorbis`, ...
    public let audioCodec: String?
    /// The container (`container-format`): `ISO MP4/M4A`, `Matroska`, `Ogg`, ...
    public let containerFormat: String?
    /// The bitrate in bits per second (`bitrate`, or `nominal-bitrate` when only that is known);
    /// nil when no stream reported one.
    public let bitrate: Int?
    /// Every tag, by GStreamer's name, with non-string values serialized
    /// (`gst_value_serialize`), the ones read above included.
    public let raw: [String: String]

    /// Reads the typed fields out of a set of tags.
    /// - Parameter tags: GStreamer tag names to values, as ``MoviePlayer/metadata`` holds them.
    public init(tags: [String: String]) {
        raw = tags
        title = tags[TagName.title]
        artist = tags[TagName.artist]
        album = tags[TagName.album]
        videoCodec = tags[TagName.videoCodec]
        audioCodec = tags[TagName.audioCodec]
        containerFormat = tags[TagName.containerFormat]
        bitrate = (tags[TagName.bitrate] ?? tags[TagName.nominalBitrate]).flatMap { Int($0) }
    }
}
