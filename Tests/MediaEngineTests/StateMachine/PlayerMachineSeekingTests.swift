import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The player's decisions about seeks: one in the pipeline at a time, coalescing, landing on
/// the first frame and the preroll in either order, refusals.
@Suite("Player state machine: seeking")
struct PlayerMachineSeekingTests {
    static let size = VideoSize(width: 320, height: 240)

    @Test("a seek lands when both its first frame and its preroll have come, in either order")
    func landing() {
        for frameFirst in [true, false] {
            var h = MachineHarness()
            h.playing()
            let waiter = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(3), exact: true) })
            #expect(h.take().actions == ["seek 1 #101 to 3.000 s rate 1.0 exact"])
            let frame: (inout PlayerMachine) -> Void = {
                $0.firstFrameArrived(
                    session: 1, seqnum: 101, streamTime: .milliseconds(3001), displaySize: Self.size,
                    facts: MachineHarness.facts)
            }
            if frameFirst { h.feed(frame) } else { h.preroll() }
            #expect(h.take().actions.isEmpty)
            if frameFirst { h.preroll() } else { h.feed(frame) }
            let (events, actions) = h.take()
            #expect(events == [.seekCompleted(.milliseconds(3001))])
            #expect(actions == ["resume \(waiter)"])
            #expect(h.machine.lastPosition == .milliseconds(3001))
        }
    }

    @Test("an ASYNC_DONE before the seek's marker (a pause's late preroll) is not the seek's")
    func staleAsyncDone() {
        var h = MachineHarness()
        h.playing()
        _ = h.feed { $0.pause(position: .seconds(1)) }
        _ = h.feed { $0.seek(to: .seconds(3), exact: true) }
        _ = h.take()
        // The pause's preroll, posted before the seek was sent.
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: 101, streamTime: .seconds(3), displaySize: Self.size, facts: MachineHarness.facts)
        }
        #expect(h.machine.inFlightSeek != nil, "landed on an ASYNC_DONE that was not the seek's")
        h.preroll()
        #expect(h.take().events.contains(.seekCompleted(.seconds(3))))
    }

    @Test("a frame of an older segment does not land a seek")
    func olderFrame() {
        var h = MachineHarness()
        h.playing()
        _ = h.feed { $0.seek(to: .seconds(3), exact: true) }
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: 7, streamTime: .seconds(1), displaySize: Self.size, facts: MachineHarness.facts)
        }
        h.preroll()
        #expect(h.machine.inFlightSeek != nil)
        #expect(!h.take().events.contains(.seekCompleted(.seconds(1))))
    }

    @Test("seeks during a seek coalesce: only the newest is sent next, and every waiter completes with it")
    func coalescing() {
        var h = MachineHarness()
        h.playing()
        let first = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(1), exact: true) })
        let second = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(2), exact: true) })
        h.feed { $0.requestSeek(to: .seconds(3)) }
        let fourth = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(4), exact: false) })
        #expect(h.take().actions == ["seek 1 #101 to 1.000 s rate 1.0 exact"])
        h.preroll()
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: 101, streamTime: .seconds(1), displaySize: Self.size, facts: MachineHarness.facts)
        }
        var (events, actions) = h.take()
        #expect(events == [.seekCompleted(.seconds(1))])
        #expect(actions == ["seek 1 #102 to 4.000 s rate 1.0 keyFrame"])
        h.preroll()
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: 102, streamTime: .seconds(4), displaySize: Self.size, facts: MachineHarness.facts)
        }
        (events, actions) = h.take()
        #expect(events == [.seekCompleted(.seconds(4))])
        #expect(actions == ["resume \(first)", "resume \(second)", "resume \(fourth)"])
    }

    @Test("a refused seek fails its waiters and restores the segment; during preparation it fails the movie")
    func refused() {
        var h = MachineHarness()
        h.playing()
        let waiter = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(1), exact: true) })
        _ = h.feed { $0.seek(to: .seconds(2), exact: true) }
        _ = h.take()
        h.feed { $0.seekRefused(session: 1, seqnum: 101) }
        #expect(h.take().actions == ["resume \(waiter) pipelineFailure", "resume \(waiter + 1) pipelineFailure"])
        #expect(h.machine.queuedSeek == nil)
        #expect(h.machine.phase == .prepared)

        var p = MachineHarness()
        p.feed { $0.repeatMode = .one }
        let preparation = MachineHarness.waiter(p.feed { $0.prepare() })
        p.feed { _ = $0.pipelineBuilt(session: 1) }
        p.preroll()
        p.feed { $0.seekRefused(session: 1, seqnum: 101) }
        #expect(p.machine.phase == .idle)
        #expect(p.take().actions.contains("resume \(preparation) pipelineFailure"))
    }

    @Test("seeking needs a prepared movie; positions are kept inside the movie and the range")
    func bounds() {
        var h = MachineHarness()
        #expect(h.feed { $0.seek(to: .seconds(1), exact: true) } == .done(.failure(MediaError(.notPrepared, ""))))
        h.prepared()
        _ = h.feed { $0.seek(to: .seconds(60), exact: true) }
        #expect(h.take().actions == ["seek 1 #101 to 10.000 s rate 1.0 exact"])
    }

    @Test("a seek to the end of an audio-only movie lands on its preroll, with no frame")
    func audioOnly() {
        var h = MachineHarness()
        h.playing(facts: PlayerMachine.PipelineFacts(position: .zero, duration: .seconds(10), mediaTypes: [.audio]))
        _ = h.feed { $0.seek(to: .seconds(5), exact: true) }
        _ = h.take()
        h.preroll(facts: PlayerMachine.PipelineFacts(position: .seconds(5), duration: nil, mediaTypes: []))
        #expect(h.take().events == [.seekCompleted(.seconds(5))])
    }

    @Test("a seek that runs into the end lands with the end of the movie")
    func seekPastEnd() {
        var h = MachineHarness()
        h.playing()
        let waiter = MachineHarness.waiter(h.feed { $0.seek(to: .milliseconds(9_900), exact: true) })
        _ = h.take()
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        let (events, actions) = h.take()
        #expect(events.last?.finish?.0 == .playbackEnded)
        #expect(actions.contains("resume \(waiter)"))
    }

    @Test("a waiting seek whose task is cancelled fails with cancelled; the seek goes on")
    func cancelled() {
        var h = MachineHarness()
        h.playing()
        let waiter = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(1), exact: true) })
        _ = h.take()
        h.feed { $0.cancelWaiter(waiter) }
        #expect(h.take().actions == ["resume \(waiter) cancelled"])
        #expect(h.machine.inFlightSeek != nil)
    }

    @Test("messages of a stopped pipeline change nothing")
    func stale() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.stop() }
        _ = h.feed { $0.prepare() }
        h.feed { _ = $0.pipelineBuilt(session: 2) }
        _ = h.take()
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        h.feed { $0.buffering(session: 1, percent: 10, stats: BufferingStats()) }
        let (events, actions) = h.take()
        #expect(events.isEmpty)
        #expect(actions.isEmpty)
        #expect(h.machine.phase == .preparing)
    }

    @Test("a seek's first frame and the ASYNC_DONE after it need no pipeline queries; one that brought no frame does")
    func factsOnlyWhenNeeded() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        #expect(h.machine.needsFacts(session: 1) && h.machine.needsFacts(session: 1, firstFrame: true), "preparing")
        h.prepared()
        _ = h.feed { $0.seek(to: .seconds(3), exact: false) }
        let seqnum = h.machine.inFlightSeek?.seqnum ?? 0
        #expect(!h.machine.needsFacts(session: 1, firstFrame: true), "a first frame lands at its own time")
        #expect(h.machine.needsFacts(session: 1), "an ASYNC_DONE before any frame may land at the position")
        h.feed { $0.seekMarkerArrived(session: 1, seqnum: seqnum) }
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: seqnum, streamTime: .seconds(2), displaySize: VideoSize(width: 320, height: 240),
                facts: PlayerMachine.PipelineFacts())
        }
        #expect(!h.machine.needsFacts(session: 1))
        h.feed { $0.asyncDone(session: 1, facts: PlayerMachine.PipelineFacts()) }
        #expect(h.take().events.contains(.seekCompleted(.seconds(2))))
    }

    @Test("a seek past its deadline: prerolled without its frame it lands, never prerolled it fails the movie")
    func seekDeadline() {
        // Prerolled, but no frame from the new position (a damaged MPEG-TS or MP4 there).
        var h = MachineHarness()
        h.playing()
        let waiter = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(3), exact: true) })
        let seqnum = h.seqnum
        h.preroll()
        #expect(h.machine.inFlightSeek != nil, "an ASYNC_DONE without the frame waits for it")
        _ = h.take()
        var facts = MachineHarness.facts
        facts.position = .seconds(2)
        h.feed { $0.seekDeadlinePassed(session: 1, seqnum: seqnum &- 1, after: .seconds(30), facts: facts) }
        #expect(h.machine.inFlightSeek != nil, "another seek's deadline changed nothing")
        h.feed { $0.seekDeadlinePassed(session: 1, seqnum: seqnum, after: .seconds(30), facts: facts) }
        let (events, actions) = h.take()
        #expect(h.machine.inFlightSeek == nil)
        #expect(events.contains(.seekCompleted(.seconds(2))))
        #expect(actions == ["resume \(waiter)"])

        // Never prerolled again (matroskademux found nothing to push at the new position).
        var stuck = MachineHarness()
        stuck.playing()
        let stuckWaiter = MachineHarness.waiter(stuck.feed { $0.seek(to: .seconds(3), exact: true) })
        let stuckSeqnum = stuck.seqnum
        _ = stuck.take()
        stuck.feed { $0.seekDeadlinePassed(session: 1, seqnum: stuckSeqnum, after: .seconds(30), facts: facts) }
        let (stuckEvents, stuckActions) = stuck.take()
        #expect(stuckActions.contains("resume \(stuckWaiter) timedOut"))
        #expect(stuckActions.contains("close 1"))
        #expect(
            stuckEvents.contains {
                if case .playbackDidFinish(.playbackError, let error?) = $0 { error.code == .timedOut } else { false }
            })
        // A deadline after the seek landed changes nothing.
        var landed = MachineHarness()
        landed.playing()
        _ = landed.feed { $0.seek(to: .seconds(3), exact: true) }
        let landedSeqnum = landed.seqnum
        landed.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: landedSeqnum, streamTime: .seconds(3), displaySize: Self.size,
                facts: MachineHarness.facts)
        }
        landed.preroll()
        _ = landed.take()
        landed.feed { $0.seekDeadlinePassed(session: 1, seqnum: landedSeqnum, after: .seconds(30), facts: facts) }
        #expect(landed.take().actions.isEmpty)
    }
}
