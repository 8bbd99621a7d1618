/// A movie whose file is cut short: announced when it is prepared, and told truthfully when
/// playback reaches the cut, whether or not an element complained there.
extension PlayerMachine.State {
    /// The source's tables say the movie is cut short: keep how much is present (never more
    /// than the duration the pipeline states) and warn.
    mutating func noteTruncation(_ found: MovieTruncation?) {
        guard let found, facts.truncation == nil else { return }
        let duration = duration ?? found.duration ?? found.playableDuration
        let noted = MovieTruncation(playableDuration: min(found.playableDuration, duration), duration: duration)
        facts.truncation = noted
        publish(.truncationDetected(playable: noted.playableDuration, duration: duration))
    }

    /// The error to finish with when the stream ends at `position` going forward: the movie is
    /// known to be cut short before the end playback aims for, or it ends well before its
    /// announced duration (a source that cannot read its tables; the source is then asked to
    /// make the error more precise: `interpret`). Nil for a normal end.
    func truncatedEnd(at position: Duration?) -> (error: MediaError, interpret: Bool)? {
        guard rate > 0 else { return nil }
        if let truncation {
            if let end = playbackEnd, end <= truncation.playableDuration { return nil }
            let duration = truncation.duration ?? duration ?? truncation.playableDuration
            let error = MediaError(
                .truncatedMovie,
                "the movie is cut short: its file holds \(truncation.playableDuration.formattedSeconds) "
                    + "of \(duration.formattedSeconds), and playback reached the cut",
                debugDetail: position.map { "the stream ended at \($0.formattedSeconds)" })
            return (error, false)
        }
        guard let expectedEnd = playbackEnd ?? duration, let position,
            position + PlayerMachine.truncationTolerance(for: expectedEnd) < expectedEnd
        else { return nil }
        let error = MediaError(
            .truncatedMovie,
            "the movie ends at \(position.formattedSeconds) but its header says \(expectedEnd.formattedSeconds)")
        return (error, true)
    }

    /// Where a seek can expect no frame: at the end of the movie, or past the cut of one cut short.
    var lastFramePosition: Duration? {
        truncation?.playableDuration ?? duration
    }
}
