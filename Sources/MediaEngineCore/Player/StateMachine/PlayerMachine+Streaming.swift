/// What streamed content (HLS, DASH: ``MovieSourceType/streaming``) changes in the player's
/// decisions, as MPMoviePlayerController has it: the playback range's end is ignored, a stream
/// starts at the segment boundary at or before ``initialPlaybackTime``, and the adaptive
/// demuxer's variant switches are announced.
extension PlayerMachine.State {
    /// Whether the movie is streamed content (a manifest), not a file.
    var isStreaming: Bool { sourceType == .streaming }

    /// The end of the playback range as the player uses it: ``endPlaybackTime``, except for
    /// streamed content, where MPMoviePlayerController ignores it (the property keeps its value).
    var playbackEnd: Duration? { isStreaming ? nil : endPlaybackTime }

    /// How the seek to the initial playback time lands: on that very frame for a file; for a
    /// stream, at the start of the segment that holds it (a keyframe seek that snaps before,
    /// which the adaptive demuxers take to the segment's start), as MPMoviePlayerController
    /// starts a stream "at the nearest segment boundary".
    var preparationAccuracy: SeekPlan.Accuracy { isStreaming ? .keyFrame : .exact }

    /// An adaptive demuxer's report: a variant switch is announced. A segment's download is
    /// counted by the access log; when the source read the manifest (``segmentVariants``), a
    /// segment of another variant than the last one's is a switch the demuxer did not report
    /// (DASH), announced as one, with the manifest's URI and the representation's `id` after `#`.
    mutating func adaptiveStreamingReported(session: Int, _ report: AdaptiveStreamingReport) {
        guard accepts(session) else { return }
        switch report {
        case .variantSwitched(let change):
            publish(.variantSwitched(change))
        case .segmentDownloaded(let uri, _, _):
            guard let variant = movie.segmentVariants?.variant(ofSegment: uri) else { return }
            let previous = movie.segmentVariant
            withMovie { $0.segmentVariant = variant }
            guard let previous, previous != variant else { return }
            let manifest = URIRedaction.redacting(source.uri)
            publish(
                .variantSwitched(VariantSwitch(uri: manifest + "#" + variant.id, indicatedBitrate: variant.bandwidth)))
        }
    }

    /// The source read the stream's manifest: the variants of its segments, or nil.
    mutating func manifestRead(session: Int, variants: SegmentVariants?) {
        guard accepts(session) else { return }
        withMovie { movie in
            movie.segmentVariants = variants
            movie.segmentVariant = nil
        }
    }
}
