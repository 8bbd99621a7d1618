/// What streamed content (HLS, DASH: ``MovieSourceType/streaming``) changes in the player's
/// decisions, as MPMoviePlayerController has it: the playback range's end is ignored, a stream
/// starts at the segment boundary at or before ``initialPlaybackTime``, and the adaptive
/// demuxer's variant switches are announced.
extension PlayerMachine {
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

    /// An adaptive demuxer's report: a variant switch is announced; a segment's download is only
    /// a fact for now (the access log counts them).
    mutating func adaptiveStreamingReported(session: Int, _ report: AdaptiveStreamingReport) {
        guard accepts(session) else { return }
        switch report {
        case .variantSwitched(let change):
            publish(.variantSwitched(change))
        case .segmentDownloaded:
            break
        }
    }
}
