import Dispatch
import Foundation
import Synchronization

/// The owner of a player's ``PlayerMachine``, and the thin layer that performs its actions.
///
/// - **Decisions** are the machine's. Each input (a command from any thread, a bus message, a
///   timer, what the pipeline or the source answered to an action) is fed to it under one lock
///   (``apply(_:)``); the events it produced are published while that lock is held, so every
///   subscriber sees one order and readers always see a consistent snapshot; waiting commands
///   are resumed there too. Nothing here decides: what the pipeline is asked is read before an
///   input (the facts the machine says it needs), and each action is performed as it is.
/// - **Every call into GStreamer** (building, starting, seeking, swapping, tearing down a
///   pipeline; the window) runs on the player's own thread, ``executor``, in the order the
///   machine returned the actions: they are enqueued under the lock (``perform(_:owned:)``, the
///   one place actions become effects). No lock is held there while GStreamer works: a flushing
///   seek or a state change waits for streaming threads, which may be inside a frame callback
///   that reads the player. What the pipeline answers (a refused seek, a state it reached) goes
///   back to the machine as another input.
/// - **Time** is the player's thread's: every timer the machine arms is one of the executor's.
final class PlayerCore: Sendable {
    typealias Continuation = CheckedContinuation<Result<Void, MediaError>, Never>

    /// What the lock guards: the machine, and what the machine refers to by number but must not
    /// hold (it stays free of GStreamer): the pipeline object, the continuations of waiting
    /// commands, the armed timers, the player's own window.
    struct Owned {
        var machine: PlayerMachine
        /// The pipeline of ``PlayerMachine/State/currentSession``; set when the player's thread built it.
        var session: PipelineSession?
        var continuations: [Int: Continuation] = [:]
        /// The machine's armed timers, each with the generation that armed it (a timer armed
        /// again is a new generation; the old one's firing is ignored).
        var timers: [PlayerMachine.Timer: (work: PlayerExecutor.ScheduledWork, generation: UInt64)] = [:]
        var timerGeneration: UInt64 = 0
        /// Who hears how the pre-roll's items go (``PlayerMachine/Action/reportPreroll(item:_:)``).
        var prerollObserver: PlayerMachine.PrerollObserver?
        /// The window the player opened for a window sink (when the app gave it none).
        var ownWindow: PlayerWindow?
        /// Whether ``ownWindow``'s keys come from its own display connection.
        var ownWindowReportsKeys = false
        /// The own window's frame before it went fullscreen.
        var windowedFrame: ViewRect?
        /// Fullscreen was asked for before the player's own window opened: it opens fullscreen.
        var fullscreenRequested = false
        /// The latest change of scaling mode being animated: an earlier one's steps stop.
        var scalingAnimation = 0
        /// The access and error logs of network movies.
        var networkLog = NetworkLogRecorder()
        /// Frames each video element dropped (its latest QoS report), for the access log and a
        /// grouped player's health checks.
        var droppedFrames: [String: Int] = [:]
        /// The clock of the playback group the player follows, if any.
        var groupClock: PlaybackClock?
    }

    let state: Locked<Owned>
    let hub: EventHub<PlayerEvent>
    let overlays: VideoOverlays
    /// How long a change of scaling mode takes in a window (``MoviePlayer/scalingModeAnimationDuration``).
    let scalingAnimationLength = Locked(Duration.milliseconds(250))
    /// The chosen subtitle track's captions, an overlay among ``overlays`` while shown.
    let captions = SubtitleCaptions()
    /// The on-screen controls (``MoviePlayer/controlStyle``), overlays among ``overlays`` while on.
    let controls = PlayerControls()
    /// The sound-only indicator's overlay (``SoundOnlyIndicator``), while the output is a window.
    let soundOnlyIndicator = Locked<VideoOverlays.ID?>(nil)
    /// The background picture (``MoviePlayer/backgroundImage``) and its overlays' ids, while set.
    let background = Locked<(layer: BackgroundImageLayer, ids: [VideoOverlays.ID])?>(nil)
    /// The playable duration the controls last measured for a stream, and when (uptime, ns).
    let controlsBuffered = Locked<(value: Duration?, at: UInt64)>((nil, 0))
    /// The player's own thread.
    let executor = PlayerExecutor()
    /// The player's pipelines still being torn down (``PipelineTeardown``).
    let teardowns = DispatchGroup()
    /// Names the player in the logs' playback session identifiers.
    let logID = String(UUID().uuidString.prefix(8)).lowercased()

    init(source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput, preparationTimeout: Duration) {
        let workarounds = PlayerMachine.Workarounds(
            snapsKeyframeSeeks: GStreamerWorkaround.keyUnitSeekSnap.isActive,
            defersPausedAudioSwitch: GStreamerWorkaround.pausedAudioSwitch.isActive)
        let machine = PlayerMachine(
            source: source, videoSink: videoSink, audioOutput: audioOutput, preparationTimeout: preparationTimeout,
            workarounds: workarounds, seqnums: SeekEvents.nextSeqnum)
        state = Locked(Owned(machine: machine))
        let hub = EventHub<PlayerEvent>(bufferLimit: PlayerEvents.bufferLimit)
        self.hub = hub
        overlays = VideoOverlays { events in hub.publish(events) }
        connectControls()
        PlayerLifetimes.players.enter()
    }

    /// The player is gone only now: the core holds its outputs (and through them GStreamer
    /// objects), which the last work of its thread, a callback or a task may hold a moment
    /// after the player was released.
    deinit {
        PlayerLifetimes.players.leave()
    }

    // MARK: Inputs

    /// Reads the machine's state under the lock.
    func read<Value>(_ body: (PlayerMachine) -> Value) -> Value {
        state.withLock { body($0.machine) }
    }

    /// Feeds one input to the machine and performs what it decided: pipeline actions are queued
    /// on the player's thread, in order.
    @discardableResult
    func apply<Result>(_ input: (inout PlayerMachine) -> Result) -> Result {
        state.withLock { owned in
            let result = input(&owned.machine)
            performOutput(&owned)
            return result
        }
    }

    /// Feeds an input that reports what an action found, on the player's thread while it
    /// performs that action: what the machine decides from it runs at once, before the work
    /// queued after that action (as if the action had decided it itself).
    func applyInline(_ input: (inout PlayerMachine) -> Void) {
        executor.assertCurrent("an action's report")
        let work = state.withLock { owned in
            input(&owned.machine)
            return takeOutput(&owned)
        }
        for item in work { item() }
    }

    /// Feeds a command that may wait: when the machine says to wait, the caller is suspended
    /// until the machine resumes its waiter, and `then` runs on the player's thread (enqueued in
    /// the decision, so the pipeline sees it in order). Cancelling the calling task fails the
    /// wait with ``MediaError/Code/cancelled``; the pipeline carries on.
    /// - Parameter waiting: Runs under the lock when the command waits, before its output is performed.
    func wait(
        _ input: (inout PlayerMachine) -> PlayerMachine.Wait, waiting: ((inout Owned) -> Void)? = nil,
        then: (@Sendable () -> Void)? = nil
    ) async throws(MediaError) {
        let ticket = WaitTicket()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                state.withLock { owned in
                    let decision = input(&owned.machine)
                    if case .wait(let id) = decision {
                        waiting?(&owned)
                        owned.continuations[id] = continuation
                        ticket.id = id
                        if let then { executor.enqueue(then) }
                        if Task.isCancelled { owned.machine.cancelWaiter(id) }
                    }
                    // The events first: a command returns after what it caused was published, so
                    // a subscription made when it returns sees only later events.
                    performOutput(&owned)
                    if case .done(let result) = decision { continuation.resume(returning: result) }
                }
            }
        } onCancel: {
            // Cancellation handlers run while the Swift runtime holds the task's status lock,
            // and resuming the task's continuation (which is done under the state lock) needs
            // that same lock: taking the state lock here could deadlock. Hand the work to the
            // player's thread instead.
            guard let id = ticket.id else { return }
            executor.enqueue { [self] in apply { $0.cancelWaiter(id) } }
        }
        try result.get()
    }

    /// The current pipeline's position, asked from the calling thread (GStreamer's position
    /// query is thread-safe), for inputs that act from where the movie is.
    var currentPosition: Duration? {
        state.withLock { $0.session }?.position
    }

    /// The current pipeline, if it is session `id`.
    func session(_ id: Int) -> PipelineSession? {
        state.withLock { $0.session?.id == id ? $0.session : nil }
    }

    // MARK: Performing the machine's output

    /// Publishes the events of the last input and performs its actions; the pipeline work is
    /// queued on the player's thread, in order. Under the lock.
    private func performOutput(_ owned: inout Owned) {
        for work in takeOutput(&owned) { executor.enqueue(work) }
    }

    /// Publishes the events of the last input, performs what is immediate among its actions and
    /// returns the work for the player's thread, in order. Under the lock.
    private func takeOutput(_ owned: inout Owned) -> [@Sendable () -> Void] {
        let output = owned.machine.takeOutput()
        if !output.events.isEmpty || !output.actions.isEmpty {
            EngineLog.log(
                .debug, MediaEngineLog.Category.player, "\(ObjectIdentifier(self)): \(output.events) \(output.actions)")
        }
        hub.publish(output.events + logOutput(output, &owned))
        return output.actions.compactMap { perform($0, owned: &owned) }
    }

    /// The one place an action becomes an effect. Under the lock: what is immediate (completing
    /// a waiter, arming a timer, the subtitle overlay, the gapless gate's flag) is done here;
    /// everything that calls GStreamer is returned, for the player's thread.
    private func perform(_ action: PlayerMachine.Action, owned: inout Owned) -> (@Sendable () -> Void)? {
        switch action {
        case .resume(let id, let completion):
            owned.continuations.removeValue(forKey: id)?.resume(returning: completion.result)
            return nil
        case .startTimer(let timer, let after, let repeating):
            startTimer(timer, after: after, repeating: repeating, owned: &owned)
            return nil
        case .cancelTimer(let timer):
            owned.timers.removeValue(forKey: timer)?.work.cancel()
            return nil
        case .reportPreroll(let item, let report):
            guard let observer = owned.prerollObserver else { return nil }
            return { observer(item, report) }
        case .build(let build):
            captions.newMovie()
            return { [self] in start(build) }
        case .readGroupClock:
            // Read when the player's thread gets to it: after the work decided before.
            let clock = owned.groupClock
            return { [self] in applyInline { $0.groupClockRead(now: clock?.now) } }
        case .selectSubtitleTrack(let id, let choice):
            // The overlay at once, whatever the pipeline: the command returns with it shown.
            captions.show(choice, in: overlays)
            // Closed captions come with the video: only a stream of the container is switched.
            guard let session = owned.session, session.id == id, case .stream(let index) = choice else { return nil }
            return { session.selectSubtitleTrack(index) }
        default:
            break
        }
        guard let id = action.session, let session = owned.session, session.id == id else { return nil }
        switch action {
        case .setNextQueued(_, let queued):
            // With the list it mirrors, under the lock: the streaming thread's hand-over sets it too.
            session.setNextQueued(queued)
            return nil
        case .withdrawHandOvers(_, let group):
            session.withdrawHandOvers(fromGroup: group)
            return nil
        case .useGroupClock(_, let latency):
            guard let clock = owned.groupClock else { return nil }
            return { session.joinGroup(clock: clock, latency: latency) }
        case .close:
            owned.session = nil
            // Now, not when the pipeline is torn down: no frame callback starts after stop()
            // returns, though frames flow until the teardown thread gets to it.
            session.videoOutput.closeFrameDeliveries()
            // Everything asked before the stop has been done; the pipeline goes to NULL on a
            // thread of its own while this one goes on. If it gets stuck there, the player says so.
            return { [teardowns, logID] in
                PipelineTeardown.close(session, pending: teardowns, player: logID) { [weak self] element, after in
                    self?.apply { $0.teardownStalled(element: element, after: after) }
                }
            }
        default:
            return { [self] in run(action, on: session) }
        }
    }

    /// Performs one pipeline action, on the player's thread. What the pipeline or the source
    /// answers goes back to the machine (``applyInline(_:)``).
    private func run(_ action: PlayerMachine.Action, on session: PipelineSession) {
        executor.assertCurrent("a pipeline action")
        let id = session.id
        switch action {
        case .play:
            session.play()
            // Already playing (no state change, so no message): say so now.
            if session.settledState == .playing { apply { $0.pipelineReached(session: id, playing: true) } }
        case .pause:
            session.pause()
            if session.settledState == .paused { apply { $0.pipelineReached(session: id, playing: false) } }
        case .restartClock:
            session.pause()
            session.play()
        case .settle(_, let epoch, let within):
            session.pauseAndSettle(within: within)
            let reached = [session.position, session.videoOutput.firstFrame.lastFrameEnd].compactMap { $0 }.max()
            applyInline { $0.pipelineSettled(session: id, epoch: epoch, position: reached) }
        case .seek(_, let plan, let seqnum):
            if !session.seek(plan, seqnum: seqnum) { applyInline { $0.seekRefused(session: id, seqnum: seqnum) } }
        case .readLoopTiming(_, let seqnum):
            let timing = session.loopSeekTiming
            applyInline { $0.loopTimingRead(session: id, seqnum: seqnum, timing: timing) }
        case .sendLoop(_, let plan, let seqnum):
            if !session.sendLoop(plan, seqnum: seqnum) { applyInline { $0.seekRefused(session: id, seqnum: seqnum) } }
        case .instantRate(_, let rate, let seqnum):
            if !session.changeRate(instantlyTo: rate, seqnum: seqnum) {
                let position = session.position
                applyInline { $0.instantRateRefused(session: id, rate: rate, position: position) }
            }
        case .requestInstantRate(_, let sink, let multiplier, let seqnum):
            session.requestInstantRate(from: sink, multiplier: multiplier, seqnum: seqnum)
        case .readKeyframeTimes(_, let epoch, let source):
            // The source's own index (a file's tables): I/O, here on the player's thread.
            let times = source.source.videoKeyframeTimes()
            applyInline { $0.keyframeTimesRead(session: id, epoch: epoch, times: times) }
        case .interpret(_, let epoch, let source, let error, let position):
            // The source may read its file to tell a truncated movie from a corrupt one.
            let interpreted = source.source.interpret(error)
            applyInline { $0.failureInterpreted(session: id, epoch: epoch, error: interpreted, position: position) }
        case .readPosition:
            let position = session.position
            applyInline { $0.positionRead(session: id, position: position) }
        case .applyPresentation(_, let presentation):
            apply(presentation, to: session)
        case .reload(_, let source, let epoch, let hold):
            captions.newMovie()
            do throws(MediaError) {
                try source.source.validate()
                try session.reload(source.source, epoch: epoch, holdFirstFrame: hold)
            } catch {
                let interpreted = source.source.interpret(error)
                applyInline { $0.pipelineFailed(session: id, error: interpreted) }
            }
        case .openFragmentGates:
            session.openFragmentGates()
        case .useResumeThreshold:
            session.useResumeThreshold()
        case .applyGain(_, let gain):
            session.setGain(gain)
        case .selectAudioTrack(_, let index):
            session.selectAudioTrack(index)
        case .leaveGroupClock:
            session.leaveGroup()
        case .setBaseTime(_, let time):
            session.setBaseTime(time)
        case .build, .close, .resume, .startTimer, .cancelTimer, .reportPreroll, .selectSubtitleTrack,
            .setNextQueued, .withdrawHandOvers, .useGroupClock, .readGroupClock:
            break  // Performed under the lock (``perform(_:owned:)``).
        }
    }

    // MARK: Timers

    /// Arms one of the machine's timers on the player's thread, replacing the one of the same
    /// identity. When it fires, what the machine needs from the pipeline is read there and fed
    /// with it. Under the lock.
    private func startTimer(
        _ timer: PlayerMachine.Timer, after delay: Duration, repeating period: Duration?, owned: inout Owned
    ) {
        owned.timers.removeValue(forKey: timer)?.work.cancel()
        owned.timerGeneration += 1
        let generation = owned.timerGeneration
        let work = executor.enqueue(after: delay, repeating: period) { [weak self] in
            self?.timerFired(timer, generation: generation, repeating: period != nil)
        }
        owned.timers[timer] = (work, generation)
    }

    /// A timer fired, on the player's thread.
    private func timerFired(_ timer: PlayerMachine.Timer, generation: UInt64, repeating: Bool) {
        let (live, session, needsFacts, dropped) = state.withLock { owned -> (Bool, PipelineSession?, Bool, Int) in
            guard owned.timers[timer]?.generation == generation else { return (false, nil, false, 0) }
            if !repeating { owned.timers[timer] = nil }
            return (
                true, owned.session, owned.machine.needsFacts(for: timer), owned.droppedFrames.values.reduce(0, +)
            )
        }
        guard live else { return }
        var facts = PlayerMachine.TimerFacts()
        if needsFacts, let session {
            switch timer {
            case .groupHealth:
                facts.framesDropped = dropped
            case .seekDeadline:
                facts = PlayerMachine.TimerFacts(
                    position: session.position, duration: session.duration, mediaTypes: session.mediaTypes)
            case .stalledDemuxer:
                facts.stalledDemuxer = session.stalledDemuxer
            default:
                facts.position = session.position
            }
        }
        apply { $0.timerFired(timer, facts: facts) }
    }

    // MARK: Building

    /// Builds and starts the pipeline of a preparation, on the player's thread.
    private func start(_ build: PlayerMachine.PipelineBuild) {
        // The player's previous pipeline lets go of what it held (a window, a file) first, unless
        // its teardown is stuck (it is reported then, and this one goes on).
        waitForTeardowns()
        let id = build.session
        let source = build.source.source
        do throws(MediaError) {
            try source.validate()
            let executor = executor
            let closedCaptions: ClosedCaptionWatch.Handler = { [weak self] event in
                self?.closedCaptionsArrived(event, session: id)
            }
            // playbin's about-to-finish, on a streaming thread: the machine says what follows.
            let nextMovie: @Sendable (Bool) -> (any MediaSource)? = { [weak self] gateOpen in
                self?.apply { $0.aboutToFinish(session: id, gateOpen: gateOpen) }
            }
            // An instant rate change reached a sink (a streaming thread): on the player's thread.
            let instantRate: @Sendable (PlayerMachine.SinkKind, Double, UInt32) -> Void = {
                [weak self] sink, multiplier, seqnum in
                executor.enqueue { [weak self] in self?.instantRateReachedSink(sink, multiplier, seqnum, id) }
            }
            // The bus thread only hands messages over, in order.
            let handler: @Sendable (BusMessage) -> BusThread.Verdict = { [weak self] message in
                guard let self else { return .exit }
                executor.enqueue { self.handle(message, session: id) }
                return .carryOn
            }
            let session = try PipelineSession(
                id: id, executor: executor, source: source, videoSink: build.videoSink,
                audioOutput: build.audioOutput, overlays: overlays, presentation: build.presentation,
                buffering: build.buffering, holdFirstFrame: build.holdFirstFrame, gain: build.gain,
                subtitleCue: captions.add, closedCaptions: closedCaptions, nextMovie: nextMovie,
                instantRate: instantRate, handler: handler)
            let installed = applyOwned { owned in
                guard owned.machine.pipelineBuilt(session: id) else { return false }
                owned.session = session
                return true
            }
            guard installed else {
                // A newer preparation or a stop replaced this one while it was being built.
                session.close()
                return
            }
            try attachWindow(to: session.videoOutput)
            session.setNextQueued(build.nextQueued)
            session.start()
        } catch {
            // The source may say more (a truncated file): asked here, on the player's thread.
            let interpreted = source.interpret(error)
            apply { $0.pipelineFailed(session: id, error: interpreted) }
        }
    }

    /// An instant rate change reached `sink`: the machine decides whether it applies, knowing
    /// whether every sink has a TIME segment to apply it to. On the player's thread.
    private func instantRateReachedSink(
        _ sink: PlayerMachine.SinkKind, _ multiplier: Double, _ seqnum: UInt32, _ id: Int
    ) {
        guard let session = session(id) else { return }
        let segments = session.sinksHaveTimeSegments
        apply {
            $0.instantRateReachedSink(
                session: id, seqnum: seqnum, multiplier: multiplier, sink: sink, sinksHaveTimeSegments: segments)
        }
    }

    /// ``apply(_:)`` for inputs that also change what the lock guards beside the machine.
    @discardableResult
    func applyOwned<Result>(_ input: (inout Owned) -> Result) -> Result {
        state.withLock { owned in
            let result = input(&owned)
            performOutput(&owned)
            return result
        }
    }

    /// Ends a session with an error: waiters fail, the finish event carries the error, the
    /// pipeline is torn down. On the player's thread.
    func fail(session id: Int, with error: MediaError) {
        let position = session(id)?.position
        apply { $0.pipelineFailed(session: id, error: error, position: position) }
    }

    /// Applies a presentation to a pipeline's video output, on the player's thread. A value the
    /// output cannot take (a scaler property out of its range) fails the session.
    func apply(_ presentation: VideoPresentation, to session: PipelineSession) {
        do throws(MediaError) {
            try session.videoOutput.apply(presentation)
            session.setBackdropColor(presentation.backgroundARGB)
        } catch {
            fail(session: session.id, with: error)
        }
    }

    // MARK: Lifetime

    /// Stops and returns once the pipeline is torn down: at NULL, its streaming and bus threads
    /// ended, its files closed; or, when the teardown is stuck, once it has been reported
    /// (``PipelineTeardown/stuckAfter``).
    func shutdown() async {
        apply { $0.stop() }
        await executor.perform { [self] in waitForTeardowns() }
    }

    /// Waits for the player's pipelines to be torn down, at most ``PipelineTeardown/stuckAfter``
    /// (and a little, for the report to be made); on the player's thread.
    private func waitForTeardowns() {
        let limit = PipelineTeardown.stuckAfter + .milliseconds(100)
        _ = teardowns.wait(timeout: .now() + .nanoseconds(Int(limit / .nanoseconds(1))))
    }

    /// The owner let go: ends everything on the player's thread and lets that thread end,
    /// without waiting for any of it.
    func release() {
        apply { $0.release() }
        executor.enqueue { [self] in
            hub.finish()
            // The player's last work: it is gone once its pipelines are (or are reported stuck).
            waitForTeardowns()
        }
        executor.finish()
    }
}

extension PlayerMachine.Action {
    /// The pipeline an action is for, if it names one.
    var session: Int? {
        switch self {
        case .reload(let session, _, _, _), .close(let session), .play(let session), .pause(let session),
            .restartClock(let session), .settle(let session, _, _), .seek(let session, _, _),
            .readLoopTiming(let session, _), .sendLoop(let session, _, _), .instantRate(let session, _, _),
            .requestInstantRate(let session, _, _, _), .readKeyframeTimes(let session, _, _),
            .interpret(let session, _, _, _, _), .applyPresentation(let session, _),
            .selectAudioTrack(let session, _), .selectSubtitleTrack(let session, _), .applyGain(let session, _),
            .useResumeThreshold(let session), .openFragmentGates(let session), .setNextQueued(let session, _),
            .withdrawHandOvers(let session, _), .readPosition(let session), .useGroupClock(let session, _),
            .leaveGroupClock(let session), .setBaseTime(let session, _):
            session
        case .build(let build): build.session
        case .startTimer, .cancelTimer, .reportPreroll, .resume, .readGroupClock: nil
        }
    }
}

/// The id of a registered waiter, shared with the task's cancellation handler.
final class WaitTicket: Sendable {
    private let value = Atomic<Int>(0)
    var id: Int? {
        get {
            let id = value.load(ordering: .acquiring)
            return id == 0 ? nil : id
        }
        set { value.store(newValue ?? 0, ordering: .releasing) }
    }
}
