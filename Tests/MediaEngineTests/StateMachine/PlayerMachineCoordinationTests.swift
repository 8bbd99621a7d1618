import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// A player in a playback group, fed by hand: the group's clock readings are made-up values, as
/// the owner would read them when the machine asks (``PlayerMachine/Action/readGroupClock``).
@Suite("Player state machine: playing in a group")
struct PlayerMachineCoordinationTests {
    static let latency = Duration.milliseconds(50)
    static let joinLead = Duration.milliseconds(500)

    /// A grouped harness whose movie is prepared (paused on its first frame, not started), its
    /// output forgotten.
    static func preparedMember() -> MachineHarness {
        var h = MachineHarness()
        h.feed { $0.joinGroup(latency: latency, joinLead: joinLead) }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        h.prepared()
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        _ = h.takeAll()
        return h
    }

    /// A grouped harness playing the timeline `1x from 0 at 101 s`, at group time 101 s.
    static func playingMember() -> MachineHarness {
        var h = preparedMember()
        h.feed { $0.followGroup(PlaybackTimeline(position: .zero, time: .seconds(101), rate: 1), accuracy: .exact) }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        h.landSeek(at: .zero)
        h.feed { $0.groupClockRead(now: .milliseconds(100_100)) }
        h.reached(playing: true)
        _ = h.takeAll()
        return h
    }

    @Test("joining puts the current pipeline on the group's clock, arms the health checks and reads the clock")
    func join() {
        var h = MachineHarness()
        h.prepared()
        h.feed { $0.joinGroup(latency: Self.latency, joinLead: Self.joinLead) }
        #expect(
            h.takeAll().actions == [
                .useGroupClock(session: 1, latency: Self.latency),
                .startTimer(.groupHealth, after: .seconds(1), repeating: .seconds(1)), .readGroupClock,
            ])
        // Without a timeline yet, the clock's reading changes nothing.
        h.feed { $0.groupClockRead(now: .seconds(5)) }
        #expect(h.takeAll() == ([], []))
    }

    @Test("a grouped player prepares paused whatever shouldAutoplay says, and its new pipelines use the group clock")
    func preparesPaused() {
        var h = MachineHarness(autoplay: true)
        h.feed { $0.joinGroup(latency: Self.latency, joinLead: Self.joinLead) }
        _ = h.takeAll()
        _ = h.feed { $0.prepare() }
        h.built()
        #expect(h.take().actions.contains(.useGroupClock(session: 1, latency: Self.latency)))
        h.firstFrame()
        h.asyncDone()
        let actions = h.take().actions
        #expect(!actions.contains(.play(session: 1)), "no autoplay: the group says when")
        #expect(actions.last == .readGroupClock)
        #expect(h.machine.phase == .prepared)
    }

    @Test("the app's own play, pause, seek, rate and scan are refused while grouped, and accepted after leaving")
    func localCommandsRefused() {
        var h = Self.preparedMember()
        let refused = PlayerMachine.Wait.done(.failure(.coded(.unsupportedOperation)))
        #expect(h.feed { $0.play() } == refused)
        #expect(h.feed { $0.pause(position: nil) } == refused)
        #expect(h.feed { $0.seek(to: .seconds(1), exact: true) } == refused)
        #expect(h.feed { $0.setRate(2, position: nil) } == refused)
        #expect(throws: MediaError.self) { try h.feed { $0.beginScan(forward: true, position: nil) }.get() }
        h.feed { $0.requestSeek(to: .seconds(2)) }
        #expect(h.takeAll() == ([], []))
        h.feed { $0.leaveGroup() }
        #expect(
            h.takeAll().actions == [
                .cancelTimer(.groupHealth), .cancelTimer(.groupPause(generation: 0)),
                .cancelTimer(.groupStop(generation: 0)), .leaveGroupClock(session: 1),
            ])
        #expect(h.feed { $0.seek(to: .seconds(1), exact: true) } != refused)
    }

    @Test("play from P at a future T: seek to P at the rate, then base time T - latency and play once it landed")
    func playOnTime() {
        var h = Self.preparedMember()
        let timeline = PlaybackTimeline(position: .seconds(3), time: .seconds(101), rate: 1)
        h.feed { $0.followGroup(timeline, accuracy: .exact) }
        #expect(h.take().actions == [.readGroupClock])
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        #expect(h.take().actions == [.seek(1, 101, to: .seconds(3))])
        h.landSeek(at: .seconds(3))
        let (events, actions) = h.take()
        #expect(events == [.seekCompleted(.seconds(3))])
        #expect(actions == [.readGroupClock], "the start waits for a reading of the clock")
        h.feed { $0.groupClockRead(now: .milliseconds(100_200)) }
        #expect(h.take().actions == [.setBaseTime(session: 1, .seconds(101) - Self.latency), .play(session: 1)])
        h.reached(playing: true)
        #expect(h.machine.playbackState == .playing)
        // The same timeline again (the group's state, sent again) changes nothing.
        h.feed { $0.followGroup(timeline, accuracy: .exact) }
        h.feed { $0.groupClockRead(now: .milliseconds(101_500)) }
        #expect(h.take().actions == [.readGroupClock])
    }

    @Test("a rate in the timeline goes in with the seek, and is the player's rate")
    func playAtRate() {
        var h = Self.preparedMember()
        h.feed {
            $0.followGroup(PlaybackTimeline(position: .seconds(2), time: .seconds(101), rate: 2), accuracy: .exact)
        }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        let (events, actions) = h.take()
        #expect(events == [.playbackRateChanged(2)])
        #expect(actions == [.readGroupClock, .seek(1, 101, to: .seconds(2), rate: 2)])
    }

    @Test("a late join: T has passed, so the member starts joinLead ahead of the clock, where the timeline is then")
    func lateJoin() {
        var h = Self.preparedMember()
        // The group has played since 95 s from position 0.
        h.feed { $0.followGroup(PlaybackTimeline(position: .zero, time: .seconds(95), rate: 1), accuracy: .keyFrame) }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        // Exact, whatever the group's accuracy: the member must land on the group's frame.
        #expect(h.take().actions == [.readGroupClock, .seek(1, 101, to: .milliseconds(5_500))])
        h.landSeek(at: .milliseconds(5_500))
        _ = h.take()
        h.feed { $0.groupClockRead(now: .milliseconds(100_300)) }
        #expect(
            h.take().actions == [.setBaseTime(session: 1, .milliseconds(100_500) - Self.latency), .play(session: 1)])
    }

    @Test("a start that lands too late plans again with twice the lead, and plays late after the last attempt")
    func lateLanding() {
        var h = Self.preparedMember()
        h.feed { $0.followGroup(PlaybackTimeline(position: .zero, time: .seconds(101), rate: 1), accuracy: .exact) }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        h.landSeek(at: .zero)
        _ = h.take()
        // Landed 400 ms after its time: more than the tolerance.
        h.feed { $0.groupClockRead(now: .milliseconds(101_400)) }
        #expect(h.take().actions == [.seek(1, 102, to: .milliseconds(1_400))], "0.4 s + 1 s of lead (2 x 0.5)")
        // Each later plan lands half a second after its own time, too late again.
        var planned = Duration.milliseconds(102_400)
        for attempt in 2...PlayerMachine.maximumStartAttempts {
            h.landSeek(at: .zero)
            _ = h.take()
            let now = planned + .milliseconds(500)
            h.feed { $0.groupClockRead(now: now) }
            let lead = Self.joinLead * (1 << attempt)
            planned = now + lead
            let seek = h.take().actions
            #expect(seek.count == 1, "attempt \(attempt): \(seek)")
            if case .seek(_, let plan, _) = seek.first {
                #expect(plan.position == planned - .seconds(101), "attempt \(attempt)")
            }
        }
        h.landSeek(at: .zero)
        _ = h.take()
        h.feed { $0.groupClockRead(now: planned + .milliseconds(500)) }
        let actions = h.take().actions
        #expect(actions.last == .play(session: 1), "after the last attempt it plays, late")
    }

    @Test("pause at a future T: the member plays on until its timer, then pauses and seeks exactly to P")
    func pauseLater() {
        var h = Self.playingMember()
        h.feed {
            $0.followGroup(PlaybackTimeline(position: .seconds(4), time: .seconds(105), rate: 0), accuracy: .exact)
        }
        h.feed { $0.groupClockRead(now: .milliseconds(104_700)) }
        #expect(
            h.takeAll().actions == [
                .readGroupClock, .cancelTimer(.groupPause(generation: 1)),
                .startTimer(.groupPause(generation: 2), after: .milliseconds(300)),
            ])
        h.fire(.groupPause(generation: 2))
        #expect(h.take().actions == [.pause(session: 1), .seek(1, 102, to: .seconds(4))])
        h.reached(playing: false)
        h.landSeek(at: .seconds(4))
        #expect(h.machine.playbackState == .paused)
        #expect(h.take().actions.isEmpty, "a paused seek plans no start")
    }

    @Test("a pause whose time has passed, or that finds the member not playing, pauses and seeks at once")
    func pauseNow() {
        var h = Self.playingMember()
        h.feed {
            $0.followGroup(PlaybackTimeline(position: .seconds(4), time: .seconds(105), rate: 0), accuracy: .exact)
        }
        h.feed { $0.groupClockRead(now: .milliseconds(105_010)) }
        #expect(h.take().actions == [.readGroupClock, .pause(session: 1), .seek(1, 102, to: .seconds(4))])

        var prepared = Self.preparedMember()
        prepared.feed {
            $0.followGroup(PlaybackTimeline(position: .seconds(1), time: .seconds(105), rate: 0), accuracy: .exact)
        }
        prepared.feed { $0.groupClockRead(now: .seconds(100)) }
        let (events, actions) = prepared.take()
        #expect(events == [.playbackStateChanged(.paused)])
        #expect(actions == [.readGroupClock, .pause(session: 1), .seek(1, 101, to: .seconds(1))])
    }

    @Test("a timeline that replaces a pending pause cancels its timer")
    func pauseReplaced() {
        var h = Self.playingMember()
        h.feed {
            $0.followGroup(PlaybackTimeline(position: .seconds(4), time: .seconds(105), rate: 0), accuracy: .exact)
        }
        h.feed { $0.groupClockRead(now: .seconds(104)) }
        #expect(h.isArmed(.groupPause(generation: 2)))
        h.feed {
            $0.followGroup(PlaybackTimeline(position: .seconds(6), time: .seconds(105), rate: 1), accuracy: .exact)
        }
        h.feed { $0.groupClockRead(now: .seconds(104)) }
        #expect(!h.isArmed(.groupPause(generation: 2)))
        let actions = h.take().actions
        #expect(actions.contains(.pause(session: 1)))
        #expect(actions.contains(.seek(1, 102, to: .seconds(6))))
        // A stale timer's firing (armed for the old command) does nothing.
        h.feed { $0.timerFired(.groupPause(generation: 2)) }
        #expect(h.takeAll() == ([], []))
    }

    @Test("a keyframe seek's timeline takes the keyframe it landed on, for members that join later")
    func keyframeLanding() {
        var h = Self.preparedMember()
        h.feed {
            $0.followGroup(PlaybackTimeline(position: .seconds(3), time: .seconds(101), rate: 1), accuracy: .keyFrame)
        }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        h.keyframesRead([.zero, .seconds(2), .seconds(4)])
        #expect(h.take().actions.contains(.seek(1, 101, to: .seconds(2))), "snapped to the keyframe, sent exact")
        h.landSeek(at: .seconds(2))
        _ = h.take()
        #expect(h.machine.group?.timeline == PlaybackTimeline(position: .seconds(2), time: .seconds(101), rate: 1))
        h.feed { $0.groupClockRead(now: .milliseconds(100_100)) }
        #expect(h.take().actions == [.setBaseTime(session: 1, .seconds(101) - Self.latency), .play(session: 1)])
    }

    @Test("stop at T: a timer, then the pipeline closes; a member asked to follow again loads the movie paused")
    func stopLater() {
        var h = Self.playingMember()
        h.feed { $0.stopWithGroup(at: .seconds(110)) }
        h.feed { $0.groupClockRead(now: .seconds(109)) }
        #expect(h.take().actions == [.readGroupClock])
        #expect(h.isArmed(.groupStop(generation: 2)))
        h.fire(.groupStop(generation: 2))
        let (events, actions) = h.take()
        #expect(actions.contains(.close(session: 1)))
        #expect(events.contains(.playbackDidFinish(.userExited, nil)))
        h.feed { $0.followGroup(PlaybackTimeline(position: .zero, time: .seconds(120), rate: 1), accuracy: .exact) }
        h.feed { $0.groupClockRead(now: .seconds(115)) }
        #expect(h.take().actions.contains(.build(2)))
    }

    @Test("a member that joins a looping group several passes in starts in the pass the group is in")
    func repeatWraps() {
        var h = MachineHarness()
        h.feed { $0.setRepeatMode(.one, position: nil) }
        h.feed { $0.joinGroup(latency: Self.latency, joinLead: Self.joinLead) }
        h.preparing()
        h.feed { $0.firstFrameHeld(session: 1) }
        h.landSeek(at: .zero)
        #expect(h.machine.phase == .prepared)
        _ = h.takeAll()
        // 10 s movie; the group started 33.5 s ago.
        h.feed { $0.followGroup(PlaybackTimeline(position: .zero, time: .seconds(67), rate: 1), accuracy: .exact) }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        let seek = h.take().actions.first { if case .seek = $0 { true } else { false } }
        if case .seek(_, let plan, _) = seek {
            #expect(plan.position == .milliseconds(3_500), "33.5 s in, modulo 10 s")
            #expect(plan.looping)
        } else {
            Issue.record("no seek")
        }
    }

    @Test("the time source lost and back: one event each, nothing else changes")
    func timeSource() {
        var h = Self.playingMember()
        h.feed { $0.timeSourceReachabilityChanged(false) }
        h.feed { $0.timeSourceReachabilityChanged(false) }
        #expect(h.takeAll() == ([.groupTimeSourceLost], []))
        #expect(h.machine.playbackState == .playing)
        h.feed { $0.timeSourceReachabilityChanged(true) }
        #expect(h.takeAll() == ([.groupTimeSourceRestored], []))
    }

    @Test("a member dropping frames check after check is reported too slow once, and again after it kept up")
    func tooSlow() {
        var h = Self.playingMember()
        h.fire(.groupHealth, position: nil)
        _ = h.takeAll()
        var total = 0
        func check(_ dropped: Int) -> [PlayerEvent] {
            total += dropped
            let facts = PlayerMachine.TimerFacts(framesDropped: total)
            h.feed { $0.timerFired(.groupHealth, facts: facts) }
            return h.takeAll().events
        }
        h.feed { $0.timerFired(.groupHealth, facts: PlayerMachine.TimerFacts(framesDropped: 0)) }
        #expect(check(1).isEmpty, "a frame or two is not being too slow")
        #expect(check(10).isEmpty, "one bad second is not either")
        #expect(check(12) == [.groupMemberTooSlow(framesDropped: 22, within: .seconds(2))])
        #expect(check(15).isEmpty, "reported once")
        for _ in 0..<PlayerMachine.cleanChecksToRecover { #expect(check(0).isEmpty) }
        #expect(check(5).isEmpty)
        #expect(check(5) == [.groupMemberTooSlow(framesDropped: 10, within: .seconds(2))])
        #expect(h.machine.needsFacts(for: .groupHealth))
    }

    @Test("an idle member told to play loads its movie paused, and follows once prepared")
    func idleMember() {
        var h = MachineHarness(autoplay: true)
        h.feed { $0.joinGroup(latency: Self.latency, joinLead: Self.joinLead) }
        h.feed { $0.followGroup(PlaybackTimeline(position: .zero, time: .seconds(95), rate: 1), accuracy: .exact) }
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        #expect(h.take().actions.contains(.build(1)))
        h.built()
        h.firstFrame()
        h.asyncDone()
        #expect(h.take().actions.last == .readGroupClock)
        h.feed { $0.groupClockRead(now: .seconds(100)) }
        #expect(h.take().actions == [.seek(1, 101, to: .milliseconds(5_500))])
    }

    @Test("the timeline's position at a group time: moved at the rate, never before the start")
    func timelinePositions() {
        let playing = PlaybackTimeline(position: .seconds(2), time: .seconds(10), rate: 1)
        #expect(playing.position(at: .seconds(13)) == .seconds(5))
        #expect(playing.position(at: .seconds(9)) == .seconds(1))
        #expect(
            PlaybackTimeline(position: .seconds(2), time: .seconds(10), rate: -2).position(at: .seconds(11)) == .zero)
        #expect(
            PlaybackTimeline(position: .seconds(2), time: .seconds(10), rate: 0.5).position(at: .seconds(12))
                == .seconds(3))
        #expect(
            PlaybackTimeline(position: .seconds(2), time: .seconds(10), rate: 0).position(at: .seconds(99))
                == .seconds(2))
    }
}
