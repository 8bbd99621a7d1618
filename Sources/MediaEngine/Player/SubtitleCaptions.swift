/// The captions of the movie's subtitle stream (``MoviePlayer/selectSubtitleTrack(_:)``): the
/// cues playbin's text stream delivers (``SubtitleDelivery``; they come ahead of their time,
/// often all at once for a short movie) are kept whether or not a track is shown, each once
/// however often a seek brings it again; one ``TextOverlay`` in the player's overlays draws them
/// while a track is chosen.
final class SubtitleCaptions: Sendable {
    private struct State {
        var shown: VideoOverlays.ID?
        /// The track the kept cues belong to (playbin's first until another is chosen).
        var track = 0
        /// Every cue kept, by start and text.
        var seen: Set<TextCue> = []
    }

    /// Cues kept at most: a film's subtitles are a few thousand; a stream that sends more keeps
    /// the latest (``SubtitleParser/maximumCueCount``, as for a file).
    static let maximumCues = SubtitleParser.maximumCueCount

    let overlay: TextOverlay
    private let state = Locked(State())

    init() {
        // An empty cue list and the default style cannot fail to validate.
        // swift-format-ignore: NeverUseForceTry
        overlay = try! TextOverlay(cues: [])
    }

    /// Shows the cues of `track` (in `overlays`), or hides them with nil. Another track than the
    /// one whose cues are kept starts empty: its cues come from where the movie is.
    func show(track: Int?, in overlays: VideoOverlays) {
        let (removed, forget) = state.withLock { state -> (VideoOverlays.ID?, Bool) in
            defer { state.shown = nil }
            guard let track, track != state.track else { return (state.shown, false) }
            state.track = track
            state.seen = []
            return (state.shown, true)
        }
        if forget { overlay.cues = [] }
        if let removed { _ = overlays.remove(removed) }
        guard track != nil else { return }
        let id = overlays.add(overlay)
        state.withLock { $0.shown = id }
    }

    /// A new movie in the pipeline: the old one's cues go, and its first track's are kept next.
    func newMovie() {
        state.withLock { state in
            state.track = 0
            state.seen = []
        }
        overlay.cues = []
    }

    /// A cue of the stream, on a streaming thread.
    func add(_ cue: TextCue) {
        guard state.withLock({ $0.seen.insert(cue).inserted }) else { return }
        var cues = overlay.cues
        let place = cues.firstIndex { $0.start > cue.start } ?? cues.endIndex
        cues.insert(cue, at: place)
        if cues.count > Self.maximumCues { cues.removeFirst(cues.count - Self.maximumCues) }
        overlay.cues = cues
    }
}
