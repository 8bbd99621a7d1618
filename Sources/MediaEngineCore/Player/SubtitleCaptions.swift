/// The captions of the movie's subtitle stream (``MoviePlayer/selectSubtitleTrack(_:)``): the
/// cues playbin's text stream delivers (``SubtitleDelivery``; they come ahead of their time,
/// often all at once for a short movie) are kept whether or not a track is shown, each once
/// however often a seek brings it again; one ``TextOverlay`` in the player's overlays draws them
/// while a track is chosen. A closed-captions channel (``ClosedCaptions``, decoded from the video
/// frames) is drawn by the same overlay, in the same style, while it is the track chosen.
final class SubtitleCaptions: Sendable {
    private struct State {
        var shown: VideoOverlays.ID?
        /// The track the kept cues belong to (playbin's first until another is chosen).
        var track = 0
        /// Every cue kept, by start and text.
        var seen: Set<TextCue> = []
        /// The closed-captions channel drawn instead of the stream's cues, if one is chosen.
        var channel: ClosedCaptionChannel?
    }

    /// Cues kept at most: a film's subtitles are a few thousand; a stream that sends more keeps
    /// the latest (``SubtitleParser/maximumCueCount``, as for a file).
    static let maximumCues = SubtitleParser.maximumCueCount

    let overlay: TextOverlay
    /// The closed captions the video carries.
    let closedCaptions = ClosedCaptions()
    private let state = Locked(State())

    init() {
        // An empty cue list and the default style cannot fail to validate.
        // swift-format-ignore: NeverUseForceTry
        overlay = try! TextOverlay(cues: [])
    }

    /// Shows the cues of `choice` (in `overlays`), or hides them with nil. Another stream track
    /// than the one whose cues are kept starts empty: its cues come from where the movie is.
    func show(_ choice: SubtitleChoice?, in overlays: VideoOverlays) {
        // The cues are set under the lock: a closed caption decoded meanwhile on the streaming
        // thread (receiveClosedCaptions) comes after them, not before.
        let removed = state.withLock { state -> VideoOverlays.ID? in
            defer { state.shown = nil }
            switch choice {
            case .stream(let track):
                let captionsWereShown = state.channel != nil
                state.channel = nil
                if track != state.track {
                    state.track = track
                    state.seen = []
                    overlay.cues = []
                } else if captionsWereShown {
                    overlay.cues = state.seen.sorted { $0.start < $1.start }
                }
            case .closedCaptions(let channel):
                state.channel = channel
                overlay.cues = closedCaptions.cues(of: channel)
            case nil:
                break
            }
            return state.shown
        }
        if let removed { _ = overlays.remove(removed) }
        guard choice != nil else { return }
        let id = overlays.add(overlay)
        state.withLock { $0.shown = id }
    }

    /// A new movie in the pipeline: the old one's cues go, and its first track's are kept next.
    func newMovie() {
        state.withLock { state in
            state.track = 0
            state.seen = []
        }
        closedCaptions.newMovie()
        overlay.cues = []
    }

    /// One video frame's closed-caption data, on a streaming thread (see
    /// ``ClosedCaptions/receive(_:carriage:at:)``): the chosen channel's cues follow at once.
    /// - Returns: The channels in use, when the frame brought a new one.
    func receiveClosedCaptions(_ bytes: [UInt8], carriage: Int32, at time: Duration?) -> [ClosedCaptionChannel]? {
        let received = closedCaptions.receive(bytes, carriage: carriage, at: time)
        if !received.cues.isEmpty {
            state.withLock { state in
                guard let channel = state.channel, let cues = received.cues[channel] else { return }
                overlay.cues = cues
            }
        }
        return received.channels
    }

    /// Another movie starts in the pipeline: the last one's caption channels and state go.
    func forgetClosedCaptions() {
        closedCaptions.newMovie()
        state.withLock { state in
            if state.channel != nil { overlay.cues = [] }
        }
    }

    /// A flush of the video (a seek): captions show again from the next caption command.
    func flushClosedCaptions() {
        closedCaptions.flush()
        state.withLock { state in
            if state.channel != nil { overlay.cues = [] }
        }
    }

    /// A cue of the stream, on a streaming thread.
    func add(_ cue: TextCue) {
        guard state.withLock({ $0.seen.insert(cue).inserted && $0.channel == nil }) else { return }
        var cues = overlay.cues
        let place = cues.firstIndex { $0.start > cue.start } ?? cues.endIndex
        cues.insert(cue, at: place)
        if cues.count > Self.maximumCues { cues.removeFirst(cues.count - Self.maximumCues) }
        overlay.cues = cues
    }
}
