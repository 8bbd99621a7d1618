import Foundation
import Testing

@testable import MediaEngineCore

/// The reconnection rules a network movie's ``RetryPolicy`` sets, decided by the machine alone:
/// the deadline on getting the movie going (a timer of the machine's: a silent server is
/// `timedOut` within it, the retries announced before), and refused connections, retried only
/// when the policy asks. Inputs go straight to ``PlayerMachine``; no GStreamer, no clock.
@Suite("Reconnection deadline")
struct ReconnectionDeadlineTests {
    /// An HTTP movie with `policy`.
    struct NetworkSource: MediaSource {
        var uri = "http://127.0.0.1:9/movie.mp4"
        var sourceType: MovieSourceType { .unknown }
        var retryPolicy: RetryPolicy
    }

    /// A machine and what it said since the last look.
    struct Run {
        var machine: PlayerMachine
        let session: Int
        var events: [PlayerEvent] = []
        var actions: [PlayerMachine.Action] = []

        /// Prepares a movie with `policy` and builds its pipeline.
        init(_ policy: RetryPolicy, autoplay: Bool = false) {
            machine = PlayerMachine(
                source: NetworkSource(retryPolicy: policy), videoSink: NullVideoSink(), audioOutput: .discard,
                seqnums: { 1 })
            machine.setShouldAutoplay(autoplay)
            _ = machine.prepare()
            let built = machine.takeOutput().actions.compactMap { action -> Int? in
                if case .build(let build) = action { build.session } else { nil }
            }
            session = built.first ?? 0
            _ = machine.pipelineBuilt(session: session)
            take()
        }

        /// Takes the machine's output into ``events`` and ``actions`` (replacing what was there).
        mutating func take() {
            let output = machine.takeOutput()
            events = output.events
            actions = output.actions
        }

        /// The timers started by the last input.
        var started: [(PlayerMachine.Timer, Duration)] {
            actions.compactMap { action in
                if case .startTimer(let timer, let after, _) = action { (timer, after) } else { nil }
            }
        }

        /// The timers cancelled by the last input.
        var cancelled: [PlayerMachine.Timer] {
            actions.compactMap { action in
                if case .cancelTimer(let timer) = action { timer } else { nil }
            }
        }

        /// The reconnections announced by the last input.
        var reconnections: [(attempt: Int, delay: Duration, error: MediaError)] {
            events.compactMap { event in
                if case .reconnecting(let attempt, let delay, let error) = event {
                    (attempt, delay, error)
                } else {
                    nil
                }
            }
        }

        /// The finish announced by the last input, if any.
        var finish: (FinishReason, MediaError?)? {
            events.lazy.compactMap { event in
                if case .playbackDidFinish(let reason, let error) = event { (reason, error) } else { nil }
            }.first
        }

        /// Whether the last input loaded the movie again.
        var reloaded: Bool {
            actions.contains { if case .reload = $0 { true } else { false } }
        }

        /// The pipeline reports an error, and the source makes it `error`.
        mutating func fail(with error: MediaError, epoch: Int) {
            machine.pipelineError(
                session: session,
                PipelineFailure(
                    domain: .stream, code: 1, message: "Internal data stream error", factoryName: "souphttpsrc"),
                position: nil)
            machine.failureInterpreted(session: session, epoch: epoch, error: error, position: nil)
            take()
        }

        /// The wait before retry `epoch` is over: the movie loads again, its marker passes the bus.
        mutating func waitOver(epoch: Int) {
            machine.timerFired(.reconnect(session: session, epoch: epoch))
            take()
            machine.epochMarkerArrived(session: session, epoch: epoch)
        }

        /// The deadline started in `epoch` is over.
        mutating func deadlinePasses(startedIn epoch: Int = 0) {
            machine.timerFired(.connectionDeadline(session: session, epoch: epoch))
            take()
        }
    }

    static let silence = MediaError(.timedOut, "127.0.0.1 did not answer within the 8 s timeout")
    static let unavailable = MediaError(.httpError, "the server answered HTTP 503", httpStatusCode: 503)
    static let refusal = MediaError(.connectionRefused, "127.0.0.1 refused the connection")

    @Test("a movie prepared in time cancels its deadline, and a firing on its way then does nothing")
    func metInTime() {
        var run = Run(RetryPolicy(attempts: 3, deadline: .seconds(20)))
        run.machine.asyncDone(session: run.session, facts: PlayerMachine.PipelineFacts(duration: .seconds(2)))
        run.take()
        #expect(run.machine.phase == .prepared)
        #expect(run.cancelled.contains(.connectionDeadline(session: run.session, epoch: 0)))
        run.deadlinePasses()
        #expect(run.finish == nil && run.machine.phase == .prepared)
    }

    @Test("the pipeline's build starts the deadline's timer, with the policy's length")
    func timerStarted() {
        var machine = PlayerMachine(
            source: NetworkSource(retryPolicy: RetryPolicy(attempts: 3, deadline: .seconds(20))),
            videoSink: NullVideoSink(), audioOutput: .discard, seqnums: { 1 })
        _ = machine.prepare()
        _ = machine.takeOutput()
        _ = machine.pipelineBuilt(session: 1)
        let timers = machine.takeOutput().actions.compactMap { action -> (PlayerMachine.Timer, Duration)? in
            if case .startTimer(let timer, let after, _) = action { (timer, after) } else { nil }
        }
        #expect(timers.contains { $0.0 == .connectionDeadline(session: 1, epoch: 0) && $0.1 == .seconds(20) })
    }

    @Test("no deadline in the policy, no timer: the tries' own timeouts bound the movie")
    func noDeadline() {
        var machine = PlayerMachine(
            source: NetworkSource(retryPolicy: RetryPolicy(attempts: 3)), videoSink: NullVideoSink(),
            audioOutput: .discard, seqnums: { 1 })
        _ = machine.prepare()
        _ = machine.takeOutput()
        _ = machine.pipelineBuilt(session: 1)
        let timers = machine.takeOutput().actions.compactMap { action -> PlayerMachine.Timer? in
            if case .startTimer(let timer, _, _) = action { timer } else { nil }
        }
        #expect(!timers.contains { if case .connectionDeadline = $0 { true } else { false } })
    }

    @Test("a silent server: each retry is announced, and the deadline during a try ends the movie timedOut")
    func silentServer() throws {
        var run = Run(RetryPolicy(attempts: 3, initialDelay: .milliseconds(500), deadline: .seconds(20)))
        run.fail(with: Self.silence, epoch: 0)
        #expect(run.reconnections.map(\.attempt) == [1] && run.reconnections.map(\.delay) == [.milliseconds(500)])
        #expect(run.started.contains { $0.0 == .reconnect(session: run.session, epoch: 1) })
        run.waitOver(epoch: 1)
        #expect(run.reloaded)
        run.fail(with: Self.silence, epoch: 1)
        #expect(run.reconnections.map(\.attempt) == [2] && run.reconnections.map(\.delay) == [.seconds(1)])
        run.waitOver(epoch: 2)
        // The third try is under way, unanswered, when the deadline passes.
        run.deadlinePasses()
        let (reason, error) = try #require(run.finish, "\(run.events)")
        #expect(reason == .playbackError)
        #expect(error?.code == .timedOut)
        #expect(
            error?.message == "http://127.0.0.1:9/movie.mp4 did not answer within the 20 s connection deadline "
                + "(after 2 retries)")
        #expect(run.actions.contains { if case .close = $0 { true } else { false } })
        #expect(run.machine.phase == .idle)
        // Its failure, if the pipeline still reports one, is of a pipeline that is gone.
        run.waitOver(epoch: 3)
        #expect(!run.reloaded && run.events.isEmpty)
    }

    @Test("the deadline during a wait ends the movie with the failure the wait was for, and no try starts")
    func deadlineDuringWait() throws {
        var run = Run(RetryPolicy(attempts: 3, initialDelay: .seconds(4), deadline: .seconds(3)))
        run.fail(with: Self.unavailable, epoch: 0)
        #expect(run.reconnections.map(\.attempt) == [1])
        run.deadlinePasses()
        let (reason, error) = try #require(run.finish, "\(run.events)")
        #expect(reason == .playbackError)
        #expect(error?.code == .httpError && error?.httpStatusCode == 503)
        #expect(error?.debugDetail?.contains("the 3 s connection deadline passed (after 1 retry)") == true)
        run.waitOver(epoch: 1)
        #expect(!run.reloaded && run.events.isEmpty)
    }

    @Test("the deadline while the source explains a failure: the failure ends the movie, with no retry")
    func deadlineWhileInterpreting() throws {
        var run = Run(RetryPolicy(attempts: 3, deadline: .seconds(20)))
        run.machine.pipelineError(
            session: run.session,
            PipelineFailure(
                domain: .stream, code: 1, message: "Internal data stream error", factoryName: "souphttpsrc"),
            position: nil)
        run.take()
        #expect(run.actions.contains { if case .interpret = $0 { true } else { false } })
        run.deadlinePasses()
        #expect(run.finish == nil, "the source's answer is awaited")
        run.machine.failureInterpreted(session: run.session, epoch: 0, error: Self.silence, position: nil)
        run.take()
        #expect(run.reconnections.isEmpty)
        #expect(run.finish?.1 == Self.silence)
    }

    @Test("a try the server answers goes on past the deadline (a slow download), but a failure then is final")
    func answeredTryGoesOn() throws {
        var run = Run(RetryPolicy(attempts: 3, deadline: .seconds(20)))
        run.machine.httpResponseArrived(
            session: run.session, HTTPResponse(uri: "http://127.0.0.1:9/movie.mp4", statusCode: 200))
        run.deadlinePasses()
        #expect(run.finish == nil && run.machine.phase == .preparing)
        run.fail(with: MediaError(.connectionLost, "the connection broke"), epoch: 0)
        #expect(run.reconnections.isEmpty)
        #expect(run.finish?.1?.code == .connectionLost)
    }

    @Test("a refused connection ends the movie at once by default, and is retried when the policy asks")
    func refusedConnections() throws {
        var run = Run(RetryPolicy(attempts: 3, deadline: .seconds(20)))
        run.fail(with: Self.refusal, epoch: 0)
        #expect(run.reconnections.isEmpty)
        #expect(run.finish?.0 == .playbackError && run.finish?.1 == Self.refusal)

        var asking = Run(RetryPolicy(attempts: 3, deadline: .seconds(20), retriesRefusedConnections: true))
        asking.fail(with: Self.refusal, epoch: 0)
        #expect(asking.reconnections.map(\.attempt) == [1] && asking.finish == nil)
        #expect(RetryPolicy(attempts: 1).retries(after: Self.refusal) == false)
        #expect(RetryPolicy(attempts: 1, retriesRefusedConnections: true).retries(after: Self.refusal))
        #expect(RetryPolicy(attempts: 1).retries(after: Self.silence))
        #expect(!RetryPolicy(attempts: 1).retries(after: MediaError(.fileNotFound, "404", httpStatusCode: 404)))
    }

    @Test("a movie that was playing gets a deadline from its failure on, met when it is back")
    func deadlineOfAReconnection() throws {
        var run = Run(RetryPolicy(attempts: 3, deadline: .seconds(5)))
        run.machine.asyncDone(
            session: run.session, facts: PlayerMachine.PipelineFacts(duration: .seconds(10), mediaTypes: .video))
        run.take()
        #expect(run.machine.phase == .prepared)
        run.machine.pipelineError(
            session: run.session,
            PipelineFailure(
                domain: .stream, code: 1, message: "Internal data stream error", factoryName: "souphttpsrc"),
            position: .seconds(4))
        run.machine.failureInterpreted(
            session: run.session, epoch: 0, error: MediaError(.connectionLost, "broke"), position: .seconds(4))
        run.take()
        #expect(run.reconnections.map(\.attempt) == [1])
        #expect(
            run.started.contains { $0.0 == .connectionDeadline(session: run.session, epoch: 1) && $0.1 == .seconds(5) })
        run.waitOver(epoch: 1)
        run.machine.pipelineSettled(session: run.session, epoch: 1, position: .seconds(4))
        run.take()
        run.machine.epochMarkerArrived(session: run.session, epoch: 1)
        #expect(run.reloaded)
        // Back: prerolled, then at the position it had reached (the preparation's seek).
        let facts = PlayerMachine.PipelineFacts(position: .seconds(4), duration: .seconds(10), mediaTypes: .video)
        run.machine.asyncDone(session: run.session, facts: facts)
        if let seek = run.machine.inFlightSeek {
            run.machine.seekMarkerArrived(session: run.session, seqnum: seek.seqnum)
            run.machine.firstFrameArrived(
                session: run.session, seqnum: seek.seqnum, streamTime: .seconds(4),
                displaySize: VideoSize(width: 320, height: 240), facts: facts)
            run.machine.asyncDone(session: run.session, facts: facts)
        }
        run.take()
        #expect(run.machine.phase == .prepared)
        #expect(run.cancelled.contains(.connectionDeadline(session: run.session, epoch: 1)))
        run.deadlinePasses(startedIn: 1)
        #expect(run.finish == nil && run.machine.phase == .prepared)
    }
}
