/// Typed properties for the GStreamer elements that read a source, applied when playbin
/// makes them: the source element itself (playbin's `source-setup` signal), the source elements
/// an adaptive demuxer makes for its segments, and the adaptive demuxer (HLS, DASH). A property
/// the element does not have is skipped, so one set of settings can serve several source
/// elements; a property it has with a value of the wrong type fails preparation with
/// ``MediaError/Code/invalidProperty``.
public struct SourceSettings: Sendable, Hashable {
    /// Property names and values, for example `["blocksize": 65536]`. Applied to the source
    /// element and to every source element the pipeline makes later to read parts of the same
    /// movie (the segments of an HLS or DASH stream, which GStreamer 1.22's `hlsdemux` and
    /// `dashdemux` read with source elements of their own).
    public var properties: [String: PropertyValue]
    /// Properties for an adaptive-streaming demuxer (`hlsdemux`, `dashdemux`), when the movie
    /// turns out to be a stream, for example `["connection-speed": 2000]`.
    public var demuxerProperties: [String: PropertyValue]
    /// The bandwidth, in bits per second, an adaptive demuxer assumes until the stream's first
    /// data has come out of it: it picks the variant the stream starts with (the best one that
    /// fits), then measures the downloads (or keeps the `connection-speed` of
    /// ``demuxerProperties``). Nil leaves the choice to the demuxer (HLS: the variant listed
    /// first).
    public var startBitrate: Int?

    /// Creates settings.
    /// - Parameters:
    ///   - properties: Property names and values for the source elements.
    ///   - demuxerProperties: Property names and values for an adaptive demuxer.
    ///   - startBitrate: The bandwidth (bits per second) an adaptive stream starts with.
    public init(
        properties: [String: PropertyValue] = [:], demuxerProperties: [String: PropertyValue] = [:],
        startBitrate: Int? = nil
    ) {
        self.properties = properties
        self.demuxerProperties = demuxerProperties
        self.startBitrate = startBitrate
    }

    /// Whether there is nothing to apply.
    public var isEmpty: Bool { properties.isEmpty && demuxerProperties.isEmpty && startBitrate == nil }
}
