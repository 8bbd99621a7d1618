import MediaEngineCore

/// A DASH stream's switches: GStreamer 1.22's `dashdemux` does not report them, so the source
/// reads the manifest the demuxer read (``DASHManifest``) and the player tells each segment's
/// representation from its URI.
extension HTTPStreamSource: AdaptiveManifestReading {
    package func segmentVariants(inManifest manifest: String) -> SegmentVariants? {
        guard let mpd = DASHManifest(manifest) else { return nil }
        return SegmentVariants { mpd.variant(ofSegment: $0) }
    }
}
