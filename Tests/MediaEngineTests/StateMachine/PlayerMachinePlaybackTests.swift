import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The player's decisions about playing, pausing, rates, the end of the movie, repeat,
/// buffering and scanning, fed by hand.
@Suite("Player state machine: playback")
struct PlayerMachinePlaybackTests {
    @Test("play from idle prepares and plays; it completes when the pipeline plays")
    func playFromIdle() {
        var h = MachineHarness()
        let waiter = MachineHarness.waiter(h.feed { $0.play() })
        #expect(h.takeAll().actions == [.build(1)])
        h.built()
        h.preroll()
        #expect(
            h.takeAll().actions == [.armPreparation(1, epoch: 0), .armFragmentGates(1, epoch: 0), .play(session: 1)])
        h.reached(playing: true)
        // No time observer, no timed metadata: the position is not read.
        #expect(h.takeAll().actions == [.openFragmentGates(session: 1), .resume(waiter: waiter, .success)])
    }

    @Test("pause during preparation wins over autoplay: prepared and paused")
    func pauseDuringPreparation() {
        var h = MachineHarness(autoplay: true)
        _ = h.feed { $0.prepare() }
        let waiter = MachineHarness.waiter(h.feed { $0.pause(position: nil) })
        h.built()
        h.preroll()
        let (events, actions) = h.take()
        #expect(events.contains(.playbackStateChanged(.paused)))
        #expect(!actions.contains(.play(session: 1)))
        #expect(actions.contains(.resume(waiter: waiter, .success)))
        #expect(h.machine.playbackState == .paused)
    }

    @Test("a later command supersedes a waiting one: pause after play completes the play")
    func supersede() {
        var h = MachineHarness()
        h.prepared()
        let play = MachineHarness.waiter(h.feed { $0.play() })
        h.reached(playing: true)
        let pause = MachineHarness.waiter(h.feed { $0.pause(position: .seconds(1)) })
        _ = h.take()
        // play() is done already; the pause completes when the pipeline is paused.
        #expect(play != pause)
        // The pipeline has not reported the pause yet: the play completes at once, and the
        // pipeline is told to play again (the pause is on its way).
        #expect(h.feed { $0.play() } == .success)
        #expect(h.take().actions == [.resume(waiter: pause, .success), .play(session: 1)])
        h.reached(playing: false)
        #expect(h.machine.playbackState == .playing)
    }

    @Test("pause on a prepared movie that has not started is paused at once")
    func pausePrepared() {
        var h = MachineHarness()
        h.prepared()
        #expect(h.feed { $0.pause(position: nil) } == .success)
        #expect(h.takeAll() == ([.playbackStateChanged(.paused)], [.pause(session: 1)]))
    }

    @Test("the end: stopped, playbackEnded, the pipeline kept paused; play starts again from the start")
    func playAfterEnd() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        #expect(
            h.takeAll() == (
                [.playbackStateChanged(.stopped), .playbackDidFinish(.playbackEnded, nil)], [.pause(session: 1)]
            ))
        #expect(h.machine.atEnd)
        _ = h.feed { $0.play() }
        #expect(h.take().actions == [.seek(1, 101, to: .zero), .play(session: 1)])
        // A stop after the end adds no second finish event.
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        _ = h.take()
        h.feed { $0.stop() }
        #expect(!h.take().events.contains { $0.finish != nil })
    }

    @Test("an end well before the announced duration is a truncated movie, once the source has said what it knows")
    func truncated() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.endOfStream(session: 1, position: .seconds(4)) }
        #expect(
            h.take() == (
                [],
                [
                    .interpret(
                        session: 1, epoch: 0, source: .named("file:///a.mp4"), error: .coded(.truncatedMovie),
                        position: .seconds(4))
                ]
            ))
        h.interpreted()
        #expect(h.machine.lastError?.code == .truncatedMovie)
        #expect(h.take().events.last?.finish?.0 == .playbackError)
    }

    @Test(
        "repeat one: a looping segment restarts without a flush when the pipeline can take it; EOS in a normal segment with a flush"
    )
    func repeatOne() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.setRepeatMode(.one, position: .seconds(1)) }
        #expect(h.take().actions == [.seek(1, 101, to: .seconds(1), looping: true, until: .seconds(10))])
        h.landSeek(at: .seconds(1))
        _ = h.take()
        h.feed { $0.segmentDone(session: 1) }
        #expect(h.take() == ([.didLoop(1)], [.readLoopTiming(session: 1, seqnum: 102)]))
        h.loopTimingRead(.now)
        #expect(h.takeAll().actions == [.sendLoop(1, 102, to: .zero, until: .seconds(10))])
        #expect(h.machine.inFlightSeek == nil, "a loop does not flush: nothing lands")
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        #expect(h.take().events == [.didLoop(2)])
    }

    @Test("same direction: an instant rate change; reversing: a flushing seek; refused: the old rate back")
    func rates() {
        var h = MachineHarness.whilePlaying()
        #expect(h.feed { $0.setRate(2, position: .seconds(1)) } == .success)
        #expect(h.take() == ([.playbackRateChanged(2)], [.instantRate(session: 1, rate: 2, seqnum: 101)]))
        let waiter = MachineHarness.waiter(h.feed { $0.setRate(-1, position: .seconds(2)) })
        #expect(h.take() == ([.playbackRateChanged(-1)], [.seek(1, 102, to: .seconds(2), rate: -1)]))
        h.feed { $0.seekRefused(session: 1, seqnum: 102) }
        #expect(
            h.take() == ([.playbackRateChanged(2)], [.resume(waiter: waiter, .failed(.unsupportedOperation))]))
        #expect(h.machine.rate == 2)
        #expect(h.machine.segmentRate == 2)
    }

    @Test("no instant rate change while a seek is in flight: the rate rides on a queued seek")
    func rateDuringSeek() {
        var h = MachineHarness.whilePlaying()
        h.seek(to: .seconds(5), exact: true)
        _ = h.take()
        _ = h.feed { $0.setRate(2, position: nil) }
        #expect(h.take().actions.isEmpty)
        #expect(h.machine.queuedSeek?.plan.rate == 2)
    }

    @Test("a rate set before preparation is stored and applied by the preparation's seek")
    func rateBeforePreparation() {
        var h = MachineHarness()
        #expect(h.feed { $0.setRate(0.5, position: nil) } == .success)
        _ = h.feed { $0.prepare() }
        #expect(h.take().actions == [.build(1, holding: true)])
    }

    @Test("buffering below 100 % interrupts a playing movie; at 100 % it plays on")
    func buffering() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.buffering(session: 1, percent: 40, stats: BufferingStats()) }
        #expect(
            h.take() == (
                [.loadStateChanged([.playable, .stalled]), .playbackStateChanged(.interrupted)], [.pause(session: 1)]
            ))
        let keepingUp = BufferingStats(mode: .stream, averageIn: 500_000, averageOut: 250_000)
        h.feed { $0.buffering(session: 1, percent: 100, stats: keepingUp) }
        #expect(
            h.take() == (
                [.loadStateChanged([.playable, .playthroughOK])],
                [.useResumeThreshold(session: 1), .play(session: 1)]
            ))
        h.reached(playing: true)
        #expect(h.machine.playbackState == .playing)
        // The resume threshold is switched to once.
        h.feed { $0.buffering(session: 1, percent: 10, stats: BufferingStats()) }
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        #expect(h.take().actions == [.pause(session: 1), .play(session: 1)])
    }

    @Test("a lost clock interrupts playback and restarts the pipeline's clock")
    func clockLost() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.clockLost(session: 1) }
        #expect(h.take().actions == [.restartClock(session: 1)])
        #expect(h.machine.playbackState == .interrupted)
    }

    @Test("scanning: keyframes at rising rates on the scan's timer, then back to the state and rate before")
    func scanning() {
        var h = MachineHarness()
        h.prepared()
        _ = h.feed { $0.pause(position: nil) }
        _ = h.take()
        #expect(throws: Never.self) { try h.feed { $0.beginScan(forward: true, position: .seconds(1)) }.get() }
        #expect(
            h.takeAll() == (
                [.playbackStateChanged(.seekingForward)],
                [
                    .startTimer(.scanStep, after: PlayerMachine.scanStep, repeating: PlayerMachine.scanStep),
                    .seek(1, 101, to: .seconds(1), rate: 2, .keyFramesOnly), .armSeekDeadline(1, 101),
                    .play(session: 1),
                ]
            ))
        // The pipeline playing does not make a scan "playing".
        h.reached(playing: true)
        #expect(h.machine.playbackState == .seekingForward)
        h.preroll()
        h.fire(.scanStep, position: .seconds(3))
        #expect(h.take().actions == [.seek(1, 102, to: .seconds(3), rate: 4, .keyFramesOnly)])
        #expect(h.isArmed(.scanStep), "a repeating timer stays armed")
        h.feed { $0.endScan(position: .seconds(4)) }
        // Queued behind the level's seek, which is still in flight.
        #expect(h.takeAll() == ([.playbackStateChanged(.paused)], [.cancelTimer(.scanStep), .pause(session: 1)]))
        #expect(h.machine.queuedSeek?.plan.rate == 1)
        #expect(h.machine.rate == 1)
    }

    @Test("scanning needs a prepared movie")
    func scanningUnprepared() {
        var h = MachineHarness()
        #expect(throws: MediaError.self) { try h.feed { $0.beginScan(forward: true, position: nil) }.get() }
    }
}

/// Instant rate changes (no flush, no jump): which copy of a change reaching the sinks the
/// pipeline applies.
@Suite("Player state machine: instant rates")
struct PlayerMachineInstantRateTests {
    /// A playing movie whose rate was changed to `rates`, one after another (seqnums 101 up).
    static func changed(to rates: [Double]) -> MachineHarness {
        var h = MachineHarness.whilePlaying()
        for rate in rates { _ = h.feed { $0.setRate(rate, position: .seconds(1)) } }
        _ = h.take()
        return h
    }

    static func reached(
        _ h: inout MachineHarness, _ seqnum: UInt32, multiplier: Double = 2, sink: PlayerMachine.SinkKind = .video,
        segments: Bool = true
    ) {
        h.feed {
            $0.instantRateReachedSink(
                session: 1, seqnum: seqnum, multiplier: multiplier, sink: sink, sinksHaveTimeSegments: segments)
        }
    }

    @Test("the first sink the change reaches requests it, once: the other sink's copy does nothing")
    func once() {
        var h = Self.changed(to: [2])
        Self.reached(&h, 101, sink: .audio)
        #expect(
            h.takeAll().actions == [.requestInstantRate(session: 1, sink: .audio, multiplier: 2, seqnum: 101)])
        Self.reached(&h, 101, sink: .video)
        #expect(h.takeAll() == ([], []))
    }

    @Test("only the latest change applies: an earlier one reaching a sink late does nothing")
    func latest() {
        var h = Self.changed(to: [2, 4])
        Self.reached(&h, 101)
        #expect(h.takeAll() == ([], []))
        Self.reached(&h, 102, multiplier: 2)
        #expect(
            h.takeAll().actions == [.requestInstantRate(session: 1, sink: .video, multiplier: 2, seqnum: 102)])
    }

    @Test("never after a flush: a copy pushed again after a seek would apply the rate twice")
    func flushed() {
        var h = Self.changed(to: [2])
        h.seek(to: .seconds(5), exact: true)
        _ = h.take()
        Self.reached(&h, 101)
        #expect(h.takeAll() == ([], []))
    }

    @Test("never when a sink has no TIME segment: the rates are left as they were, and the change is spent")
    func withoutTimeSegments() {
        var h = Self.changed(to: [2])
        Self.reached(&h, 101, segments: false)
        #expect(h.takeAll() == ([], []))
        Self.reached(&h, 101, sink: .audio)
        #expect(h.takeAll() == ([], []))
    }

    @Test("a refused instant change goes in with a flushing seek; a refusal of a rate no longer asked for does nothing")
    func refused() {
        var h = Self.changed(to: [2])
        h.feed { $0.instantRateRefused(session: 1, rate: 2, position: .seconds(3)) }
        #expect(h.take().actions == [.seek(1, 102, to: .seconds(3), rate: 2)])
        h.feed { $0.instantRateRefused(session: 1, rate: 4, position: .seconds(3)) }
        #expect(h.takeAll() == ([], []))
    }
}

/// Repeat mode's loop: a seek that does not flush, sent when the pipeline can take it.
@Suite("Player state machine: loop timing")
struct PlayerMachineLoopTimingTests {
    /// A movie looping in repeat mode, its looping segment landed; `paused` after a pause().
    static func looping(paused: Bool = false) -> MachineHarness {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.setRepeatMode(.one, position: .seconds(1)) }
        h.landSeek(at: .seconds(1))
        if paused {
            _ = h.feed { $0.pause(position: .seconds(9)) }
            h.reached(playing: false)
        }
        _ = h.takeAll()
        return h
    }

    static let loop = PlayerMachine.Action.sendLoop(1, 102, to: .zero, until: .seconds(10))

    @Test("later: held while the pipeline is paused, sent right after the next play")
    func later() {
        var h = Self.looping(paused: true)
        h.feed { $0.segmentDone(session: 1) }
        h.loopTimingRead(.later)
        #expect(h.take() == ([.didLoop(1)], [.readLoopTiming(session: 1, seqnum: 102)]))
        _ = h.feed { $0.play() }
        #expect(h.take().actions == [.play(session: 1), Self.loop])
        _ = h.feed { $0.pause(position: nil) }
        _ = h.feed { $0.play() }
        #expect(!h.take().actions.contains(Self.loop), "sent once")
    }

    @Test("later, then a clock restart: the held loop follows the restart")
    func afterClockRestart() {
        var h = Self.looping()
        // pause() on its way: the pipeline is paused while the player still plays.
        _ = h.feed { $0.pause(position: nil) }
        h.feed { $0.segmentDone(session: 1) }
        h.loopTimingRead(.later)
        _ = h.take()
        h.feed { $0.clockLost(session: 1) }
        #expect(h.take().actions == [.restartClock(session: 1), Self.loop])
    }

    @Test("never: the pipeline is shutting down, and the loop is dropped")
    func never() {
        var h = Self.looping(paused: true)
        h.feed { $0.segmentDone(session: 1) }
        h.loopTimingRead(.never)
        _ = h.take()
        _ = h.feed { $0.play() }
        #expect(h.take().actions == [.play(session: 1)])
    }

    @Test("a flushing seek drops a loop waiting for its timing, and one held")
    func flushDrops() {
        var pending = Self.looping()
        pending.feed { $0.segmentDone(session: 1) }
        pending.seek(to: .seconds(3), exact: true)
        pending.loopTimingRead(.now)
        #expect(!pending.take().actions.contains(Self.loop))

        var held = Self.looping(paused: true)
        held.feed { $0.segmentDone(session: 1) }
        held.loopTimingRead(.later)
        held.seek(to: .seconds(3), exact: true)
        _ = held.feed { $0.play() }
        #expect(!held.take().actions.contains(Self.loop))
    }

    @Test("the timing of a loop that is not the one waiting does nothing")
    func otherLoop() {
        var h = Self.looping()
        h.feed { $0.segmentDone(session: 1) }
        _ = h.take()
        h.feed { $0.loopTimingRead(session: 1, seqnum: 101, timing: .now) }
        h.feed { $0.loopTimingRead(session: 2, seqnum: 102, timing: .now) }
        #expect(h.takeAll() == ([], []))
    }
}
