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
        #expect(h.take().actions == ["build 1"])
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.preroll()
        #expect(h.take().actions == ["scheduleTimeout 1 epoch 0", "play 1"])
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        #expect(h.take().actions == ["resume \(waiter)"])
    }

    @Test("pause during preparation wins over autoplay: prepared and paused")
    func pauseDuringPreparation() {
        var h = MachineHarness(autoplay: true)
        _ = h.feed { $0.prepare() }
        let waiter = MachineHarness.waiter(h.feed { $0.pause(position: nil) })
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.preroll()
        let (events, actions) = h.take()
        #expect(events.contains(.playbackStateChanged(.paused)))
        #expect(!actions.contains("play 1"))
        #expect(actions.contains("resume \(waiter)"))
        #expect(h.machine.playbackState == .paused)
    }

    @Test("a later command supersedes a waiting one: pause after play completes the play")
    func supersede() {
        var h = MachineHarness()
        h.prepared()
        let play = MachineHarness.waiter(h.feed { $0.play() })
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        let pause = MachineHarness.waiter(h.feed { $0.pause(position: .seconds(1)) })
        _ = h.take()
        // play() is done already; the pause completes when the pipeline is paused.
        #expect(play != pause)
        // The pipeline has not reported the pause yet: the play completes at once, and the
        // pipeline is told to play again (the pause is on its way).
        #expect(h.feed { $0.play() } == .success)
        #expect(h.take().actions == ["resume \(pause)", "play 1"])
        h.feed { $0.pipelineReached(session: 1, playing: false) }
        #expect(h.machine.playbackState == .playing)
    }

    @Test("pause on a prepared movie that has not started is paused at once")
    func pausePrepared() {
        var h = MachineHarness()
        h.prepared()
        #expect(h.feed { $0.pause(position: nil) } == .success)
        let (events, actions) = h.take()
        #expect(events == [.playbackStateChanged(.paused)])
        #expect(actions == ["pause 1"])
    }

    @Test("the end: stopped, playbackEnded, the pipeline kept paused; play starts again from the start")
    func playAfterEnd() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        let (events, actions) = h.take()
        #expect(events == [.playbackStateChanged(.stopped), .playbackDidFinish(.playbackEnded, nil)])
        #expect(actions == ["pause 1"])
        #expect(h.machine.atEnd)
        _ = h.feed { $0.play() }
        #expect(h.take().actions == ["seek 1 #101 to 0.000 s rate 1.0 exact", "play 1"])
        // A stop after the end adds no second finish event.
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        _ = h.take()
        h.feed { $0.stop() }
        #expect(!h.take().events.contains { $0.finish != nil })
    }

    @Test("an end well before the announced duration is a truncated movie")
    func truncated() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.endOfStream(session: 1, position: .seconds(4)) }
        #expect(h.machine.lastError?.code == .truncatedMovie)
        #expect(h.take().events.last?.finish?.0 == .playbackError)
    }

    @Test("repeat one: a looping segment restarts without a flush; EOS in a normal segment with a flush")
    func repeatOne() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.setRepeatMode(.one, position: .seconds(1)) }
        #expect(h.take().actions == ["seek 1 #101 to 1.000 s rate 1.0 exact looping until 10.000 s"])
        h.preroll()
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: 101, streamTime: .seconds(1), displaySize: VideoSize(width: 320, height: 240),
                facts: MachineHarness.facts)
        }
        _ = h.take()
        h.feed { $0.segmentDone(session: 1) }
        let (events, actions) = h.take()
        #expect(events == [.didLoop(1)])
        #expect(actions == ["seek 1 #102 to 0.000 s rate 1.0 exact no-flush looping until 10.000 s"])
        #expect(h.machine.inFlightSeek == nil)
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        #expect(h.take().events == [.didLoop(2)])
    }

    @Test("same direction: an instant rate change; reversing: a flushing seek; refused: the old rate back")
    func rates() {
        var h = MachineHarness()
        h.playing()
        #expect(h.feed { $0.setRate(2, position: .seconds(1)) } == .success)
        var (events, actions) = h.take()
        #expect(events == [.playbackRateChanged(2)])
        #expect(actions == ["instantRate 1 2.0"])
        let waiter = MachineHarness.waiter(h.feed { $0.setRate(-1, position: .seconds(2)) })
        (events, actions) = h.take()
        #expect(actions == ["seek 1 #101 to 2.000 s rate -1.0 exact"])
        h.feed { $0.seekRefused(session: 1, seqnum: 101) }
        (events, actions) = h.take()
        #expect(events == [.playbackRateChanged(2)])
        #expect(actions == ["resume \(waiter) unsupportedOperation"])
        #expect(h.machine.rate == 2)
        #expect(h.machine.segmentRate == 2)
    }

    @Test("no instant rate change while a seek is in flight: the rate rides on a queued seek")
    func rateDuringSeek() {
        var h = MachineHarness()
        h.playing()
        _ = h.feed { $0.seek(to: .seconds(5), exact: true) }
        _ = h.take()
        _ = h.feed { $0.setRate(2, position: nil) }
        #expect(!h.take().actions.contains { $0.hasPrefix("instantRate") })
        #expect(h.machine.queuedSeek?.plan.rate == 2)
    }

    @Test("a rate set before preparation is stored and applied by the preparation's seek")
    func rateBeforePreparation() {
        var h = MachineHarness()
        #expect(h.feed { $0.setRate(0.5, position: nil) } == .success)
        _ = h.feed { $0.prepare() }
        #expect(h.take().actions == ["build 1 holding"])
    }

    @Test("buffering below 100 % interrupts a playing movie; at 100 % it plays on")
    func buffering() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.buffering(session: 1, percent: 40, stats: BufferingStats()) }
        var (events, actions) = h.take()
        #expect(events == [.loadStateChanged([.playable, .stalled]), .playbackStateChanged(.interrupted)])
        #expect(actions == ["pause 1"])
        let keepingUp = BufferingStats(mode: .stream, averageIn: 500_000, averageOut: 250_000)
        h.feed { $0.buffering(session: 1, percent: 100, stats: keepingUp) }
        (events, actions) = h.take()
        #expect(events == [.loadStateChanged([.playable, .playthroughOK])])
        #expect(actions == ["useResumeThreshold 1", "play 1"])
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        #expect(h.machine.playbackState == .playing)
        // The resume threshold is switched to once.
        h.feed { $0.buffering(session: 1, percent: 10, stats: BufferingStats()) }
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        #expect(h.take().actions == ["pause 1", "play 1"])
    }

    @Test("a lost clock interrupts playback and restarts the pipeline's clock")
    func clockLost() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.clockLost(session: 1) }
        #expect(h.take().actions == ["restartClock 1"])
        #expect(h.machine.playbackState == .interrupted)
    }

    @Test("scanning: keyframes at rising rates, then back to the state and rate before")
    func scanning() {
        var h = MachineHarness()
        h.prepared()
        _ = h.feed { $0.pause(position: nil) }
        _ = h.take()
        #expect(throws: Never.self) { try h.feed { $0.beginScan(forward: true, position: .seconds(1)) }.get() }
        var (events, actions) = h.take()
        #expect(events == [.playbackStateChanged(.seekingForward)])
        #expect(actions == ["startScanTimer", "seek 1 #101 to 1.000 s rate 2.0 keyFramesOnly", "play 1"])
        // The pipeline playing does not make a scan "playing".
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        #expect(h.machine.playbackState == .seekingForward)
        h.preroll()
        h.feed { $0.scanTimerFired(position: .seconds(3)) }
        #expect(h.take().actions == ["seek 1 #102 to 3.000 s rate 4.0 keyFramesOnly"])
        h.feed { $0.endScan(position: .seconds(4)) }
        (events, actions) = h.take()
        #expect(events == [.playbackStateChanged(.paused)])
        // Queued behind the level's seek, which is still in flight.
        #expect(actions == ["cancelScanTimer", "pause 1"])
        #expect(h.machine.queuedSeek?.plan.rate == 1)
        #expect(h.machine.rate == 1)
    }

    @Test("scanning needs a prepared movie")
    func scanningUnprepared() {
        var h = MachineHarness()
        #expect(throws: MediaError.self) { try h.feed { $0.beginScan(forward: true, position: nil) }.get() }
    }
}
