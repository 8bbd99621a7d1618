/// A source that reads its adaptive stream's manifest beside the demuxer, to tell which variant
/// each downloaded segment belongs to. For demuxers that do not report their own variant
/// switches (GStreamer 1.22's `dashdemux`): the player announces
/// ``PlayerEvent/variantSwitched(_:)`` when a segment of another variant arrives.
package protocol AdaptiveManifestReading: MediaSource {
    /// The variants of the manifest's segments, or nil when the manifest is not one the source
    /// reads, or names no variant. Called on the player's thread with the manifest the demuxer
    /// read (at most 4 MiB of UTF-8), once per preparation; must not block on I/O.
    /// - Parameter manifest: The manifest's text.
    /// - Returns: A lookup from a segment's URI to its variant.
    func segmentVariants(inManifest manifest: String) -> SegmentVariants?
}

/// Which variant of an adaptive stream a segment belongs to, by the segment's URI.
package struct SegmentVariants: Sendable {
    private let lookup: @Sendable (String) -> SegmentVariant?

    /// A lookup.
    /// - Parameter lookup: The variant of a segment's URI, nil when none (or more than one) matches.
    package init(_ lookup: @escaping @Sendable (String) -> SegmentVariant?) {
        self.lookup = lookup
    }

    /// The variant a segment's URI belongs to; nil when unknown or not one the player reports.
    /// - Parameter uri: The segment's URI, as the demuxer downloaded it.
    /// - Returns: Its variant.
    package func variant(ofSegment uri: String) -> SegmentVariant? {
        lookup(uri)
    }
}

/// One variant of an adaptive stream: a DASH representation.
package struct SegmentVariant: Sendable, Hashable {
    /// Its name in the manifest (a representation's `id`).
    package var id: String
    /// The bitrate the manifest gives it (`bandwidth`), in bits per second.
    package var bandwidth: Int

    /// A variant.
    /// - Parameters:
    ///   - id: Its name in the manifest.
    ///   - bandwidth: Its bitrate in bits per second.
    package init(id: String, bandwidth: Int) {
        self.id = id
        self.bandwidth = bandwidth
    }
}
