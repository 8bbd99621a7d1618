import Dispatch
import Foundation
import Synchronization

/// The owner of a player's ``PlayerMachine``, and the thin layer that performs its actions.
///
/// - **Decisions** are the machine's. Each input (a command from any thread, a bus message, a
///   timer) is fed to it under one lock (``apply(_:)``); the events it produced are published
///   while that lock is held, so every subscriber sees one order and readers always see a
///   consistent snapshot; waiting commands are resumed there too.
/// - **Every call into GStreamer** (building, starting, seeking, swapping, tearing down a
///   pipeline; the window) runs on the player's own thread, ``executor``, in the order the
///   machine returned the actions: they are enqueued under the lock. No lock is held there while
///   GStreamer works: a flushing seek or a state change waits for streaming threads, which may
///   be inside a frame callback that reads the player. What the pipeline answers (a refused
///   seek, a state it reached) goes back to the machine as another input.
final class PlayerCore: Sendable {
    typealias Continuation = CheckedContinuation<Result<Void, MediaError>, Never>

    /// What the lock guards: the machine, and what the machine refers to by number but must not
    /// hold (it stays free of GStreamer): the pipeline object, the continuations of waiting
    /// commands, the scan timer, the player's own window.
    struct Owned {
        var machine: PlayerMachine
        /// The pipeline of ``PlayerMachine/currentSession``; set when the player's thread built it.
        var session: PipelineSession?
        var continuations: [Int: Continuation] = [:]
        var scanTimer: RepeatingTimer?
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
        /// Frames each video element dropped (its latest QoS report), for the access log.
        var droppedFrames: [String: Int] = [:]
        /// The one-shot timer of the next timed metadata item (``PlayerMachine/Action/scheduleTimedMetadata(session:after:)``).
        var timedMetadataTimer: PlayerExecutor.ScheduledWork?
        /// The ticks of a pre-roll's position (``PlayerMachine/Action/startPrerollTicks(session:)``).
        var prerollTimer: RepeatingTimer?
    }

    let state: Locked<Owned>
    let hub: EventHub
    let preparationTimeout: Duration
    let overlays: VideoOverlays
    /// How long a change of scaling mode takes in a window (``MoviePlayer/scalingModeAnimationDuration``).
    let scalingAnimationLength = Locked(Duration.milliseconds(250))
    /// The chosen subtitle track's captions, an overlay among ``overlays`` while shown.
    let captions = SubtitleCaptions()
    /// The on-screen controls (``MoviePlayer/controlStyle``), overlays among ``overlays`` while on.
    let controls = PlayerControls()
    /// The background picture (``MoviePlayer/backgroundImage``) and its overlays' ids, while set.
    let background = Locked<(layer: BackgroundImageLayer, ids: [VideoOverlays.ID])?>(nil)
    /// The playable duration the controls last measured for a stream, and when (uptime, ns).
    let controlsBuffered = Locked<(value: Duration?, at: UInt64)>((nil, 0))
    let timeObservers = TimeObservers()
    /// The player's own thread.
    let executor = PlayerExecutor()
    /// The player's pipelines still being torn down (``PipelineTeardown``).
    let teardowns = DispatchGroup()
    /// Names the player in the logs' playback session identifiers.
    let logID = String(UUID().uuidString.prefix(8)).lowercased()

    init(source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput, preparationTimeout: Duration) {
        let machine = PlayerMachine(
            source: source, videoSink: videoSink, audioOutput: audioOutput, seqnums: SeekEvents.nextSeqnum)
        state = Locked(Owned(machine: machine))
        self.preparationTimeout = preparationTimeout
        let hub = EventHub()
        self.hub = hub
        overlays = VideoOverlays { events in hub.publish(events) }
        connectControls()
    }

    // MARK: Inputs

    /// Reads the machine's state under the lock.
    func read<Value>(_ body: (PlayerMachine) -> Value) -> Value {
        state.withLock { body($0.machine) }
    }

    /// Feeds one input to the machine and performs what it decided.
    @discardableResult
    func apply<Result>(_ input: (inout PlayerMachine) -> Result) -> Result {
        state.withLock { owned in
            let result = input(&owned.machine)
            performOutput(&owned)
            return result
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

    /// Feeds a command that may wait: when the machine says to wait, the caller is suspended
    /// until the machine resumes its waiter, and `then` runs on the player's thread (enqueued in
    /// the decision, so the pipeline sees it in order). Cancelling the calling task fails the
    /// wait with ``MediaError/Code/cancelled``; the pipeline carries on.
    func wait(
        _ input: (inout PlayerMachine) -> PlayerMachine.Wait, then: (@Sendable () -> Void)? = nil
    ) async throws(MediaError) {
        let ticket = WaitTicket()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                state.withLock { owned in
                    let decision = input(&owned.machine)
                    if case .wait(let id) = decision {
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

    // MARK: Performing the machine's output

    /// Publishes the events of the last input, resumes the waiters it completed, and enqueues
    /// its pipeline actions on the player's thread. Under the lock.
    private func performOutput(_ owned: inout Owned) {
        let output = owned.machine.takeOutput()
        if Self.tracing, !output.events.isEmpty || !output.actions.isEmpty {
            Self.trace("\(ObjectIdentifier(self)): \(output.events) \(output.actions)")
        }
        hub.publish(output.events + logOutput(output, &owned))
        var rearm = false
        for action in output.actions {
            switch action {
            case .resume(let id, let result):
                owned.continuations.removeValue(forKey: id)?.resume(returning: result)
            case .selectSubtitleTrack(let id, let choice):
                // The overlay at once, whatever the pipeline: the command returns with it shown.
                captions.show(choice, in: overlays)
                // Closed captions come with the video: only a stream of the container is switched.
                guard let session = owned.session, session.id == id, case .stream = choice else { continue }
                executor.enqueue { [self] in run(action, on: session) }
            case .rearmTimeObservers:
                rearm = true
            case .startScanTimer:
                owned.scanTimer?.cancel()
                let executor = executor
                owned.scanTimer = RepeatingTimer(every: .nanoseconds(Int(PlayerMachine.scanStep.clockTime))) {
                    [weak self] in
                    executor.enqueue { [weak self] in
                        guard let core = self else { return }
                        let position = core.currentPosition
                        core.apply { $0.scanTimerFired(position: position) }
                    }
                }
            case .cancelScanTimer:
                owned.scanTimer?.cancel()
                owned.scanTimer = nil
            case .scheduleTimedMetadata(let id, let wait):
                scheduleTimedMetadataTick(session: id, after: wait, owned: &owned)
            case .reportPreroll(let observer, let item, let report):
                executor.enqueue { observer(item, report) }
            case .startPrerollTicks(let id):
                owned.prerollTimer?.cancel()
                owned.prerollTimer = RepeatingTimer(every: .milliseconds(100)) { [weak self] in
                    self?.executor.enqueue { [weak self] in self?.prerollTick(session: id) }
                }
            case .stopPrerollTicks:
                owned.prerollTimer?.cancel()
                owned.prerollTimer = nil
            case .schedulePrerollTimeout(let id, let epoch, let item, let wait):
                executor.enqueue(after: wait) { [weak self] in
                    self?.apply { $0.prerollTimedOut(session: id, epoch: epoch, item: item) }
                }
            case .build(let build):
                captions.newMovie()
                executor.enqueue { [self] in start(build) }
            case .scheduleTimeout(let id, let epoch):
                let timeout = preparationTimeout
                executor.enqueue(after: timeout) { [weak self] in
                    self?.apply { $0.preparationTimedOut(session: id, epoch: epoch, after: timeout) }
                }
            case .scheduleReconnect(let id, let epoch, let wait):
                executor.enqueue(after: wait) { [weak self] in
                    guard let self else { return }
                    // What was buffered played on during the wait: the movie comes back where it
                    // got to, after the last frame shown. Paused first, and the frame on its way
                    // to the sink let arrive (it is the one on screen then); the clock's position
                    // can be a frame or two behind that frame.
                    let session = state.withLock { owned in
                        owned.session?.id == id && owned.machine.epoch == epoch && owned.machine.pipelineHasPosition
                            ? owned.session : nil
                    }
                    session?.pauseAndSettle(within: .milliseconds(200))
                    let reached = [session?.position, session?.videoOutput.firstFrame.lastFrameEnd].compactMap { $0 }
                    apply { $0.reconnectDue(session: id, epoch: epoch, position: reached.max()) }
                }
            case .close(let id), .play(let id), .pause(let id), .restartClock(let id), .seek(let id, _, _),
                .instantRate(let id, _), .applyPresentation(let id, _), .reload(let id, _, _, _),
                .watchForStalledDemuxer(let id), .useResumeThreshold(let id), .queueNext(let id, _, _),
                .applyGain(let id, _), .selectAudioTrack(let id, _):
                guard let session = owned.session, session.id == id else { continue }
                if case .close = action {
                    owned.session = nil
                    // Now, not when the pipeline is torn down: no frame callback starts after
                    // stop() returns, though frames flow until the teardown thread gets to it.
                    session.videoOutput.closeFrameDeliveries()
                }
                executor.enqueue { [self] in run(action, on: session) }
            }
        }
        if rearm {
            timeObservers.playbackChanged(self)
            lookAtTimedMetadata()
        }
    }

    /// Performs one pipeline action, on the player's thread.
    private func run(_ action: PlayerMachine.Action, on session: PipelineSession) {
        executor.assertCurrent("a pipeline action")
        let id = session.id
        switch action {
        case .close:
            // Everything asked before the stop has been done; the pipeline goes to NULL on a
            // low-priority thread of its own while this one goes on.
            PipelineTeardown.close(session, pending: teardowns)
        case .play:
            session.play()
            sendHeldLoopSeek(on: session)
            // Already playing (no state change, so no message): say so now.
            if session.settledState == .playing { apply { $0.pipelineReached(session: id, playing: true) } }
        case .pause:
            session.pause()
            if session.settledState == .paused { apply { $0.pipelineReached(session: id, playing: false) } }
        case .restartClock:
            session.pause()
            session.play()
            sendHeldLoopSeek(on: session)
        case .seek(_, let plan, let seqnum) where !plan.flush:
            sendLoopSeek(LoopSeek(plan: plan, seqnum: seqnum), on: session)
        case .seek(_, let plan, let seqnum):
            if !session.seek(plan, seqnum: seqnum) {
                apply { $0.seekRefused(session: id, seqnum: seqnum) }
            } else if plan.flush {
                scheduleSeekDeadline(session, seqnum: seqnum)
            }
        case .instantRate(_, let rate):
            if !session.changeRate(instantlyTo: rate) {
                let position = session.position
                apply { $0.instantRateRefused(session: id, rate: rate, position: position) }
            }
        case .applyPresentation(_, let presentation):
            apply(presentation, to: session)
        case .reload(_, let source, let epoch, let hold):
            captions.newMovie()
            do throws(MediaError) {
                try source.validate()
                try session.reload(source, epoch: epoch, holdFirstFrame: hold)
            } catch {
                apply { $0.pipelineFailed(session: id, error: source.interpret(error)) }
            }
        case .watchForStalledDemuxer:
            watchForStalledDemuxer(session)
        case .useResumeThreshold:
            session.useResumeThreshold()
        case .queueNext(_, let upcoming, let playing):
            session.queueNext(upcoming, playing: playing)
        case .applyGain(_, let gain):
            session.setGain(gain)
        case .selectAudioTrack(_, let index):
            session.selectAudioTrack(index)
        case .selectSubtitleTrack(_, let choice):
            if case .stream(let index) = choice { session.selectSubtitleTrack(index) }
        case .build, .scheduleTimeout, .scheduleReconnect, .startScanTimer, .cancelScanTimer, .resume,
            .rearmTimeObservers, .scheduleTimedMetadata, .reportPreroll, .startPrerollTicks, .stopPrerollTicks,
            .schedulePrerollTimeout:
            break  // Performed under the lock.
        }
    }

    /// Sends repeat mode's loop, a seek that does not flush, when ``LoopSeekTiming`` says the
    /// sinks will take what the demuxer pushes; while the movie is paused it is held in the session
    /// until the player plays again (``sendHeldLoopSeek(on:)``); a flushing seek sent meanwhile
    /// drops it (``PipelineSession/holdLoopSeek(_:)``), as the pipeline's shutdown does.
    private func sendLoopSeek(_ loop: LoopSeek, on session: PipelineSession) {
        guard state.withLock({ $0.session?.id == session.id }) else { return }
        switch session.loopSeekTiming {
        case .now:
            if !session.seek(loop.plan, seqnum: loop.seqnum) {
                apply { $0.seekRefused(session: session.id, seqnum: loop.seqnum) }
            }
        case .later:
            session.holdLoopSeek(loop)
        case .never:
            break
        }
    }

    /// The player has just set its pipeline to PLAYING: the loop held while it was paused goes now.
    private func sendHeldLoopSeek(on session: PipelineSession) {
        if let loop = session.takeHeldLoopSeek() { sendLoopSeek(loop, on: session) }
    }

    /// A flushing seek the pipeline never completes would leave `seek(to:)` waiting for ever:
    /// seen in `make fuzz-engine` with damaged WebM files (matroskademux finds nothing to push at
    /// the new position: no ASYNC_DONE at all) and MPEG-TS files (an ASYNC_DONE, but no frame
    /// from the new position). After the preparation timeout the machine lands such a seek or
    /// fails the movie (``PlayerMachine/seekDeadlinePassed(session:seqnum:after:facts:)``). On the
    /// player's thread; the pipeline is asked for its position only if the seek is still in flight.
    /// - Parameters:
    ///   - session: The pipeline the seek was sent to.
    ///   - seqnum: The seek's sequence number.
    ///   - wait: How long from now; nil for the preparation timeout.
    func scheduleSeekDeadline(_ session: PipelineSession, seqnum: UInt32, after wait: Duration? = nil) {
        let timeout = wait ?? preparationTimeout
        let id = session.id
        executor.enqueue(after: timeout) { [weak self, weak session] in
            guard let self, let session, read({ $0.inFlightSeek?.seqnum == seqnum }) else { return }
            let facts = PlayerMachine.PipelineFacts(
                position: session.position, duration: session.duration, mediaTypes: session.mediaTypes)
            apply { $0.seekDeadlinePassed(session: id, seqnum: seqnum, after: timeout, facts: facts) }
        }
    }

    /// Builds and starts the pipeline of a preparation, on the player's thread.
    private func start(_ build: PlayerMachine.PipelineBuild) {
        // The player's previous pipeline lets go of what it held (a window, a file) first.
        teardowns.wait()
        let id = build.session
        do throws(MediaError) {
            try build.source.validate()
            let executor = executor
            let closedCaptions: ClosedCaptionWatch.Handler = { [weak self] event in
                self?.closedCaptionsArrived(event, session: id)
            }
            let session = try PipelineSession(
                id: id, executor: executor, source: build.source, videoSink: build.videoSink,
                audioOutput: build.audioOutput, overlays: overlays, presentation: build.presentation,
                buffering: build.buffering, holdFirstFrame: build.holdFirstFrame, gain: build.gain,
                subtitleCue: captions.add,
                closedCaptions: closedCaptions
            ) { [weak self] message in
                // The bus thread only hands messages over, in order.
                guard let self else { return .exit }
                executor.enqueue { self.handle(message, session: id) }
                return .carryOn
            }
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
            session.queueNext(build.next, playing: nil)
            session.start()
        } catch {
            apply { $0.pipelineFailed(session: id, error: build.source.interpret(error)) }
        }
    }

    /// Ends a session with an error: waiters fail, the finish event carries the error, the
    /// pipeline is torn down. On the player's thread.
    func fail(session id: Int, with error: MediaError) {
        let position = state.withLock { $0.session?.id == id ? $0.session : nil }?.position
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

    // MARK: Tracing

    /// `MEDIA_ENGINE_TRACE=1` prints every decision's events and actions to standard error.
    static let tracing = getenv("MEDIA_ENGINE_TRACE").map { String(cString: $0) == "1" } ?? false

    static func trace(_ line: String) {
        let now = Double(DispatchTime.now().uptimeNanoseconds / 1000) / 1000
        // No credential in a log line: a URI's user information is removed.
        FileHandle.standardError.write(Data("[media-engine] \(now) ms \(URIRedaction.redacting(line))\n".utf8))
    }

    // MARK: Lifetime

    /// Stops and returns once the pipeline is torn down: at NULL, its streaming and bus threads
    /// ended, its files closed.
    func shutdown() async {
        apply { $0.stop() }
        await executor.perform { [teardowns] in teardowns.wait() }
    }

    /// The owner let go: ends everything on the player's thread and lets that thread end,
    /// without waiting for any of it.
    func release() {
        apply { $0.release() }
        executor.enqueue { [self] in
            timeObservers.cancelAll()
            hub.finish()
            // The player's last work: it is gone once its pipelines are.
            teardowns.wait()
            PlayerLifetimes.players.leave()
        }
        executor.finish()
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
