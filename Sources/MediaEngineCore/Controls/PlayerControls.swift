import Dispatch

/// The engine's on-screen controls of one player (``MoviePlayer/controlStyle``): the style, when
/// they were last used, and their bars (``ControlsOverlay``) among the player's overlays while a
/// style is on. What they show comes from the player (``connect(snapshot:perform:)``); what a
/// click asks for goes back to it, which makes the matching API call.
final class PlayerControls: Sendable {
    private struct State {
        var kind = ControlsKind.none
        /// Whether the app chose the controls (``MoviePlayer/controlStyle``,
        /// ``MoviePlayer/movieControlMode``); until it does they follow the output's default.
        var chosen = false
        var shown: [VideoOverlays.ID] = []
        var lastInput = DispatchTime.now()
        var wasPlaying = false
        var trackMenuOpen = false
        var layout: ControlsLayout?
        /// The longest time label the movie needs ("1:23:45" for an hour or more).
        var timeCharacters = 6
    }

    private struct Player {
        var read: @Sendable (_ frameTime: Duration?) -> ControlsSnapshot = { _ in ControlsSnapshot() }
        var isPlaying: @Sendable () -> Bool = { false }
        var perform: @Sendable (ControlAction) -> Void = { _ in }
    }

    private let state = Locked(State())
    private let player = Locked(Player())

    /// Shows what `snapshot` reads (over a frame at the time given, or now for nil), fades by
    /// `isPlaying` (read twice a frame per bar, so it reads only that), and does what a click asks
    /// with `perform`.
    func connect(
        snapshot: @escaping @Sendable (_ frameTime: Duration?) -> ControlsSnapshot,
        isPlaying: @escaping @Sendable () -> Bool,
        perform: @escaping @Sendable (ControlAction) -> Void
    ) {
        player.withLock { $0 = Player(read: snapshot, isPlaying: isPlaying, perform: perform) }
    }

    private func read(_ frameTime: Duration?) -> ControlsSnapshot {
        player.withLock { $0.read }(frameTime)
    }

    private func perform(_ action: ControlAction) {
        player.withLock { $0.perform }(action)
    }

    /// The controls an output shows until the app chooses: the fullscreen set in a window the
    /// player opens itself (a sink with ``VideoSinkCapabilities/window`` and no app's window), as
    /// MPMoviePlayerController shows its default style; none where the frames go to a program or
    /// into an app's window (frames, image files, a terminal, a network output, `windowHandle`).
    static func defaultKind(for sink: any VideoSink, windowHandle: UInt?) -> ControlsKind {
        sink.capabilities.contains(.window) && windowHandle == nil ? ControlsKind(MovieControlStyle.default) : .none
    }

    /// The style shown (the volume-only set reads as ``MovieControlStyle/embedded``).
    var style: MovieControlStyle { kind.style }

    /// The set of controls shown.
    var kind: ControlsKind { state.withLock { $0.kind } }

    /// Whether the app chose the controls, rather than the output's default.
    var isChosen: Bool { state.withLock { $0.chosen } }

    /// The app chose `kind`: its bars show in `overlays` (or none), and stay whatever the output.
    func choose(_ kind: ControlsKind, in overlays: VideoOverlays) {
        state.withLock { $0.chosen = true }
        show(kind, in: overlays)
    }

    /// The output's default is `kind`: shown, unless the app chose the controls.
    func setDefault(_ kind: ControlsKind, in overlays: VideoOverlays) {
        guard state.withLock({ !$0.chosen && $0.kind != kind }) else { return }
        show(kind, in: overlays)
    }

    /// Shows the bars of `kind` in `overlays` (or removes them, for none). They show at once,
    /// for the usual few seconds if the movie plays.
    private func show(_ kind: ControlsKind, in overlays: VideoOverlays) {
        let removed = state.withLock { state -> [VideoOverlays.ID] in
            defer { state.shown = [] }
            state.kind = kind
            state.layout = nil
            state.trackMenuOpen = false
            state.lastInput = .now()
            return state.shown
        }
        for id in removed { overlays.remove(id) }
        guard kind != .none else { return }
        var ids: [VideoOverlays.ID] = []
        let bars =
            kind == .fullscreen
            ? [
                ControlsOverlay(.topLeading, of: self), ControlsOverlay(.topTrailing, of: self),
                ControlsOverlay(.bottom, of: self),
            ]
            : [ControlsOverlay(.bottom, of: self)]
        for bar in bars {
            ids.append(
                overlays.add(bar) { [weak self, weak bar] region, point in
                    guard let self, let action = bar?.action(forRegion: region, at: point) else { return }
                    self.handle(action)
                })
        }
        if kind == .fullscreen {
            let menu = TrackMenuOverlay(of: self)
            ids.append(
                overlays.add(menu) { [weak self, weak menu] region, _ in
                    guard let self, let action = menu?.action(forRegion: region) else { return }
                    self.handle(action)
                })
        }
        state.withLock { $0.shown = ids }
    }

    /// A click asked for `action`: the track menu opens or closes here (a choice in it closes
    /// it); the player does the rest.
    private func handle(_ action: ControlAction) {
        noteInput()
        state.withLock { state in
            switch action {
            case .toggleTrackMenu: state.trackMenuOpen.toggle()
            case .selectAudioTrack, .selectSubtitleTrack: state.trackMenuOpen = false
            default: break
            }
        }
        perform(action)
    }

    /// Whether the track menu is open.
    var isTrackMenuOpen: Bool { state.withLock { $0.trackMenuOpen } }

    /// The track menu as it shows now, under the layout last drawn; nil when closed.
    func trackMenu() -> TrackMenu? {
        guard let layout = state.withLock({ $0.trackMenuOpen ? $0.layout : nil }) else { return nil }
        return TrackMenu(layout: layout, snapshot: snapshot(at: nil))
    }

    /// A pointer moved, a key was pressed or a control clicked: the controls show again.
    func noteInput() {
        state.withLock { $0.lastInput = .now() }
    }

    /// What the controls show over a frame at `frameTime`.
    func snapshot(at frameTime: Duration?) -> ControlsSnapshot {
        var snapshot = read(frameTime)
        snapshot.isTrackMenuOpen = isTrackMenuOpen
        return snapshot
    }

    /// The layout for an output of `size` and a movie of `duration`, kept while they and the
    /// style stay.
    func layout(for size: VideoSize, duration: Duration?) -> ControlsLayout {
        let duration = duration ?? .zero
        return state.withLock { state in
            let characters = duration >= .seconds(3600) ? 8 : 6
            if let layout = state.layout, layout.viewSize == size, state.timeCharacters == characters { return layout }
            let layout = ControlsLayout(kind: state.kind, viewSize: size, timeCharacters: characters)
            state.layout = layout
            state.timeCharacters = characters
            return layout
        }
    }

    /// The bars' opacity now: 1 while the movie is not playing, or for a few seconds after the
    /// last input (and after playback starts); then fading to 0.
    var opacity: Double {
        let playing = player.withLock { $0.isPlaying }()
        return state.withLock { state in
            guard state.kind != .none else { return 0 }
            let now = DispatchTime.now()
            if playing && !state.wasPlaying { state.lastInput = now }
            state.wasPlaying = playing
            let idle = Duration.nanoseconds(Int64(clamping: now.uptimeNanoseconds &- state.lastInput.uptimeNanoseconds))
            return ControlsVisibility.opacity(idle: idle, playing: playing)
        }
    }
}
