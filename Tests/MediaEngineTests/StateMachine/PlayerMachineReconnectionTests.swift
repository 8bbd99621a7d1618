import Testing

@testable import MediaEngineCore

/// Failures that may pass, in the state machine: the movie is loaded again after the source's
/// growing waits, at the position it had reached, with no new preparation; the last try's error
/// ends it; other errors end it at once.
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
        var h = MachineHarness(source: source)
        h.prepared()
        _ = h.feed { $0.play() }
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        _ = h.take()
        return h
    }

    /// The connection breaks at `position` while the movie plays.
    static func breakConnection(_ h: inout MachineHarness, at position: Duration) {
        h.feed { $0.httpResponseArrived(session: 1, Self.answered) }
        h.feed { $0.pipelineError(session: 1, Self.broken, position: position) }
    }

    /// The reload of `epoch` comes back: its marker, the held first frame, the seek to the
    /// position, its frame and preroll.
    static func comesBack(_ h: inout MachineHarness, epoch: Int, at position: Duration) -> [String] {
        h.feed { $0.reconnectDue(session: 1, epoch: epoch, position: position) }
        h.feed { $0.epochMarkerArrived(session: 1, epoch: epoch) }
        h.feed { $0.firstFrameHeld(session: 1) }
        guard let seek = h.machine.inFlightSeek else { return h.take().actions }
        h.feed { $0.seekMarkerArrived(session: 1, seqnum: seek.seqnum) }
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: seek.seqnum, streamTime: position,
                displaySize: VideoSize(width: 320, height: 240), facts: MachineHarness.facts)
        }
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
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
        let waiter = MachineHarness.waiter(h.feed { $0.prepare() })
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        _ = h.take()
        h.feed { $0.pipelineError(session: 1, Self.unavailable, position: nil) }
        var (events, actions) = h.take()
        guard case .reconnecting(1, .milliseconds(500), let error) = events.first, events.count == 1 else {
            Issue.record("\(events)")
            return
        }
        #expect(error.code == .httpError && error.httpStatusCode == 503)
        #expect(actions == ["scheduleReconnect 1 epoch 1 after 0.500 s"])
        #expect(h.machine.phase == .preparing && h.machine.playbackState == .stopped)
        h.feed { $0.reconnectDue(session: 1, epoch: 1, position: nil) }
        #expect(h.take().actions == ["reload 1 epoch 1", "scheduleTimeout 1 epoch 1"])
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.feed { $0.pipelineError(session: 1, Self.unavailable, position: nil) }
        (events, actions) = h.take()
        #expect(events.map(\.description) == ["reconnecting(2, after: 1.0 seconds, httpError)"])
        #expect(actions == ["scheduleReconnect 1 epoch 2 after 1.000 s"])
        h.feed { $0.reconnectDue(session: 1, epoch: 2, position: nil) }
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 2) }
        _ = h.take()
        h.feed { $0.pipelineError(session: 1, Self.unavailable, position: nil) }
        (events, actions) = h.take()
        #expect(actions == ["close 1", "resume \(waiter) httpError"])
        #expect(events.last?.description == "playbackDidFinish(playbackError, httpError)")
    }

    @Test("a retry that succeeds prepares the movie as a first try would, once")
    func preparedAfterRetry() {
        var h = MachineHarness(source: RetryingSource())
        let waiter = MachineHarness.waiter(h.feed { $0.prepare() })
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.feed { $0.pipelineError(session: 1, Self.unavailable, position: nil) }
        h.feed { $0.reconnectDue(session: 1, epoch: 1, position: nil) }
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        _ = h.take()
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
        let (events, actions) = h.take()
        #expect(events.filter { $0 == .preparedToPlayChanged(true) }.count == 1)
        #expect(events.contains(.durationAvailable(.seconds(10))))
        #expect(actions.contains("resume \(waiter)"))
        #expect(h.machine.phase == .prepared && !h.machine.isReconnecting)
    }

    @Test("a connection lost while playing: interrupted and stalled, then back at the same position, playing")
    func whilePlaying() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(4))
        var (events, actions) = h.take()
        #expect(
            events.map(\.description) == [
                "reconnecting(1, after: 0.5 seconds, connectionLost)", "loadStateChanged([playable, stalled])",
            ])
        #expect(actions == ["scheduleReconnect 1 epoch 1 after 0.500 s"])
        #expect(h.machine.lastPosition == .seconds(4))
        #expect(h.machine.isPreparedToPlay && h.machine.readyForDisplay)
        #expect(h.machine.playbackState == .playing && h.machine.pipelineHasPosition, "what was buffered plays on")
        // Late messages of the broken load are not the new one's.
        h.feed { $0.endOfStream(session: 1, position: .seconds(4)) }
        #expect(h.take().events.isEmpty)
        let seqnum = h.machine.makeSeqnum() + 1
        // The buffered part played on to 4.5 s during the wait: the movie comes back there.
        h.feed { $0.reconnectDue(session: 1, epoch: 1, position: .milliseconds(4500)) }
        (events, actions) = h.take()
        #expect(events == [.playbackStateChanged(.interrupted)])
        #expect(actions == ["reload 1 epoch 1 holding", "scheduleTimeout 1 epoch 1"])
        #expect(!h.machine.pipelineHasPosition && h.machine.lastPosition == .milliseconds(4500))
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.feed { $0.firstFrameHeld(session: 1) }
        #expect(h.take().actions == ["seek 1 #\(seqnum) to 4.500 s rate 1.0 exact"])
        h.feed { $0.seekMarkerArrived(session: 1, seqnum: seqnum) }
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: seqnum, streamTime: .milliseconds(4500),
                displaySize: VideoSize(width: 320, height: 240),
                facts: MachineHarness.facts)
        }
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
        (events, actions) = h.take()
        #expect(events == [.loadStateChanged(.playable)], "no preparation events again")
        #expect(actions == ["play 1"])
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        #expect(h.take().events == [.playbackStateChanged(.playing)])
    }

    @Test("a movie that moved on from a failure counts its tries from 1 again; one stuck at the same place fails")
    func countsProgress() {
        var h = Self.playing(RetryingSource(retryPolicy: RetryPolicy(attempts: 1)))
        Self.breakConnection(&h, at: .seconds(2))
        _ = Self.comesBack(&h, epoch: 1, at: .seconds(2))
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        _ = h.take()
        Self.breakConnection(&h, at: .seconds(6))
        #expect(h.take().events.first?.description == "reconnecting(1, after: 0.5 seconds, connectionLost)")
        _ = Self.comesBack(&h, epoch: 2, at: .seconds(6))
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        Self.breakConnection(&h, at: .milliseconds(6500))
        let (events, actions) = h.take()
        #expect(actions.first == "close 1")
        #expect(events.last?.description == "playbackDidFinish(playbackError, connectionLost)")
    }

    @Test("a failure that will not pass ends playback at once, and a local file never retries")
    func notRetried() {
        var h = Self.playing()
        h.feed { $0.pipelineError(session: 1, Self.missing, position: .seconds(1)) }
        #expect(h.take().actions.first == "close 1")
        var file = Self.playing(MachineHarness.NamedSource(uri: "file:///a.mp4"))
        file.feed { $0.pipelineError(session: 1, Self.unavailable, position: .seconds(1)) }
        #expect(file.take().actions.first == "close 1")
        var none = Self.playing(RetryingSource(retryPolicy: .never))
        Self.breakConnection(&none, at: .seconds(1))
        #expect(none.take().actions.first == "close 1")
    }

    @Test("stop() during the wait ends it: the timer's report later does nothing")
    func stopWhileWaiting() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(3))
        _ = h.take()
        h.feed { $0.stop() }
        let (events, actions) = h.take()
        #expect(actions.first == "close 1")
        #expect(events.contains(.playbackDidFinish(.userExited, nil)))
        h.feed { $0.reconnectDue(session: 1, epoch: 1, position: nil) }
        #expect(h.take().actions.isEmpty)
        #expect(h.machine.lastPosition == .zero)
    }

    @Test("a seek while reconnecting moves where the movie comes back, and completes then")
    func seekWhileReconnecting() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(3))
        let waiter = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(7), exact: true) })
        #expect(h.machine.lastPosition == .seconds(7))
        _ = h.take()
        let actions = Self.comesBack(&h, epoch: 1, at: .seconds(7))
        #expect(actions.contains("resume \(waiter)"))
        #expect(actions.contains { $0.contains("to 7.000 s") })
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        #expect(h.machine.playbackState == .playing)
    }

    @Test("pause() while reconnecting pauses what was buffered at once; the movie comes back paused")
    func pauseWhileReconnecting() {
        var h = Self.playing()
        Self.breakConnection(&h, at: .seconds(3))
        _ = h.take()
        let waiter = MachineHarness.waiter(h.feed { $0.pause(position: nil) })
        #expect(h.take().actions == ["pause 1"])
        let actions = Self.comesBack(&h, epoch: 1, at: .seconds(3))
        #expect(actions.contains("resume \(waiter)"))
        #expect(!actions.contains("play 1"))
        #expect(h.machine.playbackState == .paused)
    }

    @Test("a live stream comes back at its live edge, not at the old position")
    func liveStream() {
        var h = MachineHarness(source: RetryingSource(uri: "http://example.test/live.m3u8", sourceType: .streaming))
        h.prepared(facts: PlayerMachine.PipelineFacts(position: .seconds(30), duration: nil, mediaTypes: [.video]))
        _ = h.feed { $0.play() }
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        Self.breakConnection(&h, at: .seconds(40))
        h.feed { $0.reconnectDue(session: 1, epoch: 1, position: nil) }
        #expect(h.take().actions.suffix(2) == ["reload 1 epoch 1", "scheduleTimeout 1 epoch 1"])
    }
}
