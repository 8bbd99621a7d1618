import Dispatch

/// Window sinks: the window the video is drawn into (the app's, or one the player opens), its
/// size, and fullscreen.
extension PlayerCore {
    /// Gives a window sink in `chain` its window (the app's, or one the player opens), and
    /// sizes the frames to the whole window: the picture in the view frame, the background around
    /// it. Call before the chain's sink starts. From then on, an X error on the window (the app
    /// destroys it, say) ends the session with ``MediaError/Code/invalidWindow``.
    /// - Throws: ``MediaError/Code/invalidWindow`` when the app's window does not exist.
    func attachWindow(to output: VideoOutputBin, chain: VideoOutputBin.OutputChain? = nil) throws(MediaError) {
        guard chain?.isWindow ?? output.isWindow else { return }
        let (presentation, sink, existing, natural, sessionID) = state.withLock {
            ($0.machine.presentation, $0.machine.videoSink, $0.ownWindow, $0.machine.naturalSize, $0.machine.sessionID)
        }
        let display = (sink as? WindowSink)?.display
        let handle: UInt
        let canvas: VideoSize
        if let given = presentation.windowHandle {
            handle = given
            canvas = try WindowErrorWatch.checkedSize(ofWindow: given, display: display)
        } else {
            let size =
                presentation.viewFrame.map { VideoSize(width: $0.x + $0.width, height: $0.y + $0.height) }
                ?? (natural == .zero ? VideoSize(width: 320, height: 240) : natural)
            guard let window = existing ?? PlayerWindow(display: display, size: size, title: "swift-media-engine")
            else {
                return
            }
            if existing == nil {
                state.withLock { $0.ownWindow = window }
                // ximagesink shows the frame unscaled, centred (or from its top left when the
                // window is smaller): undo that, and the click is in the output frame's pixels.
                let watching = window.watchInput(
                    clicks: { [overlays] x, y, size in
                        guard let canvas = overlays.latestGeometry?.viewSize else { return }
                        let left = (size.width - min(size.width, canvas.width)) / 2
                        let top = (size.height - min(size.height, canvas.height)) / 2
                        overlays.click(viewX: Double(x - left), y: Double(y - top))
                    },
                    keys: { [overlays] key, shift in overlays.windowKeyPressed(key, shift: shift) })
                state.withLock { $0.ownWindowReportsKeys = watching }
            }
            if existing == nil, state.withLock({ $0.fullscreenRequested }) { openFullscreen(window) }
            handle = window.handle
            canvas = window.frame.size
        }
        // The player's own window reports its keys itself; an app's window, through the sink.
        let ownKeys = presentation.windowHandle == nil && state.withLock { $0.ownWindowReportsKeys }
        overlays.ownWindowReportsKeys.withLock { $0 = ownKeys }
        let updated = state.withLock { owned -> VideoPresentation in
            owned.machine.windowCanvasChanged(canvas)
            return owned.machine.presentation
        }
        if chain == nil { try output.apply(updated) }
        // Before the sink gets the window: its first request on it may fail already.
        output.watchWindow(handle) {
            WindowErrorWatch(window: handle) { [weak self] error in
                guard let core = self else { return }
                core.executor.enqueue { core.fail(session: sessionID, with: error) }
            }
        }
        output.attachWindow(
            handle, rectangle: ViewRect(x: 0, y: 0, width: canvas.width, height: canvas.height), chain: chain)
    }

    /// The player's own window has just opened and fullscreen was asked for before: it fills the
    /// screen at once, announced as a change without animation. On the player's thread.
    private func openFullscreen(_ window: PlayerWindow) {
        apply { $0.fullscreenWillChange(entering: true, animationDuration: .zero) }
        let (from, screen) = (window.frame, window.screen)
        if window.hasWindowManager {
            window.requestFullscreen(true)
        } else {
            window.place(screen)
        }
        applyOwned { owned in
            owned.fullscreenRequested = false
            owned.windowedFrame = from
            owned.machine.fullscreenDidChange(screenSize: screen.size)
        }
    }

    /// The movie's size became known: the player's own window (not fullscreen, no view frame)
    /// takes it. On the player's thread.
    func fitOwnWindow(to size: VideoSize, session: PipelineSession) {
        let window = state.withLock { owned in
            let presentation = owned.machine.presentation
            return presentation.viewFrame == nil && presentation.fullscreenSize == nil ? owned.ownWindow : nil
        }
        guard let window, size != .zero else { return }
        let frame = window.frame
        guard frame.size != size else { return }
        window.place(ViewRect(x: frame.x, y: frame.y, width: size.width, height: size.height))
        resizeCanvas(to: size, window: window, session: session)
    }

    /// The window is now `size`: frames follow, and the sink draws over all of it.
    private func resizeCanvas(to size: VideoSize, window: PlayerWindow, session: PipelineSession?) {
        let presentation = state.withLock { owned -> VideoPresentation in
            owned.machine.windowCanvasChanged(size)
            return owned.machine.presentation
        }
        guard let session else { return }
        apply(presentation, to: session)
        session.videoOutput.attachWindow(
            window.handle, rectangle: ViewRect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// Changes the scaling mode; in a window, the picture moves to its new place in ten steps over
    /// `duration` (the scaler's from-mode and progress), announced once, at the start.
    func changeScalingMode(to mode: ScalingMode, animatedOver duration: Duration) {
        let (from, animated, id) = state.withLock { owned -> (ScalingMode, Bool, Int) in
            let from = owned.machine.presentation.scalingMode
            let window = owned.session?.videoOutput.isWindow ?? false
            owned.scalingAnimation += 1
            return (from, window && duration > .zero && from != mode, owned.scalingAnimation)
        }
        updatePresentation {
            $0.scalingMode = mode
            $0.scalingTransition = animated ? VideoPresentation.ScalingTransition(from: from, progress: 0) : nil
        }
        guard animated else { return }
        let steps = 10
        for step in 1...steps {
            executor.enqueue(after: duration * step / steps) { [weak self] in
                guard let core = self, core.state.withLock({ $0.scalingAnimation == id }) else { return }
                core.updatePresentation {
                    $0.scalingTransition =
                        step == steps
                        ? nil : VideoPresentation.ScalingTransition(from: from, progress: Double(step) / Double(steps))
                }
            }
        }
    }

    /// Puts `image` behind the movie (``BackgroundImageLayer``), replacing any before; nil removes it.
    func setBackgroundImage(_ image: OverlayBitmap?) {
        let layer = image.map { image in
            BackgroundImageLayer(image: image) { [weak self] in
                guard let self else { return true }
                // Until the movie's streams are known, it is taken to have video (no cover).
                return read { $0.phase != .prepared || $0.mediaTypes.contains(.video) }
            }
        }
        let ids = layer?.makeSlices().map { overlays.add($0) } ?? []
        let old = background.withLock { background in
            defer { background = layer.map { ($0, ids) } }
            return background?.ids ?? []
        }
        for id in old { overlays.remove(id) }
    }

    /// Adds the sound-only indicator (``SoundOnlyIndicator``) to the overlays, or removes it. In
    /// a window, where the backdrop draws a frame for each step of a movie without video, it
    /// shows over the background while the prepared movie has no video; elsewhere it is left
    /// out, so that an output with no overlay of the app's composites nothing.
    func showsSoundOnlyIndicator(_ shown: Bool) {
        // Under the indicator's lock, so that two changes of output cannot add it twice.
        soundOnlyIndicator.withLock { id in
            if let added = id, !shown {
                overlays.remove(added)
                id = nil
            } else if id == nil, shown {
                id = overlays.add(SoundOnlyIndicator { [weak self] in self?.isSoundOnly ?? false })
            }
        }
    }

    /// Whether the prepared movie has sound and no video (read for each frame the indicator
    /// might be drawn on).
    private var isSoundOnly: Bool {
        read { $0.phase == .prepared && !$0.mediaTypes.isEmpty && !$0.mediaTypes.contains(.video) }
    }

    /// Done with ``DoneButtonBehavior/finishPlayback``: the player's own window goes, as the seed's
    /// movie view controller is dismissed (out of fullscreen first, announced without animation),
    /// once the stopped pipeline has let go of it; the next movie opens a new one. Nothing when
    /// another movie has started meanwhile, or for an app's window. On the player's thread, after
    /// the stop's teardown (a new pipeline waits for the same).
    func dismissOwnWindow() async {
        await executor.perform { [self] in
            teardowns.wait()
            let window = applyOwned { owned -> PlayerWindow? in
                guard owned.session == nil, let window = owned.ownWindow else { return nil }
                if owned.machine.presentation.fullscreenSize != nil {
                    owned.machine.fullscreenWillChange(entering: false, animationDuration: .zero)
                    owned.machine.fullscreenDidChange(screenSize: nil)
                }
                owned.fullscreenRequested = false
                owned.ownWindow = nil
                owned.windowedFrame = nil
                owned.ownWindowReportsKeys = false
                return window
            }
            // Closed here, on the player's thread, outside the lock.
            withExtendedLifetime(window) {}
        }
    }

    /// Whether the player's own window fills the screen, or was asked to before it opened.
    var isFullscreen: Bool {
        state.withLock { $0.machine.presentation.fullscreenSize != nil || $0.fullscreenRequested }
    }

    /// The `isFullscreen` setter: a request the output cannot meet is announced as
    /// ``PlayerEvent/fullscreenRefused(_:)`` at once; before the player's own window has opened
    /// the request is kept (the getter says so at once, and the window opens fullscreen); else
    /// the window goes fullscreen or back, without animation, on its own.
    func requestFullscreen(_ fullscreen: Bool) {
        let settled = applyOwned { owned -> Bool in
            if fullscreen, let refusal = owned.machine.fullscreenRefusal {
                owned.machine.fullscreenRefused(refusal)
                return true
            }
            guard owned.ownWindow == nil else { return false }
            owned.fullscreenRequested = fullscreen
            return true
        }
        guard !settled else { return }
        // A setter cannot throw: setFullscreen announces its refusal itself (fullscreenRefused),
        // and the window's will/did events tell the rest.
        Task { [self] in try? await setFullscreen(fullscreen, animated: false) }
    }

    /// Makes the player's own window fill the screen, or gives it back its size, announcing
    /// will/did enter/exit with the animation's length. A request the output cannot meet (an
    /// app's window, a sink without fullscreen) is announced as ``PlayerEvent/fullscreenRefused(_:)``
    /// and thrown; asking to leave fullscreen when not in it does nothing.
    func setFullscreen(_ fullscreen: Bool, animated: Bool) async throws(MediaError) {
        let step = applyOwned { owned -> Result<(PlayerWindow, PipelineSession?, ViewRect?)?, MediaError> in
            let state = owned.machine
            let current = state.presentation.fullscreenSize != nil || owned.fullscreenRequested
            if !fullscreen, !current { return .success(nil) }
            if fullscreen, let refusal = state.fullscreenRefusal {
                owned.machine.fullscreenRefused(refusal)
                return .failure(refusal)
            }
            guard let window = owned.ownWindow else {
                // Before the window opens (MPMoviePlayerController's examples set fullscreen, then
                // prepare): it opens fullscreen.
                owned.fullscreenRequested = fullscreen
                return .success(nil)
            }
            if (state.presentation.fullscreenSize != nil) == fullscreen { return .success(nil) }
            return .success((window, owned.session, owned.windowedFrame))
        }
        guard let (window, session, windowed) = try step.get() else { return }
        let duration: Duration = animated ? .milliseconds(300) : .zero
        apply { $0.fullscreenWillChange(entering: fullscreen, animationDuration: duration) }
        let (from, screen) = await executor.perform { (window.frame, window.screen) }
        let to = fullscreen ? screen : (windowed ?? from)
        if animated {
            // Ten steps over the animation, the window's frame moving linearly to its target.
            for step in 1...10 {
                await executor.sleep(for: .milliseconds(30))
                let t = Double(step) / 10
                let frame = ViewRect(
                    x: Self.mix(from.x, to.x, t), y: Self.mix(from.y, to.y, t),
                    width: Self.mix(from.width, to.width, t), height: Self.mix(from.height, to.height, t))
                await executor.perform { window.place(frame) }
            }
        }
        await executor.perform { [self] in
            if window.hasWindowManager {
                window.requestFullscreen(fullscreen)
            } else {
                window.place(to)
            }
            applyOwned { owned in
                owned.windowedFrame = fullscreen ? from : nil
                owned.machine.fullscreenDidChange(screenSize: fullscreen ? screen.size : nil)
            }
            resizeCanvas(to: to.size, window: window, session: session)
        }
    }

    /// How ``setFullscreen(_:animated:)`` moves the window: in even steps (``mix(_:_:_:)``), for
    /// the fullscreen notifications' curve key.
    static let fullscreenAnimationCurve = FullscreenAnimationCurve.linear

    /// A value a fraction `t` of the way from `a` to `b`.
    private static func mix(_ a: Int, _ b: Int, _ t: Double) -> Int { a + Int((Double(b - a) * t).rounded()) }

}
