import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The player's decisions about seeks: one in the pipeline at a time, coalescing, landing on
/// the first frame and the preroll in either order, refusals, deadlines.
@Suite("Player state machine: seeking")
struct PlayerMachineSeekingTests {
    @Test("a seek lands when both its first frame and its preroll have come, in either order")
    func landing() {
        for frameFirst in [true, false] {
            var h = MachineHarness.whilePlaying()
            let waiter = h.seek(to: .seconds(3), exact: true)
            #expect(h.takeAll().actions == [.seek(1, 101, to: .seconds(3)), .armSeekDeadline(1, 101)])
            if frameFirst { h.firstFrame(seqnum: 101, at: .milliseconds(3001)) } else { h.preroll() }
            #expect(h.take() == ([], []))
            if frameFirst { h.preroll() } else { h.firstFrame(seqnum: 101, at: .milliseconds(3001)) }
            #expect(
                h.takeAll() == (
                    [.seekCompleted(.milliseconds(3001))],
                    [.cancelSeekDeadline(1, 101), .resume(waiter: waiter, .success)]
                ))
            #expect(h.machine.lastPosition == .milliseconds(3001))
        }
    }

    @Test("an ASYNC_DONE before the seek's marker (a pause's late preroll) is not the seek's")
    func staleAsyncDone() {
        var h = MachineHarness.whilePlaying()
        _ = h.feed { $0.pause(position: .seconds(1)) }
        h.seek(to: .seconds(3), exact: true)
        _ = h.take()
        // The pause's preroll, posted before the seek was sent.
        h.asyncDone()
        h.firstFrame(seqnum: 101, at: .seconds(3))
        #expect(h.machine.inFlightSeek != nil, "landed on an ASYNC_DONE that was not the seek's")
        h.preroll()
        #expect(h.take().events.contains(.seekCompleted(.seconds(3))))
    }

    @Test("a pause's preroll that comes after the seek's marker does not land the seek before its frame is in the sink")
    func staleAsyncDoneAfterMarker() {
        var h = MachineHarness.whilePlaying()
        _ = h.feed { $0.pause(position: .seconds(1)) }
        h.seek(to: .seconds(3), exact: true)
        _ = h.take()
        // The pause's preroll (a frame from before the seek), posted once the seek was sent.
        h.preroll()
        // The seek's frame enters the video output; the sink has not prerolled it yet.
        h.firstFrame(seqnum: 101, at: .seconds(3))
        #expect(h.machine.inFlightSeek != nil, "landed on the pause's ASYNC_DONE")
        // The seek's own ASYNC_DONE: the sink holds its frame.
        h.asyncDone()
        #expect(h.take().events.contains(.seekCompleted(.seconds(3))))
        #expect(h.machine.inFlightSeek == nil)
    }

    @Test("a frame of an older segment does not land a seek")
    func olderFrame() {
        var h = MachineHarness.whilePlaying()
        h.seek(to: .seconds(3), exact: true)
        h.firstFrame(seqnum: 7, at: .seconds(1))
        h.preroll()
        #expect(h.machine.inFlightSeek != nil)
        #expect(!h.take().events.contains(.seekCompleted(.seconds(1))))
    }

    @Test("seeks during a seek coalesce: only the newest is sent next, and every waiter completes with it")
    func coalescing() {
        var h = MachineHarness.whilePlaying()
        let first = h.seek(to: .seconds(1), exact: true)
        let second = h.seek(to: .seconds(2), exact: true)
        h.feed { $0.requestSeek(to: .seconds(3)) }
        let fourth = h.seek(to: .seconds(4), exact: false)
        #expect(h.take().actions == [.seek(1, 101, to: .seconds(1))])
        h.landSeek(at: .seconds(1))
        // The newest is a keyframe seek: the movie's keyframes are read first (its source knows none).
        #expect(
            h.take() == (
                [.seekCompleted(.seconds(1))],
                [.readKeyframeTimes(session: 1, epoch: 0, source: .named("file:///a.mp4"))]
            ))
        h.keyframesRead(nil)
        #expect(h.take().actions == [.seek(1, 102, to: .seconds(4), .keyFrame)])
        h.landSeek(at: .seconds(4))
        #expect(
            h.take() == (
                [.seekCompleted(.seconds(4))],
                [
                    .resume(waiter: first, .success), .resume(waiter: second, .success),
                    .resume(waiter: fourth, .success),
                ]
            ))
    }

    @Test("a refused seek fails its waiters and restores the segment; during preparation it fails the movie")
    func refused() {
        var h = MachineHarness.whilePlaying()
        let waiter = h.seek(to: .seconds(1), exact: true)
        let queued = h.seek(to: .seconds(2), exact: true)
        _ = h.take()
        h.feed { $0.seekRefused(session: 1, seqnum: 101) }
        #expect(
            h.takeAll().actions == [
                .cancelSeekDeadline(1, 101), .resume(waiter: waiter, .failed(.pipelineFailure)),
                .resume(waiter: queued, .failed(.pipelineFailure)),
            ])
        #expect(h.machine.queuedSeek == nil)
        #expect(h.machine.phase == .prepared)

        var p = MachineHarness()
        p.feed { $0.setRepeatMode(.one, position: nil) }
        let preparation = p.preparing()
        p.preroll()
        p.feed { $0.seekRefused(session: 1, seqnum: 101) }
        #expect(p.machine.phase == .idle)
        #expect(p.take().actions.contains(.resume(waiter: preparation, .failed(.pipelineFailure))))
    }

    @Test("seeking needs a prepared movie; positions are kept inside the movie and the range")
    func bounds() {
        var h = MachineHarness()
        #expect(h.feed { $0.seek(to: .seconds(1), exact: true) } == .done(.failure(.coded(.notPrepared))))
        h.prepared()
        h.seek(to: .seconds(60), exact: true)
        #expect(h.take().actions == [.seek(1, 101, to: .seconds(10))])
    }

    @Test("a seek to the end of an audio-only movie lands on its preroll, with no frame")
    func audioOnly() {
        var h = MachineHarness()
        h.playing(facts: PlayerMachine.PipelineFacts(position: .zero, duration: .seconds(10), mediaTypes: [.audio]))
        h.seek(to: .seconds(5), exact: true)
        _ = h.take()
        h.preroll(facts: PlayerMachine.PipelineFacts(position: .seconds(5), duration: nil, mediaTypes: []))
        #expect(h.take().events == [.seekCompleted(.seconds(5))])
    }

    @Test("a seek that runs into the end lands with the end of the movie")
    func seekPastEnd() {
        var h = MachineHarness.whilePlaying()
        let waiter = h.seek(to: .milliseconds(9_900), exact: true)
        _ = h.take()
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        let (events, actions) = h.takeAll()
        #expect(events.last?.finish?.0 == .playbackEnded)
        #expect(actions.contains(.resume(waiter: waiter, .success)))
        #expect(actions.contains(.cancelSeekDeadline(1, 101)))
    }

    @Test("a waiting seek whose task is cancelled fails with cancelled; the seek goes on")
    func cancelled() {
        var h = MachineHarness.whilePlaying()
        let waiter = h.seek(to: .seconds(1), exact: true)
        _ = h.take()
        h.feed { $0.cancelWaiter(waiter) }
        #expect(h.takeAll().actions == [.resume(waiter: waiter, .failed(.cancelled))])
        #expect(h.machine.inFlightSeek != nil)
    }

    @Test("messages of a stopped pipeline change nothing")
    func stale() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.stop() }
        _ = h.feed { $0.prepare() }
        h.built(2)
        _ = h.takeAll()
        h.asyncDone(1)
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        h.feed { $0.buffering(session: 1, percent: 10, stats: BufferingStats()) }
        #expect(h.takeAll() == ([], []))
        #expect(h.machine.phase == .preparing)
    }

    @Test("a seek's first frame and the ASYNC_DONE after it need no pipeline queries; one that brought no frame does")
    func factsOnlyWhenNeeded() {
        var h = MachineHarness()
        h.preparing()
        #expect(h.machine.needsFacts(session: 1) && h.machine.needsFacts(session: 1, firstFrame: true), "preparing")
        h.firstFrame()
        h.asyncDone()
        h.seek(to: .seconds(3), exact: true)
        let seqnum = h.seqnum
        #expect(!h.machine.needsFacts(session: 1, firstFrame: true), "a first frame lands at its own time")
        #expect(h.machine.needsFacts(session: 1), "an ASYNC_DONE before any frame may land at the position")
        h.feed { $0.seekMarkerArrived(session: 1, seqnum: seqnum) }
        h.firstFrame(seqnum: seqnum, at: .seconds(2), facts: PlayerMachine.PipelineFacts())
        #expect(!h.machine.needsFacts(session: 1))
        h.asyncDone(facts: PlayerMachine.PipelineFacts())
        #expect(h.take().events.contains(.seekCompleted(.seconds(2))))
    }

    @Test("a seek past its deadline: prerolled without its frame it lands, never prerolled it fails the movie")
    func seekDeadline() {
        // Prerolled, but no frame from the new position (a damaged MPEG-TS or MP4 there).
        var h = MachineHarness.whilePlaying()
        let waiter = h.seek(to: .seconds(3), exact: true)
        let seqnum = h.seqnum
        h.preroll()
        #expect(h.machine.inFlightSeek != nil, "an ASYNC_DONE without the frame waits for it")
        _ = h.take()
        h.feed { $0.timerFired(.seekDeadline(session: 1, seqnum: seqnum &- 1), facts: .init(position: .seconds(2))) }
        #expect(h.machine.inFlightSeek != nil, "another seek's deadline changed nothing")
        h.fire(.seekDeadline(session: 1, seqnum: seqnum), position: .seconds(2), duration: .seconds(10))
        #expect(h.machine.inFlightSeek == nil)
        #expect(h.take() == ([.seekCompleted(.seconds(2))], [.resume(waiter: waiter, .success)]))

        // Never prerolled again (matroskademux found nothing to push at the new position).
        var stuck = MachineHarness.whilePlaying()
        let stuckWaiter = stuck.seek(to: .seconds(3), exact: true)
        let stuckSeqnum = stuck.seqnum
        _ = stuck.take()
        stuck.fire(.seekDeadline(session: 1, seqnum: stuckSeqnum), position: .seconds(2))
        let (stuckEvents, stuckActions) = stuck.take()
        #expect(stuckActions == [.close(session: 1), .resume(waiter: stuckWaiter, .failed(.timedOut))])
        #expect(
            stuckEvents.contains {
                if case .playbackDidFinish(.playbackError, let error?) = $0 { error.code == .timedOut } else { false }
            })

        // A deadline after the seek landed was cancelled: the owner never fires it, and a firing
        // that raced with the landing changes nothing.
        var landed = MachineHarness.whilePlaying()
        landed.seek(to: .seconds(3), exact: true)
        let landedSeqnum = landed.seqnum
        landed.firstFrame(seqnum: landedSeqnum, at: .seconds(3))
        landed.preroll()
        _ = landed.take()
        #expect(!landed.isArmed(.seekDeadline(session: 1, seqnum: landedSeqnum)))
        #expect(!landed.machine.needsFacts(for: .seekDeadline(session: 1, seqnum: landedSeqnum)))
        landed.feed { $0.timerFired(.seekDeadline(session: 1, seqnum: landedSeqnum)) }
        #expect(landed.takeAll() == ([], []))
    }

    @Test("seek grace: an ASYNC_DONE that prerolls a seek without its frame gives the frame a second, not 30")
    func seekGrace() {
        var h = MachineHarness.whilePlaying()
        h.seek(to: .seconds(3), exact: true)
        _ = h.takeAll()
        h.preroll()
        #expect(h.takeAll() == ([], [.armSeekDeadline(1, 101, after: PlayerMachine.seekFrameGrace)]))
        // The frame within the grace lands the seek at its own time.
        h.firstFrame(seqnum: 101, at: .milliseconds(3040))
        #expect(h.take().events == [.seekCompleted(.milliseconds(3040))])
        #expect(!h.isArmed(.seekDeadline(session: 1, seqnum: 101)))

        // Frame first: the preroll lands it at once, with no grace.
        var framed = MachineHarness.whilePlaying()
        framed.seek(to: .seconds(3), exact: true)
        framed.firstFrame(seqnum: 101, at: .seconds(3))
        _ = framed.takeAll()
        framed.preroll()
        #expect(!framed.takeAll().actions.contains(.armSeekDeadline(1, 101, after: PlayerMachine.seekFrameGrace)))

        // An ASYNC_DONE before the seek's marker (an earlier state change's) starts no grace.
        var early = MachineHarness.whilePlaying()
        early.seek(to: .seconds(3), exact: true)
        _ = early.takeAll()
        early.asyncDone()
        #expect(early.takeAll() == ([], []))
        #expect(early.timers[.seekDeadline(session: 1, seqnum: 101)]?.after == .seconds(30))
    }
}

/// What the machine does not get right yet, each shown by a test that fails in `withKnownIssue`
/// (so the suite passes, and tells when a fix makes the issue go away).
@Suite("Player state machine: a seek landing on its grace")
struct PlayerMachineSeekGraceTests {
    @Test("a preparation's seek that lands on its frame grace prepares the movie with the tracks its preroll read")
    func preparationSeekLandsOnGrace() {
        let english = MediaTrack(kind: .audio, index: 0, languageCode: "en", codec: nil, title: nil, isDefault: true)
        var facts = MachineHarness.facts
        facts.audioTracks = [english]
        facts.truncation = MovieTruncation(playableDuration: .seconds(5), duration: .seconds(10))
        var h = MachineHarness()
        h.feed { $0.setPlaybackRange(initial: .seconds(2), end: nil, position: nil) }
        h.preparing()
        h.feed { $0.firstFrameHeld(session: 1) }
        // The preroll after the seek reads the tracks; the seek's frame does not come.
        h.preroll(facts: facts)
        h.fire(
            .seekDeadline(session: 1, seqnum: 101), position: .seconds(2), duration: .seconds(10),
            mediaTypes: [.video, .audio])
        #expect(h.machine.phase == .prepared)
        // The tracks and truncation the ASYNC_DONE brought, kept with the seek it prerolled.
        #expect(h.machine.audioTracks == [english])
        #expect(h.machine.truncation != nil)
    }
}

/// Keyframe seeks: made exact, to the video keyframe at or before their position, from the
/// keyframes the source reads (once per movie, asked for with an action).
@Suite("Player state machine: keyframe seeks")
struct PlayerMachineKeyframeTests {
    static let times: [Duration] = [.zero, .seconds(2), .seconds(4), .seconds(6)]
    static let read = PlayerMachine.Action.readKeyframeTimes(session: 1, epoch: 0, source: .named("file:///a.mp4"))

    @Test(
        "the first forward keyframe seek asks for the keyframes; the answer sends it, exact, to the keyframe at or before"
    )
    func snapped() {
        var h = MachineHarness.whilePlaying()
        let waiter = h.seek(to: .milliseconds(4500), exact: false)
        #expect(h.takeAll() == ([], [Self.read]), "nothing is sent, and no deadline runs, before the answer")
        h.keyframesRead(Self.times)
        #expect(h.takeAll().actions == [.seek(1, 101, to: .seconds(4)), .armSeekDeadline(1, 101)])
        h.landSeek(at: .seconds(4))
        #expect(h.take().actions == [.resume(waiter: waiter, .success)])
        // Known now: the next one goes at once.
        h.seek(to: .seconds(7), exact: false)
        #expect(h.take().actions == [.seek(1, 102, to: .seconds(6))])
    }

    @Test(
        "before the first keyframe: the first keyframe; a source that cannot tell: the seek as asked, and not asked again"
    )
    func firstAndUnknown() {
        var h = MachineHarness.whilePlaying()
        h.seek(to: .milliseconds(500), exact: false)
        h.keyframesRead([.seconds(1), .seconds(3)])
        #expect(h.take().actions == [Self.read, .seek(1, 101, to: .seconds(1))])

        var unknown = MachineHarness.whilePlaying()
        unknown.seek(to: .seconds(3), exact: false)
        unknown.keyframesRead(nil)
        #expect(unknown.take().actions == [Self.read, .seek(1, 101, to: .seconds(3), .keyFrame)])
        unknown.landSeek(at: .seconds(2))
        _ = unknown.take()
        unknown.seek(to: .seconds(5), exact: false)
        #expect(unknown.take().actions == [.seek(1, 102, to: .seconds(5), .keyFrame)])
    }

    @Test("a keyframe at or after the range's end is no place to start: the seek goes as asked")
    func pastTheRange() {
        let plan = SeekPlan(position: .seconds(5), rate: 1, accuracy: .keyFrame, rangeEnd: .seconds(5))
        #expect(PlayerMachine.State.keyframeSnapped(plan, times: [.zero, .seconds(5)]) == nil)
        var inside = plan
        inside.rangeEnd = .seconds(8)
        #expect(PlayerMachine.State.keyframeSnapped(inside, times: [.zero, .seconds(5)])?.position == .seconds(5))
    }

    @Test("with workaround keyunit-seek-snap off, a keyframe seek goes as asked and asks for nothing")
    func withoutWorkaround() {
        var h = MachineHarness(workarounds: PlayerMachine.Workarounds(snapsKeyframeSeeks: false))
        h.playing()
        _ = h.takeAll()
        h.seek(to: .milliseconds(4500), exact: false)
        #expect(
            h.takeAll().actions == [
                .seek(1, 101, to: .milliseconds(4500), rate: 1, .keyFrame), .armSeekDeadline(1, 101),
            ])
    }

    @Test("exact, keyframes-only and backward seeks are never snapped, and ask for nothing")
    func notSnapped() {
        let times = Self.times
        for plan in [
            SeekPlan(position: .seconds(3), rate: 1, accuracy: .exact),
            SeekPlan(position: .seconds(3), rate: 2, accuracy: .keyFramesOnly),
            SeekPlan(position: .seconds(3), rate: -1, accuracy: .keyFrame),
        ] {
            #expect(PlayerMachine.State.keyframeSnapped(plan, times: times) == nil, "\(plan)")
        }
        var h = MachineHarness.whilePlaying()
        _ = h.feed { $0.setRate(-1, position: .seconds(5)) }
        h.landSeek(at: .seconds(5))
        _ = h.take()
        h.seek(to: .seconds(3), exact: false)
        #expect(h.take().actions == [.seek(1, 102, to: .seconds(3), rate: -1, .keyFrame)])
    }

    @Test(
        "keyframes read for an earlier movie are not this one's: the answer changes nothing, and the new movie asks again"
    )
    func anotherMovie() {
        var h = MachineHarness.whilePlaying()
        h.seek(to: .seconds(3), exact: false)
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        _ = h.take()
        h.keyframesRead(Self.times)
        #expect(h.takeAll() == ([], []))
        #expect(h.machine.movie.keyframes == nil)
    }
}
