import Dispatch
import Synchronization

/// A player's state and the thread that acts on it.
///
/// - **Decisions** are made under one lock (``update(_:)``), from whichever thread a command or
///   message arrives on, and each decision publishes its events while that lock is held, so
///   every subscriber sees one order and readers always see a consistent snapshot.
/// - **Every call into GStreamer** (building, starting, seeking, swapping, tearing down a
///   pipeline; the window) runs on the player's own thread, ``executor``, in the order the
///   decisions enqueued it. Bus messages, timers and time observers are handed to that thread
///   too. No lock is held there while GStreamer works: a flushing seek or a state change waits
///   for streaming threads, which may be inside a frame callback that reads the player.
final class PlayerCore: Sendable {

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
    /// The player's own thread.
    let executor = PlayerExecutor()

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

    /// Decides under the lock whether to wait; if so registers a waiter and has the player's
    /// thread run `start` to begin what will complete it. Cancelling the calling task fails the
    /// wait with ``MediaError/Code/cancelled``; the pipeline carries on.
    func wait(_ decide: (inout PlayerState) -> WaitDecision, then start: @escaping @Sendable () -> Void = {})
        async throws(MediaError)
    {
        let ticket = WaitTicket()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (completion: Waiters.Completion) in
                state.withLock { state in
                    switch decide(&state) {
                    case .done(let result):
                        completion.resume(returning: result)
                    case .wait(let kind):
                        ticket.id = state.waiters.add(kind, completion)
                        if Task.isCancelled {
                            state.waiters.cancel(id: ticket.id!)
                        } else {
                            // Under the lock: the pipeline sees commands in the order they were decided.
                            executor.enqueue(start)
                        }
                    }
                }
            }
        } onCancel: {
            // Cancellation handlers run while the Swift runtime holds the task's status lock,
            // and resuming the task's continuation (which the bus thread does under the state
            // lock) needs that same lock: taking the state lock here could deadlock. Hand the
            // work to the player's thread instead.
            guard let id = ticket.id else { return }
            executor.enqueue { [self] in
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
            await executor.perform { [self] in
                start(id: id, source: source, sink: sink, audio: audio, presentation: presentation, hold: hold)
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

    /// Builds and starts the pipeline of preparation `id`, on the player's thread.
    func start(
        id: Int, source: any MediaSource, sink: any VideoSink, audio: AudioOutput, presentation: VideoPresentation,
        hold: Bool
    ) {
        do throws(MediaError) {
            try source.validate()
            let executor = executor
            let session = try PipelineSession(
                id: id, executor: executor, source: source, videoSink: sink, audioOutput: audio, overlays: overlays,
                presentation: presentation, holdFirstFrame: hold
            ) { [weak self] message in
                // The bus thread only hands messages over, in order.
                guard let self else { return .exit }
                executor.enqueue { self.handle(message, session: id) }
                return .carryOn
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

    func scheduleTimeout(for id: Int) {
        executor.enqueue(after: preparationTimeout) { [weak self] in
            guard let self else { return }
            let stillPreparing = state.withLock { $0.sessionID == id && $0.phase == .preparing }
            if stillPreparing {
                let error = MediaError(.timedOut, "the movie did not become ready within \(preparationTimeout)")
                fail(session: id, with: error)
            }
        }
    }

    /// Ends a session with an error: waiters fail, the finish event carries the error, the
    /// pipeline is torn down. On the player's thread.
    func fail(session id: Int, with error: MediaError) {
        executor.assertCurrent("failing a session")
        let position = state.withLock { $0.session(id) }?.position
        let session = update { state, events -> PipelineSession? in
            guard state.sessionID == id, state.phase != .idle else { return nil }
            return state.detachSession(finish: .playbackError, error: error, position: position, &events)
        }
        session?.close()
        timeObservers.playbackChanged(self)
    }

    /// Stops at once: the state says stopped when this returns, at the start of the movie
    /// (MPMoviePlayerController: "playback will commence from the beginning"); the pipeline is
    /// torn down on the player's thread.
    func stop() {
        // update() re-arms the time observers when stopping changed playback.
        update { state, events in
            guard state.phase != .idle else {
                state.lastPosition = .zero
                return
            }
            let finished = state.atEnd
            let session = state.detachSession(
                finish: finished ? nil : .userExited, error: nil, position: .zero, &events)
            if let session { executor.enqueue { session.close() } }
        }
    }

    /// Stops and returns once the pipeline is torn down: at NULL, its streaming and bus threads
    /// ended, its files closed.
    func shutdown() async {
        stop()
        await executor.perform {}
    }

    /// The owner let go: ends everything on the player's thread and lets that thread end,
    /// without waiting for any of it.
    func release() {
        let session = update { state, events -> PipelineSession? in
            state.detachSession(finish: nil, error: nil, position: nil, &events)
        }
        executor.enqueue { [self] in
            session?.close()
            timeObservers.cancelAll()
            hub.finish()
            PlayerLifetimes.players.leave()
        }
        executor.finish()
    }
}
