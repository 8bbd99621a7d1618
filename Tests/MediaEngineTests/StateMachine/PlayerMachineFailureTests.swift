import Testing

@testable import MediaEngineCore

/// Failures the source may make more precise (it may read its file, which the machine never
/// does): a pipeline error, a stalled demuxer, a stream that is not a movie, a stream that ends
/// early. The machine asks with ``PlayerMachine/Action/interpret(session:epoch:source:error:position:)``
/// and waits for the answer, ignoring whatever else the movie reports meanwhile; only a pipeline
/// error may then reconnect.
@Suite("Player machine: failures the source interprets")
struct PlayerMachineFailureTests {
    typealias RetryingSource = PlayerMachineReconnectionTests.RetryingSource
    static let failure = PipelineFailure(domain: .stream, code: 1, message: "boom", debug: nil, elementName: "demux")
    /// What a source that reads its file may say instead.
    static let precise = MediaError(.corruptContainer, "the moov atom is damaged", element: "qtdemux0")
    /// A failure that would be worth a reconnection, were the movie allowed one.
    static let lost = MediaError(.connectionLost, "the server went away")

    @Test("while the source interprets, nothing else ends the movie; its answer ends it, once")
    func waitsForTheAnswer() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.pipelineError(session: 1, Self.failure, position: .seconds(3)) }
        #expect(h.take().actions.first?.isInterpret == true)
        #expect(!h.machine.accepts(1) && h.machine.isCurrent(1))
        #expect(h.machine.movie.interpreting == PlayerMachine.InterpretedFailure(mayReconnect: true))
        h.feed { $0.pipelineError(session: 1, Self.failure, position: .seconds(3)) }
        h.feed { $0.endOfStream(session: 1, position: .seconds(3)) }
        h.feed { $0.stateChangeFailed(session: 1, position: .seconds(3)) }
        h.feed { $0.streamTypeFound(session: 1, caps: "text/plain") }
        h.feed { $0.buffering(session: 1, percent: 10, stats: BufferingStats()) }
        #expect(h.takeAll() == ([], []), "a second error, an EOS, a refused state change: nothing")
        #expect(h.machine.playbackState == .playing)
        h.interpreted(as: Self.precise)
        let (events, actions) = h.take()
        #expect(actions == [.close(session: 1)])
        #expect(events.last == .playbackDidFinish(.playbackError, Self.precise))
        #expect(h.machine.lastError == Self.precise, "the source's answer, as it gave it")
        h.feed { $0.failureInterpreted(session: 1, epoch: 0, error: Self.precise, position: nil) }
        #expect(h.takeAll() == ([], []), "a second answer changes nothing")
    }

    @Test("an answer about a movie that is gone (replaced, or stopped) changes nothing")
    func staleAnswer() {
        var replaced = MachineHarness.whilePlaying()
        replaced.feed { $0.pipelineError(session: 1, Self.failure, position: nil) }
        replaced.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        #expect(replaced.machine.movie.interpreting == nil, "the new movie is not failing")
        _ = replaced.takeAll()
        replaced.interpreted(as: Self.precise)
        #expect(replaced.takeAll() == ([], []))
        #expect(replaced.machine.phase == .preparing && replaced.machine.lastError == nil)

        var stopped = MachineHarness.whilePlaying()
        stopped.feed { $0.pipelineError(session: 1, Self.failure, position: nil) }
        stopped.feed { $0.stop() }
        _ = stopped.takeAll()
        stopped.interpreted(as: Self.precise)
        #expect(stopped.takeAll() == ([], []))
        #expect(stopped.machine.lastError == nil)
    }

    @Test("a pipeline error the source says may pass reconnects a network movie")
    func pipelineErrorReconnects() {
        var h = MachineHarness.whilePlaying(RetryingSource())
        h.feed { $0.pipelineError(session: 1, Self.failure, position: .seconds(2)) }
        h.interpreted(as: Self.lost)
        let (events, actions) = h.take()
        #expect(events.first == .reconnecting(attempt: 1, delay: .milliseconds(500), error: Self.lost))
        #expect(!actions.contains(.close(session: 1)))
    }

    @Test("a stalled demuxer never reconnects, whatever the source says")
    func stalledDemuxerNeverReconnects() {
        var h = MachineHarness(source: RetryingSource())
        h.preparing()
        h.feed { $0.streamTypeFound(session: 1, caps: "video/quicktime") }
        h.fire(.stalledDemuxer(session: 1, epoch: 0, look: 0), stalledDemuxer: "qtdemux0")
        h.fire(.stalledDemuxer(session: 1, epoch: 0, look: 1), stalledDemuxer: "qtdemux0")
        #expect(h.machine.movie.interpreting == PlayerMachine.InterpretedFailure(mayReconnect: false))
        Self.neverReconnects(&h)
    }

    @Test("a stream that is not a movie never reconnects, whatever the source says")
    func notAMovieNeverReconnects() {
        var h = MachineHarness(source: RetryingSource())
        h.preparing()
        h.feed { $0.streamTypeFound(session: 1, caps: "text/html") }
        Self.neverReconnects(&h)
    }

    @Test("a stream that ends early never reconnects, whatever the source says")
    func earlyEndNeverReconnects() {
        var h = MachineHarness.whilePlaying(RetryingSource())
        h.feed { $0.endOfStream(session: 1, position: .seconds(4)) }
        Self.neverReconnects(&h)
    }

    /// The source answers with a failure that may pass: the movie ends with it all the same.
    static func neverReconnects(_ h: inout MachineHarness, sourceLocation: SourceLocation = #_sourceLocation) {
        h.interpreted(as: Self.lost, sourceLocation: sourceLocation)
        let (events, actions) = h.take()
        #expect(!events.contains { if case .reconnecting = $0 { true } else { false } }, sourceLocation: sourceLocation)
        #expect(actions.contains(.close(session: 1)), sourceLocation: sourceLocation)
        #expect(h.machine.lastError == Self.lost, sourceLocation: sourceLocation)
    }
}

/// The looks for a demuxer that gave up without exposing a stream while the movie prepares
/// (decodebin drops its error then): four timers from the stream's type on; two looks in a row
/// finding the same demuxer make a stall.
@Suite("Player machine: stalled demuxers")
struct PlayerMachineStalledDemuxerTests {
    static func look(_ n: Int, epoch: Int = 0) -> PlayerMachine.Timer {
        .stalledDemuxer(session: 1, epoch: epoch, look: n)
    }

    /// A movie preparing, its stream's type found (the looks armed).
    static func watching() -> MachineHarness {
        var h = MachineHarness()
        h.preparing()
        h.feed { $0.streamTypeFound(session: 1, caps: "video/quicktime") }
        _ = h.takeAll()
        return h
    }

    @Test("different demuxers, or none, in two looks in a row are no stall; the same one twice is")
    func twoInARow() {
        var h = Self.watching()
        for (n, name) in ["qtdemux0", "matroskademux0", nil].enumerated() {
            h.fire(Self.look(n), stalledDemuxer: name)
        }
        #expect(h.takeAll() == ([], []))
        h.fire(Self.look(3), stalledDemuxer: "qtdemux0")
        #expect(h.takeAll() == ([], []), "the look before found none")

        var stalled = Self.watching()
        stalled.fire(Self.look(0), stalledDemuxer: nil)
        stalled.fire(Self.look(1), stalledDemuxer: "qtdemux0")
        #expect(stalled.takeAll() == ([], []))
        stalled.fire(Self.look(2), stalledDemuxer: "qtdemux0")
        #expect(
            stalled.takeAll().actions == [
                .interpret(
                    session: 1, epoch: 0, source: .named("file:///a.mp4"), error: .coded(.corruptContainer),
                    position: nil)
            ])
    }

    @Test("a look once the movie is prepared, or for an earlier movie, asks for no name and finds nothing")
    func afterPreparation() {
        var prepared = Self.watching()
        prepared.asyncDone()
        #expect(!prepared.machine.needsFacts(for: Self.look(0)))
        prepared.feed { $0.timerFired(Self.look(0), facts: .init(stalledDemuxer: "qtdemux0")) }
        prepared.feed { $0.timerFired(Self.look(1), facts: .init(stalledDemuxer: "qtdemux0")) }
        #expect(prepared.machine.movie.interpreting == nil && prepared.machine.lastError == nil)

        var replaced = Self.watching()
        replaced.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        #expect(!replaced.machine.needsFacts(for: Self.look(0)))
        _ = replaced.takeAll()
        replaced.feed { $0.timerFired(Self.look(0), facts: .init(stalledDemuxer: "qtdemux0")) }
        replaced.feed { $0.timerFired(Self.look(1), facts: .init(stalledDemuxer: "qtdemux0")) }
        #expect(replaced.takeAll() == ([], []))
    }
}
