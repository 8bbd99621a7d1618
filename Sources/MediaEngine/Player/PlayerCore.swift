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
    let hub = EventHub()
    let preparationTimeout: Duration
    let overlays = VideoOverlays()

    init(source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput, preparationTimeout: Duration) {
        state = Mutex(PlayerState(source: source, videoSink: videoSink, audioOutput: audioOutput))
        self.preparationTimeout = preparationTimeout
    }

    /// Runs `body` under the lock and publishes the events it collected, still under the lock.
    @discardableResult
    func update<Result>(_ body: (inout PlayerState, inout [PlayerEvent]) -> Result) -> Result {
        state.withLock { state in
            var events: [PlayerEvent] = []
            let result = body(&state, &events)
            hub.publish(events)
            return result
        }
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
            case start(id: Int, source: any MediaSource, sink: any VideoSink, audio: AudioOutput)
        }
        let step = update { state, events -> Step in
            if state.phase == .prepared { return .done }
            if state.phase == .preparing { return .wait }
            state.sessionID += 1
            state.phase = .preparing
            state.resetMovieInfo()
            state.setSourceType(state.source.sourceType, &events)
            return .start(id: state.sessionID, source: state.source, sink: state.videoSink, audio: state.audioOutput)
        }
        if case .done = step { return }
        if case .start(let id, let source, let sink, let audio) = step {
            do throws(MediaError) {
                try source.validate()
                let session = try PipelineSession(
                    id: id, source: source, videoSink: sink, audioOutput: audio, overlays: overlays
                ) {
                    [weak self] message in
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

    private func scheduleTimeout(for id: Int) {
        let seconds =
            Double(preparationTimeout.components.seconds) + Double(preparationTimeout.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
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
    }

    // MARK: Commands

    func play() async throws(MediaError) {
        try await prepare()
        let step = update { state, _ -> (session: PipelineSession, restart: Bool)? in
            guard let session = state.session, state.phase == .prepared else { return nil }
            state.target = .playing
            state.supersedeStateWaiters()
            if state.playbackState == .playing { return nil }
            defer { state.atEnd = false }
            return (session, state.atEnd)
        }
        guard let (session, restart) = step else { return }
        if restart, let request = SeekRequest(position: .zero, rate: state.withLock { $0.rate }, exact: false) {
            session.send(request)
        }
        try await wait { state in
            guard state.session === session else { return .stopped }
            return state.playbackState == .playing ? .success : .wait(.playbackState(.playing))
        } then: {
            session.play()
        }
    }

    func pause() async throws(MediaError) {
        if state.withLock({ $0.phase == .preparing }) { try await prepare() }
        let session = update { state, _ -> PipelineSession? in
            guard let session = state.session, state.phase == .prepared else { return nil }
            state.target = .paused
            state.supersedeStateWaiters()
            guard state.playbackState == .playing || state.playbackState == .interrupted else { return nil }
            return session
        }
        guard let session else { return }
        try await wait { state in
            guard state.session === session else { return .success }
            return state.playbackState == .paused ? .success : .wait(.playbackState(.paused))
        } then: {
            session.pause()
        }
    }

    func stop() {
        let position = state.withLock { $0.session }?.position
        let session = update { state, events -> PipelineSession? in
            guard state.phase != .idle else { return nil }
            let finished = state.atEnd
            return state.detachSession(finish: finished ? nil : .userExited, error: nil, position: position, &events)
        }
        session?.close()
    }

    func replaceSource(with source: any MediaSource) {
        stop()
        update { state, _ in
            state.source = source
            state.lastError = nil
        }
    }

    func shutdown() {
        let session = update { state, events -> PipelineSession? in
            state.detachSession(finish: nil, error: nil, position: nil, &events)
        }
        session?.close()
        hub.finish()
    }

    // MARK: Seeking

    func seek(to position: Duration, exact: Bool) async throws(MediaError) {
        if state.withLock({ $0.phase == .preparing }) { try await prepare() }
        let (session, request, target) = try makeSeek(to: position, rate: nil, exact: exact)
        try await wait { state in
            guard state.session === session else { return .stopped }
            state.atEnd = false
            state.pendingSeek = (request.seqnum, target)
            return .wait(.seek(request.seqnum))
        } then: {
            // Sent after the waiter exists, so the ASYNC_DONE it causes cannot be missed, and
            // outside the lock, since a flushing seek waits for the streaming threads.
            send(request, through: session)
        }
    }

    /// Starts a seek without waiting for it (the `currentPlaybackTime` setter, rate changes).
    func requestSeek(to position: Duration, rate: Double? = nil, exact: Bool) throws(MediaError) {
        let (session, request, target) = try makeSeek(to: position, rate: rate, exact: exact)
        let current = update { state, _ -> Bool in
            guard state.session === session else { return false }
            state.atEnd = false
            state.pendingSeek = (request.seqnum, target)
            return true
        }
        if current { send(request, through: session) }
    }

    private func makeSeek(
        to position: Duration, rate: Double?, exact: Bool
    ) throws(MediaError) -> (PipelineSession, SeekRequest, Duration) {
        guard position >= .zero else {
            throw MediaError(.invalidArgument, "cannot seek to a negative time (\(position))")
        }
        let prepared = state.withLock { state in
            state.phase == .prepared ? state.session.map { ($0, state.rate, state.duration) } : nil
        }
        guard let (session, currentRate, duration) = prepared else {
            throw MediaError(.notPrepared, "seeking needs a prepared player; call prepareToPlay() first")
        }
        let target = duration.map { min(position, $0) } ?? position
        guard let request = SeekRequest(position: target, rate: rate ?? currentRate, exact: exact) else {
            throw MediaError(.invalidArgument, "cannot seek to \(target) at rate \(rate ?? currentRate)")
        }
        return (session, request, target)
    }

    private func send(_ request: SeekRequest, through session: PipelineSession) {
        guard !session.send(request) else { return }
        update { state, _ in
            state.waiters.resolve(
                .seek(request.seqnum), .failure(MediaError(.pipelineFailure, "the pipeline refused the seek")))
            if state.pendingSeek?.seqnum == request.seqnum { state.pendingSeek = nil }
        }
    }

    // MARK: Rate

    /// Changes the rate: stored for the next playback, applied at once while playing.
    func setRate(_ rate: Double) {
        guard rate.isFinite else { return }
        if rate == 0 {
            Task { try? await self.pause() }
            return
        }
        let (playing, session) = state.withLock { state -> (Bool, PipelineSession?) in
            state.rate = rate
            return (state.playbackState == .playing, state.session)
        }
        if playing, let position = session?.position {
            try? requestSeek(to: position, rate: rate, exact: true)
        }
    }
}
