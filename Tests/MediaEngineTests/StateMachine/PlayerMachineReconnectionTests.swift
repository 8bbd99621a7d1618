import Testing

@testable import MediaEngineCore

/// Failures that may pass, in the state machine: the movie is loaded again after the source's
/// growing waits (a reconnect timer), at the position it had reached (read once the pipeline has
/// settled), with no new preparation; the last try's error ends it; other errors end it at once.
/// Every pipeline error is interpreted by the source first.
@Suite("Player machine: reconnection")
struct PlayerMachineReconnectionTests {
    /// A network source with a retry policy.
    struct RetryingSource: MediaSource {
        var uri = "http://example.test/a.mp4"
        var sourceType = MovieSourceType.unknown
        var retryPolicy = RetryPolicy(attempts: 2, initialDelay: .milliseconds(500))
    }

    /// HTTP 503 from the source element.
    static let unavailable = PipelineFailure(
        domain: .resource, code: 0, message: "Service Unavailable", elementName: "source",
        factoryName: "souphttpsrc", httpStatusCode: 503)
    /// A body that stopped after the server's 200 (the answer comes first, ``answered``).
    static let broken = PipelineFailure(
        domain: .resource, code: 0, message: "Read error", elementName: "source", factoryName: "souphttpsrc",
        httpStatusCode: nil)
    static let answered = HTTPResponse(uri: "http://example.test/a.mp4", statusCode: 200, headers: [:])
    static let missing = PipelineFailure(
        domain: .resource, code: 0, message: "Not Found", elementName: "source", factoryName: "souphttpsrc",
        httpStatusCode: 404)

    /// A prepared, playing movie of `source`.
    static func playing(_ source: any MediaSource = RetryingSource()) -> MachineHarness {
        MachineHarness.whilePlaying(source)
    }

    /// The pipeline reports `failure` at `position`, and the source has nothing to add to it.
    static func fail(_ h: inout MachineHarness, _ failure: PipelineFailure, at position: Duration?) {
        h.feed { $0.pipelineError(session: 1, failure, position: position) }
        h.interpreted()
    }

    /// The connection breaks at `position` while the movie plays.
    static func breakConnection(_ h: inout MachineHarness, at position: Duration) {
        h.feed { $0.httpResponseArrived(session: 1, Self.answered) }
        fail(&h, Self.broken, at: position)
    }

    /// The wait of `epoch` is over: the pipeline settles where what was buffered got to (when it
    /// has a position), and the movie is loaded again.
    static func waitOver(_ h: inout MachineHarness, epoch: Int, at position: Duration?) {
        h.fire(.reconnect(session: 1, epoch: epoch))
        if h.questions.contains(where: { if case .settle = $0 { true } else { false } }) { h.settled(at: position) }
    }

    /// The reload of `epoch` comes back: its marker, the held first frame, the seek to the
    /// position, its frame and preroll.
    static func comesBack(_ h: inout MachineHarness, epoch: Int, at position: Duration) -> [PlayerMachine.Action] {
        waitOver(&h, epoch: epoch, at: position)
        h.feed { $0.epochMarkerArrived(session: 1, epoch: epoch) }
        h.feed { $0.firstFrameHeld(session: 1) }
        if h.machine.inFlightSeek != nil { h.landSeek(at: position) }
        return h.take().actions
    }

    @Test("waits double from the initial delay up to the maximum; only failures that may pass are retried")
    func policy() {
        let policy = RetryPolicy(attempts: 9, initialDelay: .milliseconds(500), maximumDelay: .seconds(3))
        #expect((1...5).map(policy.delay(beforeAttempt:)) == [0.5, 1, 2, 3, 3].map { Duration.seconds($0) })
        #expect(RetryPolicy(attempts: -2).attempts == 0)
        #expect(
            RetryPolicy(attempts: 1, initialDelay: .seconds(4), maximumDelay: .seconds(1)).maximumDelay == .seconds(4))
        #expect(RetryPolicy(attempts: 99, initialDelay: .seconds(1)).delay(beforeAttempt: 99) == .seconds(8))
        for code in [MediaError.Code.connectionRefused, .connectionFailed, .connectionLost, .timedOut] {
            #expect(RetryPolicy.isTransient(MediaError(code, "x")), "\(code)")
        }
        for status in [408, 429, 502, 503, 504] {
            #expect(RetryPolicy.isTransient(MediaError(.httpError, "x", httpStatusCode: status)), "\(status)")
        }
        for status in [400, 500, 501, 505] {
            #expect(!RetryPolicy.isTransient(MediaError(.httpError, "x", httpStatusCode: status)), "\(status)")
        }
        for code in [MediaError.Code.fileNotFound, .unauthorized, .forbidden, .hostNotFound, .tlsFailure, .notAMovie] {
            #expect(!RetryPolicy.isTransient(MediaError(code, "x")), "\(code)")
        }
    }

    @Test("a 503 while preparing is tried again after 0.5 s, then 1 s; the last try's error ends preparation")
    func whilePreparing() {
        var h = MachineHarness(source: RetryingSource())
        let waiter = h.preparing()
        _ = h.takeAll()
        h.feed { $0.pipelineError(session: 1, Self.unavailable, position: nil) }
        #expect(
            h.takeAll().actions == [
                .interpret(
                    session: 1, epoch: 0, source: .init(RetryingSource()), error: .coded(.httpError), position: nil)
            ])
        h.interpreted()
        var (events, actions) = h.takeAll()
        guard case .reconnecting(1, .milliseconds(500), let error) = events.first, events.count == 1 else {
            Issue.record("\(events)")
            return
        }
        #expect(error.code == .httpError && error.httpStatusCode == 503)
        #expect(actions == [.startTimer(.reconnect(session: 1, epoch: 1), after: .milliseconds(500))])
        #expect(h.machine.phase == .preparing && h.machine.playbackState == .stopped)
        // Not prepared: nothing played on during the wait, and there is no position to settle at.
        h.fire(.reconnect(session: 1, epoch: 1))
        #expect(
            h.takeAll().actions == [
                .reload(1, RetryingSource(), epoch: 1), .armFragmentGates(1, epoch: 1), .armPreparation(1, epoch: 1),
            ])
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        Self.fail(&h, Self.unavailable, at: nil)
        (events, actions) = h.take()
        #expect(events.map(\.description) == ["reconnecting(2, after: 1.0 seconds, httpError)"])
        #expect(h.timers[.reconnect(session: 1, epoch: 2)]?.after == .seconds(1))
        h.fire(.reconnect(session: 1, epoch: 2))
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 2) }
        _ = h.take()
        Self.fail(&h, Self.unavailable, at: nil)
        (events, actions) = h.take()
        #expect(actions.dropFirst() == [.close(session: 1), .resume(waiter: waiter, .failed(.httpError))])
        #expect(events.last?.description == "playbackDidFinish(playbackError, httpError)")
    }

    @Test("a retry that succeeds prepares the movie as a first try would, once")
    func preparedAfterRetry() {
        var h = MachineHarness(source: RetryingSource())
        let waiter = h.preparing()
        Self.fail(&h, Self.unavailable, at: nil)
        Self.waitOver(&h, epoch: 1, at: nil)
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        _ = h.take()
        h.asyncDone()
        let (events, actions) = h.take()
        #expect(events.filter { $0 == .preparedToPlayChanged(true) }.count == 1)
        #expect(events.contains(.durationAvailable(.seconds(10))))
        #expect(actions.contains(.resume(waiter: waiter, .success)))
        #expect(h.machine.phase == .prepared && !h.machine.isReconnecting)
    }

    @Test("a connection lost while playing: interrupted and stalled, then back at the same position, playing")
    func whilePlaying() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(4))
        var (events, actions) = h.takeAll()
        #expect(
            events.map(\.description) == [
                "reconnecting(1, after: 0.5 seconds, connectionLost)", "loadStateChanged([playable, stalled])",
            ])
        #expect(
            actions == [
                .interpret(
                    session: 1, epoch: 0, source: .init(RetryingSource()), error: .coded(.connectionLost),
                    position: .seconds(4)),
                .startTimer(.reconnect(session: 1, epoch: 1), after: .milliseconds(500)),
            ])
        #expect(h.machine.lastPosition == .seconds(4))
        #expect(h.machine.isPreparedToPlay && h.machine.readyForDisplay)
        #expect(h.machine.playbackState == .playing && h.machine.pipelineHasPosition, "what was buffered plays on")
        // Late messages of the broken load are not the new one's.
        h.feed { $0.endOfStream(session: 1, position: .seconds(4)) }
        #expect(h.takeAll() == ([], []))
        // The wait is over: the pipeline pauses and lets the frame on its way arrive first.
        h.fire(.reconnect(session: 1, epoch: 1))
        #expect(
            h.takeAll()
                == ([], [.settle(session: 1, epoch: 1, within: PlayerMachine.reconnectionSettle)]))
        // The buffered part played on to 4.5 s during the wait: the movie comes back there.
        h.settled(at: .milliseconds(4500))
        #expect(
            h.takeAll() == (
                [.playbackStateChanged(.interrupted)],
                [
                    .reload(1, RetryingSource(), epoch: 1, holding: true), .armFragmentGates(1, epoch: 1),
                    .armPreparation(1, epoch: 1),
                ]
            ))
        #expect(!h.machine.pipelineHasPosition && h.machine.lastPosition == .milliseconds(4500))
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.feed { $0.firstFrameHeld(session: 1) }
        #expect(h.take().actions == [.seek(1, 101, to: .milliseconds(4500))])
        h.feed { $0.seekMarkerArrived(session: 1, seqnum: 101) }
        h.firstFrame(seqnum: 101, at: .milliseconds(4500))
        h.asyncDone()
        (events, actions) = h.take()
        #expect(events == [.loadStateChanged(.playable)], "no preparation events again")
        #expect(actions == [.play(session: 1)])
        h.reached(playing: true)
        #expect(h.take().events == [.playbackStateChanged(.playing)])
    }

    @Test("a movie that moved on from a failure counts its tries from 1 again; one stuck at the same place fails")
    func countsProgress() {
        var h = Self.playing(RetryingSource(retryPolicy: RetryPolicy(attempts: 1)))
        Self.breakConnection(&h, at: .seconds(2))
        _ = Self.comesBack(&h, epoch: 1, at: .seconds(2))
        h.reached(playing: true)
        _ = h.take()
        Self.breakConnection(&h, at: .seconds(6))
        #expect(h.take().events.first?.description == "reconnecting(1, after: 0.5 seconds, connectionLost)")
        _ = Self.comesBack(&h, epoch: 2, at: .seconds(6))
        h.reached(playing: true)
        Self.breakConnection(&h, at: .milliseconds(6500))
        let (events, actions) = h.take()
        #expect(actions.dropFirst().first == .close(session: 1))
        #expect(events.last?.description == "playbackDidFinish(playbackError, connectionLost)")
    }

    @Test("a failure that will not pass ends playback at once, and a local file never retries")
    func notRetried() {
        var h = Self.playing()
        Self.fail(&h, Self.missing, at: .seconds(1))
        #expect(h.take().actions.dropFirst().first == .close(session: 1))
        var file = Self.playing(MachineHarness.NamedSource(uri: "file:///a.mp4"))
        Self.fail(&file, Self.unavailable, at: .seconds(1))
        #expect(file.take().actions.dropFirst().first == .close(session: 1))
        var none = Self.playing(RetryingSource(retryPolicy: .never))
        Self.breakConnection(&none, at: .seconds(1))
        #expect(none.take().actions.dropFirst().first == .close(session: 1))
    }

    @Test("stop() during the wait ends it: the timer's report later does nothing")
    func stopWhileWaiting() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(3))
        _ = h.take()
        h.feed { $0.stop() }
        let (events, actions) = h.take()
        #expect(actions == [.close(session: 1)])
        #expect(events.contains(.playbackDidFinish(.userExited, nil)))
        h.fire(.reconnect(session: 1, epoch: 1))
        #expect(h.takeAll() == ([], []))
        #expect(h.machine.lastPosition == .zero)
    }

    @Test("a seek while reconnecting moves where the movie comes back, and completes then")
    func seekWhileReconnecting() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(3))
        let waiter = h.seek(to: .seconds(7), exact: true)
        #expect(h.machine.lastPosition == .seconds(7))
        _ = h.take()
        let actions = Self.comesBack(&h, epoch: 1, at: .seconds(7))
        #expect(actions.contains(.resume(waiter: waiter, .success)))
        #expect(actions.contains(.seek(1, 101, to: .seconds(7))))
        h.reached(playing: true)
        #expect(h.machine.playbackState == .playing)
    }

    @Test("pause() while reconnecting pauses what was buffered at once; the movie comes back paused")
    func pauseWhileReconnecting() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(3))
        _ = h.take()
        let waiter = MachineHarness.waiter(h.feed { $0.pause(position: nil) })
        #expect(h.take().actions == [.pause(session: 1)])
        let actions = Self.comesBack(&h, epoch: 1, at: .seconds(3))
        #expect(actions.contains(.resume(waiter: waiter, .success)))
        #expect(!actions.contains(.play(session: 1)))
        #expect(h.machine.playbackState == .paused)
    }

    @Test("a queue's movie that comes back after a reconnection has the queue's next movie queued behind it again")
    func queueAfterReconnection() {
        var h = MachineHarness()
        let items = ["a", "b"].map { RetryingSource(uri: "http://example.test/\($0).mp4") as any MediaSource }
        h.feed { _ = $0.setQueue(items, startingAt: 0) }
        h.playing()
        h.streamStarted(group: 1)
        Self.breakConnection(&h, at: .seconds(4))
        let actions = Self.comesBack(&h, epoch: 1, at: .seconds(4))
        // The reload cleared what was queued; the movie back, the next one is queued again.
        #expect(actions.suffix(2) == [.setNextQueued(session: 1, true), .play(session: 1)], "\(actions)")
        #expect(h.machine.pipeline?.upNext.pending.map(\.source.uri) == ["http://example.test/b.mp4"])
    }

    @Test("a live stream comes back at its live edge, not at the old position")
    func liveStream() {
        let live = RetryingSource(uri: "http://example.test/live.m3u8", sourceType: .streaming)
        var h = MachineHarness(source: live)
        h.playing(facts: PlayerMachine.PipelineFacts(position: .seconds(30), duration: nil, mediaTypes: [.video]))
        Self.breakConnection(&h, at: .seconds(40))
        Self.waitOver(&h, epoch: 1, at: .seconds(41))
        #expect(
            h.takeAll().actions.suffix(3) == [
                .reload(1, live, epoch: 1), .armFragmentGates(1, epoch: 1), .armPreparation(1, epoch: 1),
            ])
    }
}
