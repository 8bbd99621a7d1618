import MediaEngineCore

/// How an HLS or DASH stream picks among its variants (renditions of the same movie at several
/// bitrates and sizes).
///
/// GStreamer's demuxer measures how fast each segment downloads and moves to the best variant
/// whose bitrate fits in ``bandwidthFraction`` of that; these options choose where it starts and
/// can pin the bandwidth instead of measuring it.
public struct AdaptiveStreamingOptions: Sendable, Hashable {
    /// The bandwidth (bits per second) assumed until the first segment has arrived: the stream
    /// starts on the best variant that fits in it. The default, 1, starts on the lowest variant,
    /// whose first segment is the smallest and arrives first (the demuxer then measures and
    /// climbs); nil starts where the manifest says (HLS: the variant listed first).
    public var startBitrate: Int? = 1
    /// The network's bandwidth (bits per second), instead of measuring it: the demuxer picks the
    /// best variant that fits and stays there. Nil (the default) measures.
    public var fixedBandwidth: Int?
    /// The fraction of the measured bandwidth a variant may use (GStreamer's `bitrate-limit`,
    /// 0.8 by default); between 0 and 1.
    public var bandwidthFraction: Double?

    /// The defaults: start on the lowest variant, measure, switch at 80 % of the bandwidth.
    public init() {}

    /// Options with the given values.
    /// - Parameters:
    ///   - startBitrate: The bandwidth (bits per second) assumed until the first segment arrives.
    ///   - fixedBandwidth: A bandwidth (bits per second) to use instead of measuring.
    ///   - bandwidthFraction: The fraction of the bandwidth a variant may use.
    public init(startBitrate: Int? = 1, fixedBandwidth: Int? = nil, bandwidthFraction: Double? = nil) {
        self.startBitrate = startBitrate
        self.fixedBandwidth = fixedBandwidth
        self.bandwidthFraction = bandwidthFraction
    }

    /// The demuxer's properties (`hlsdemux`, `dashdemux`: `connection-speed` in kbit/s,
    /// `bitrate-limit`).
    var demuxerProperties: [String: PropertyValue] {
        var properties: [String: PropertyValue] = [:]
        if let fixedBandwidth { properties["connection-speed"] = .int(max(1, fixedBandwidth / 1000)) }
        if let bandwidthFraction { properties["bitrate-limit"] = .double(bandwidthFraction) }
        return properties
    }
}
