import Testing

@testable import MediaEngineCore

/// Network movies in the state machine: buffering before the start, load states, source type
/// from the content, and a server's challenge answered once.
@Suite("Player machine: network")
struct PlayerMachineNetworkTests {
    /// A network source that answers a challenge with a copy of itself (marked) when it may.
    struct ChallengedSource: MediaSource {
        var uri = "http://example.test/a.mp4"
        var sourceType = MovieSourceType.unknown
        var answers = true
        var answered = false
        func answering(_ challenge: AuthenticationChallenge) -> (any MediaSource)? {
            guard answers, !answered else { return nil }
            var copy = self
            copy.answered = true
            return copy
        }
    }

    static let challenge = HTTPResponse(
        uri: "http://example.test/a.mp4", statusCode: 401, headers: ["WWW-Authenticate": "Basic realm=\"Movies\""])
    static let unauthorized = PipelineFailure(
        domain: .resource, code: 0, message: "Unauthorized", elementName: "source", factoryName: "souphttpsrc",
        httpStatusCode: 401)

    @Test("a network movie prepared with too little buffered waits, interrupted, and plays at 100 %")
    func autoplayWaitsForBuffering() {
        var h = MachineHarness(source: ChallengedSource(), autoplay: true)
        h.preparing()
        h.feed { $0.buffering(session: 1, percent: 30, stats: BufferingStats()) }
        h.asyncDone()
        let (events, actions) = h.takeAll()
        #expect(events.contains(.loadStateChanged([.playable, .stalled])))
        #expect(events.contains(.playbackStateChanged(.interrupted)))
        #expect(!actions.contains(.play(session: 1)))
        // It waits for more: its demuxer may read ahead now.
        #expect(actions.contains(.openFragmentGates(session: 1)))
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        #expect(h.take() == ([.loadStateChanged(.playable)], [.useResumeThreshold(session: 1), .play(session: 1)]))
    }

    @Test("play() on a prepared network movie that is short of data waits for buffering")
    func playWaitsForBuffering() {
        var h = MachineHarness(source: ChallengedSource())
        h.prepared()
        h.feed { $0.buffering(session: 1, percent: 50, stats: BufferingStats()) }
        _ = h.take()
        _ = MachineHarness.waiter(h.feed { $0.play() })
        #expect(h.take().actions.isEmpty)
        #expect(h.machine.playbackState == .interrupted)
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        #expect(h.take().actions.contains(.play(session: 1)))
    }

    @Test("buffering that falls again while the play after 100 % is on its way keeps the movie interrupted")
    func stallBeforePlaying() {
        var h = MachineHarness(source: ChallengedSource())
        h.prepared()
        h.feed { $0.buffering(session: 1, percent: 50, stats: BufferingStats()) }
        _ = h.feed { $0.play() }
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        #expect(h.take().actions.contains(.play(session: 1)))
        // The buffer empties again before the pipeline says it plays.
        h.feed { $0.buffering(session: 1, percent: 5, stats: BufferingStats()) }
        h.reached(playing: true)
        let (events, actions) = h.take()
        #expect(!events.contains(.playbackStateChanged(.playing)), "\(events)")
        #expect(actions == [.pause(session: 1)])
        #expect(h.machine.playbackState == .interrupted)
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        #expect(h.take().actions.contains(.play(session: 1)))
        h.reached(playing: true)
        #expect(h.take().events.contains(.playbackStateChanged(.playing)))
        #expect(h.machine.playbackState == .playing)
    }

    @Test("a stall after the download ended stands when the pipeline reports the earlier play late; 100 % plays it")
    func stallAfterDownloadEnded() {
        // A play reaches the pipeline twice: the play action's own report (the state change was
        // synchronous) and the bus's state-changed message after it. A buffering dip can come
        // between the two: a flushing seek (the reconnection's own) asks the server again after
        // the source had already ended once, so `downloadComplete` is true while queue2 refills.
        var h = MachineHarness(source: ChallengedSource())
        h.prepared()
        h.feed { $0.downloadCompleted(session: 1) }
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        _ = h.feed { $0.play() }
        #expect(h.take().actions.contains(.play(session: 1)))
        h.reached(playing: true)  // the play action's report
        #expect(h.machine.playbackState == .playing)
        _ = h.take()
        h.feed { $0.buffering(session: 1, percent: 28, stats: BufferingStats()) }
        var (events, actions) = h.take()
        #expect(events.contains(.playbackStateChanged(.interrupted)))
        #expect(actions == [.pause(session: 1)])
        h.reached(playing: true)  // the bus's, of the same play
        (events, actions) = h.take()
        #expect(!events.contains(.playbackStateChanged(.playing)), "\(events)")
        #expect(h.machine.playbackState == .interrupted)
        h.reached(playing: false)  // the dip's pause
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        (events, actions) = h.take()
        #expect(actions.contains(.play(session: 1)), "the pipeline is paused: only this play takes it on to the end")
        h.reached(playing: true)
        #expect(h.machine.playbackState == .playing)
    }

    @Test("a seek in a streamed (not downloaded) movie whose source had ended: the rest must arrive again")
    func seekAfterDownloadEnded() {
        var h = MachineHarness(source: ChallengedSource())
        h.prepared()
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        h.feed { $0.downloadCompleted(session: 1) }
        #expect(h.machine.wholeMovieArrived && h.machine.loadState == [.playable, .playthroughOK])
        h.seek(to: .seconds(5), exact: false)
        #expect(!h.machine.wholeMovieArrived, "the source asks the server again from the new place")
        h.feed { $0.buffering(session: 1, percent: 40, stats: BufferingStats()) }
        #expect(h.machine.isStarved)
        // Downloaded to a file, a seek reads the file: the movie stays whole.
        var d = MachineHarness(source: ChallengedSource())
        d.prepared()
        d.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats(mode: .download, remaining: .zero)) }
        d.feed { $0.downloadCompleted(session: 1) }
        d.seek(to: .seconds(5), exact: false)
        #expect(d.machine.wholeMovieArrived && !d.machine.isStarved)
    }

    @Test("a local file is playthroughOK when prepared and never waits for buffering")
    func localFile() {
        var h = MachineHarness()
        h.prepared()
        #expect(h.machine.loadState == [.playable, .playthroughOK])
        #expect(!h.machine.isStarved)
    }

    @Test("a finished download, or one faster than playback, is playthroughOK; a slower one only playable")
    func playthrough() {
        let cases: [(BufferingStats, LoadState)] = [
            (BufferingStats(mode: .download, remaining: .zero), [.playable, .playthroughOK]),
            (BufferingStats(averageIn: 300, averageOut: 200), [.playable, .playthroughOK]),
            (BufferingStats(averageIn: 100, averageOut: 200), .playable),
            (BufferingStats(), .playable),
        ]
        for (stats, expected) in cases {
            var h = MachineHarness(source: ChallengedSource())
            h.prepared()
            h.feed { $0.buffering(session: 1, percent: 100, stats: stats) }
            #expect(h.machine.loadState == expected, "\(stats)")
        }
    }

    @Test("the content's type settles an unknown source type: a manifest is a stream, the rest a file")
    func sourceTypeFromContent() {
        var h = MachineHarness(source: ChallengedSource())
        h.preparing()
        h.feed { $0.streamTypeFound(session: 1, caps: "application/x-hls") }
        #expect(h.machine.sourceType == .streaming)
        var file = MachineHarness(source: ChallengedSource())
        file.preparing()
        file.feed { $0.streamTypeFound(session: 1, caps: "video/quicktime, variant=iso") }
        #expect(file.machine.sourceType == .file)
    }

    @Test("a 401 with a challenge is answered once in the same pipeline; a second 401 is unauthorized")
    func challengeAnsweredOnce() {
        var h = MachineHarness(source: ChallengedSource())
        let waiter = h.preparing()
        _ = h.take()
        h.feed { $0.httpResponseArrived(session: 1, Self.challenge) }
        h.feed { $0.pipelineError(session: 1, Self.unauthorized, position: nil) }
        #expect(
            h.takeAll() == (
                [],
                [
                    .reload(1, ChallengedSource(answered: true), epoch: 1), .armFragmentGates(1, epoch: 1),
                    .armPreparation(1, epoch: 1),
                ]
            ))
        #expect((h.machine.source as? ChallengedSource)?.answered == true)
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.feed { $0.httpResponseArrived(session: 1, Self.challenge) }
        h.feed { $0.pipelineError(session: 1, Self.unauthorized, position: nil) }
        #expect(h.take().actions.first?.isInterpret == true)
        h.interpreted()
        let (events, actions) = h.take()
        #expect(actions == [.close(session: 1), .resume(waiter: waiter, .failed(.unauthorized))])
        guard case .playbackDidFinish(.playbackError, let error) = events.last else {
            Issue.record("no finish: \(events)")
            return
        }
        #expect(error?.code == .unauthorized && error?.httpStatusCode == 401)
    }

    @Test("a source with no credential for the challenge fails at once with unauthorized")
    func challengeUnanswered() {
        var h = MachineHarness(source: ChallengedSource(answers: false))
        h.preparing()
        h.feed { $0.httpResponseArrived(session: 1, Self.challenge) }
        h.feed { $0.pipelineError(session: 1, Self.unauthorized, position: nil) }
        h.interpreted()
        #expect(h.machine.lastError?.code == .unauthorized)
        #expect(h.machine.phase == .idle)
    }

    @Test("WWW-Authenticate headers: Digest preferred, realms with escaped quotes, unknown schemes skipped")
    func challengeParsing() {
        let offers = AuthenticationChallenge.challenges(
            in: #"Negotiate abc==, Basic realm="A \"quoted\" realm", Digest realm="D", qop="auth", nonce="x,y""#)
        #expect(offers.map(\.method) == [.basic, .digest])
        #expect(offers.first?.realm == #"A "quoted" realm"#)
        let response = HTTPResponse(
            uri: "https://user:pw@Example.test:8443/m.mp4", statusCode: 401,
            headers: ["www-authenticate": #"Basic realm="B", Digest realm="D", nonce="n""#])
        let challenge = AuthenticationChallenge(response)
        #expect(
            challenge?.protectionSpace
                == ProtectionSpace(host: "example.test", port: 8443, scheme: "https", realm: "D", method: .digest))
        #expect(
            challenge?.uri == "https://example.test:8443/m.mp4" || challenge?.uri == "https://Example.test:8443/m.mp4")
        for garbage in ["", "Basic", "realm=", "\"\"\"", ",,,", "Basic realm=\"unterminated"] {
            _ = AuthenticationChallenge.challenges(in: garbage)  // never traps
        }
    }

    @Test("user information is removed from every URI in a text")
    func redaction() {
        #expect(
            URIRedaction.redacting("GET http://u:p@h/x failed, see https://a@b:1/y")
                == "GET http://h/x failed, see https://b:1/y")
        #expect(URIRedaction.redacting("mail me@host, no URI") == "mail me@host, no URI")
        #expect(URIRedaction.redacting("http://h/a@b") == "http://h/a@b")
    }
}
