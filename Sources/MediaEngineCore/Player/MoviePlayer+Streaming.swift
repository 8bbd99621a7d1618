internal import CMediaEngineCGStreamer

/// Streamed content (HLS, DASH): the part of a stream the player can seek in.
extension MoviePlayer {
    /// The range of positions ``seek(to:option:)`` can reach, in the same time as
    /// ``currentPlaybackTime``: the whole movie for a file or a finished (VOD) stream; for a live
    /// stream, its window (the segments its playlist lists now, less the last three target
    /// durations, which the demuxer keeps back from the live edge), moving forward as the playlist
    /// grows. Nil when nothing is prepared or the pipeline cannot seek (AVPlayer's
    /// `seekableTimeRanges`; MPMoviePlayerController has none).
    ///
    /// Asks the pipeline (a seeking query, answered by the demuxer) each time it is read.
    public var seekableRange: ClosedRange<Duration>? {
        let session = core.state.withLock { $0.machine.phase == .prepared ? $0.session : nil }
        return session?.seekableRange
    }

    /// Whether the movie is a live stream: a playlist still growing (no `EXT-X-ENDLIST`, a
    /// dynamic DASH manifest). Its ``duration`` is nil, its position counts from the start of
    /// the stream as the demuxer knows it, and ``seekableRange`` moves.
    public var isLiveStream: Bool {
        let (session, type, duration) = core.state.withLock {
            ($0.machine.phase == .prepared ? $0.session : nil, $0.machine.sourceType, $0.machine.duration)
        }
        guard type == .streaming, duration == nil, let session else { return false }
        return session.duration == nil
    }
}

extension PipelineSession {
    /// The seekable range the pipeline reports (`GST_QUERY_SEEKING` in time), or nil.
    var seekableRange: ClosedRange<Duration>? {
        guard let (seekable, start, end) = playbin.querySeeking(), seekable, start >= 0 else { return nil }
        let lower = Duration(clockTime: GstClockTime(start)) ?? .zero
        // A VOD stream or file may leave the end open (-1): its duration is the end.
        let upper = end >= 0 ? Duration(clockTime: GstClockTime(end)) : duration
        guard let upper, upper >= lower else { return nil }
        return lower...upper
    }
}
