internal import CMediaEngineCGStreamer

/// What an adaptive demuxer (`hlsdemux`, `dashdemux`) says about its downloads, from its
/// `adaptive-streaming-statistics` element messages: a move to another variant, or a segment
/// downloaded. The bus-level facts behind ``PlayerEvent/variantSwitched(_:)`` (and an access
/// log's entries: one per variant, with the segments and bytes downloaded).
enum AdaptiveStreamingReport: Sendable, Equatable {
    /// The demuxer moved to another variant (HLS; GStreamer 1.22's `dashdemux` does not say: the
    /// player tells its switches from the segments' URIs, ``SegmentVariants``).
    case variantSwitched(VariantSwitch)
    /// A segment was downloaded: its URI, size and how long it took.
    case segmentDownloaded(uri: String, bytes: Int, downloadTime: Duration?)

    /// The message's name.
    static let messageName = "adaptive-streaming-statistics"

    /// Reads the message; nil for the manifest's own download and anything unrecognised.
    init?(_ structure: Structure) {
        guard structure.name == Self.messageName, let uri = structure.string("uri") else { return nil }
        let clean = URIRedaction.redacting(uri)
        if let bitrate = structure.int("bitrate") {
            self = .variantSwitched(VariantSwitch(uri: clean, indicatedBitrate: bitrate))
        } else if let bytes = structure.uint64("fragment-size") {
            let time = structure.uint64("fragment-download-time").flatMap { Duration(clockTime: GstClockTime($0)) }
            self = .segmentDownloaded(uri: clean, bytes: Int(clamping: bytes), downloadTime: time)
        } else {
            return nil
        }
    }
}

/// An adaptive stream moved to another variant (an HLS stream's rendition at another bitrate
/// and often another size): MPMoviePlayerController's access log starts a new entry there.
public struct VariantSwitch: Sendable, Hashable, CustomStringConvertible {
    /// The variant's playlist, with no user information.
    public var uri: String
    /// The bitrate the manifest gives the variant (`BANDWIDTH`), in bits per second.
    public var indicatedBitrate: Int

    /// A switch to the variant at `uri`.
    /// - Parameters:
    ///   - uri: The variant's playlist.
    ///   - indicatedBitrate: Its bitrate in the manifest, in bits per second.
    public init(uri: String, indicatedBitrate: Int) {
        self.uri = uri
        self.indicatedBitrate = indicatedBitrate
    }

    /// `VariantSwitch(650000 bit/s, http://host/mid.m3u8)`.
    public var description: String { "VariantSwitch(\(indicatedBitrate) bit/s, \(uri))" }
}
