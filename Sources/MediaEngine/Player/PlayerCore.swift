import Dispatch
import Synchronization

/// The serial owner of a player's state. Commands (from any task) and bus messages (from the
/// pipeline's bus thread) change the state under one lock, and each change publishes its
/// events while that lock is held, so every subscriber sees one order. GStreamer is never
/// called with the lock held: a flushing seek or a state change waits for streaming threads,
/// which may be inside a frame callback that reads the player.
final class PlayerCore: Sendable {
    static let stateChangeFailedMessage = "me-state-change-failed"

    /// What a command found when it looked at the state: finished already, or a wait to register.
    enum WaitDecision {
        case done(Result<Void, MediaError>)
        case wait(Waiters.Kind)

        static let success = WaitDecision.done(.success(()))
        static let stopped = WaitDecision.done(.failure(MediaError(.cancelled, "playback was stopped")))
    }

    let state: Mutex<PlayerState>
    let hub: EventHub
    let preparationTimeout: Duration
    let overlays: VideoOverlays
    let timeObservers = TimeObservers()

    init(source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput, preparationTimeout: Duration) {
        state = Mutex(PlayerState(source: source, videoSink: videoSink, audioOutput: audioOutput))
        self.preparationTimeout = preparationTimeout
        let hub = EventHub()
        self.hub = hub
        overlays = VideoOverlays { events in hub.publish(events) }
    }

    /// Runs `body` under the lock and publishes the events it collected, still under the lock.
    /// When the events say playback started, stopped or changed speed, the time observers are
    /// re-armed afterwards, outside the lock.
    @discardableResult
    func update<Result>(_ body: (inout PlayerState, inout [PlayerEvent]) -> Result) -> Result {
        let (result, playbackChanged) = state.withLock { state in
            var events: [PlayerEvent] = []
            let result = body(&state, &events)
            hub.publish(events)
            return (result, events.contains { $0.changesPlayback })
        }
        if playbackChanged { timeObservers.playbackChanged(self) }
        return result
    }

    /// Decides under the lock whether to wait; if so registers a waiter and runs `start`
    /// (outside the lock) to begin what will complete it. Cancelling the calling task fails
    /// the wait with ``MediaError/Code/cancelled``; the pipeline carries on.
    func wait(_ decide: (inout PlayerState) -> WaitDecision, then start: () -> Void = {}) async throws(MediaError) {
        let ticket = WaitTicket()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (completion: Waiters.Completion) in
                let registered = state.withLock { state -> Bool in
                    switch decide(&state) {
                    case .done(let result):
                        completion.resume(returning: result)
                        return false
                    case .wait(let kind):
                        ticket.id = state.waiters.add(kind, completion)
                        if Task.isCancelled {
                            state.waiters.cancel(id: ticket.id!)
                            return false
                        }
                        return true
                    }
                }
                if registered { start() }
            }
        } onCancel: {
            // Cancellation handlers run while the Swift runtime holds the task's status lock,
            // and resuming the task's continuation (which the bus thread does under the state
            // lock) needs that same lock: taking the state lock here could deadlock. Hand the
            // work to another thread instead.
            guard let id = ticket.id else { return }
            DispatchQueue.global().async { [self] in
                state.withLock { $0.waiters.cancel(id: id) }
            }
        }
        try result.get()
    }

    // MARK: Preparation

    func prepare() async throws(MediaError) {
        enum Step {
            case done
            case wait
            case start(
                id: Int, source: any MediaSource, sink: any VideoSink, audio: AudioOutput,
                presentation: VideoPresentation, hold: Bool)
        }
        let step = update { state, events -> Step in
            if state.phase == .prepared { return .done }
            if state.phase == .preparing { return .wait }
            state.sessionID += 1
            state.phase = .preparing
            state.videoSinkChanged = false
            state.epoch = 0
            state.epochSeen = 0
            state.resetMovieInfo()
            state.setSourceType(state.source.sourceType, &events)
            if state.shouldAutoplay { state.target = .playing }
            return .start(
                id: state.sessionID, source: state.source, sink: state.videoSink, audio: state.audioOutput,
                presentation: state.presentation, hold: state.needsPreparationSeek)
        }
        if case .done = step { return }
        if case .start(let id, let source, let sink, let audio, let presentation, let hold) = step {
            do throws(MediaError) {
                try source.validate()
                let session = try PipelineSession(
                    id: id, source: source, videoSink: sink, audioOutput: audio, overlays: overlays,
                    presentation: presentation, holdFirstFrame: hold
                ) { [weak self] message in
                    self?.handle(message, session: id) ?? .exit
                }
                let installed = update { state, _ in
                    guard state.sessionID == id, state.phase == .preparing else { return false }
                    state.session = session
                    return true
                }
                guard installed else {
                    session.close()
                    throw MediaError(.cancelled, "preparation was cancelled")
                }
                scheduleTimeout(for: id)
                try attachWindow(to: session.videoOutput)
                session.start()
            } catch {
                fail(session: id, with: source.interpret(error))
            }
        }
        try await wait { state in
            switch state.phase {
            case .prepared: .success
            case .preparing: .wait(.prepared)
            case .idle: .done(.failure(state.lastError ?? MediaError(.cancelled, "preparation was cancelled")))
            }
        }
    }

    func scheduleTimeout(for id: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + preparationTimeout.secondsValue) { [weak self] in
            guard let self else { return }
            let stillPreparing = state.withLock { $0.sessionID == id && $0.phase == .preparing }
            if stillPreparing {
                let error = MediaError(.timedOut, "the movie did not become ready within \(preparationTimeout)")
                fail(session: id, with: error)
            }
        }
    }

    /// Ends a session with an error: waiters fail, the finish event carries the error, the
    /// pipeline is torn down (from whichever thread calls this, the bus thread included).
    func fail(session id: Int, with error: MediaError) {
        let position = state.withLock { $0.session(id) }?.position
        let session = update { state, events -> PipelineSession? in
            guard state.sessionID == id, state.phase != .idle else { return nil }
            return state.detachSession(finish: .playbackError, error: error, position: position, &events)
        }
        session?.close()
        timeObservers.playbackChanged(self)
    }

    func stop() {
        let position = state.withLock { $0.session }?.position
        let session = update { state, events -> PipelineSession? in
            guard state.phase != .idle else { return nil }
            let finished = state.atEnd
            return state.detachSession(finish: finished ? nil : .userExited, error: nil, position: position, &events)
        }
        session?.close()
        timeObservers.playbackChanged(self)
    }

    func shutdown() {
        let session = update { state, events -> PipelineSession? in
            state.detachSession(finish: nil, error: nil, position: nil, &events)
        }
        session?.close()
        timeObservers.cancelAll()
        hub.finish()
    }
}
