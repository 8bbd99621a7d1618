import MediaEngine
import Testing

@testable import PlaybackSync

/// The group's bookkeeping, without a clock or a network: the commands an intent makes from the
/// latest one, the leader's numbering, and what a member applies.
@Suite("Playback group ledger")
struct GroupLedgerTests {
    @Test("intents become whole timelines from the latest command, at the time given")
    func commands() throws {
        var leader = GroupLedger(isLeader: true, latency: .zero)
        #expect(leader.timeline(now: .seconds(5)) == PlaybackTimeline(position: .zero, time: .seconds(5), rate: 0))
        #expect(try leader.command(for: .pause, at: .seconds(5)) == nil, "paused already")
        let play = try #require(try leader.command(for: .play, at: .seconds(10)))
        #expect(
            play
                == PlaybackGroupCommand(.play, timeline: PlaybackTimeline(position: .zero, time: .seconds(10), rate: 1))
        )
        #expect(leader.issue(play) == 1)
        #expect(try leader.command(for: .play, at: .seconds(11)) == nil, "playing already")
        let pause = try #require(try leader.command(for: .pause, at: .milliseconds(12_500)))
        #expect(pause.timeline == PlaybackTimeline(position: .milliseconds(2500), time: .milliseconds(12_500), rate: 0))
        #expect(leader.issue(pause) == 2)
        // A seek while paused stays paused; the rate waits for play.
        let seek = try #require(try leader.command(for: .seek(.seconds(7), .nearestKeyFrame), at: .seconds(13)))
        #expect(seek.timeline.rate == 0 && seek.timeline.position == .seconds(7) && seek.seekOption == .nearestKeyFrame)
        _ = leader.issue(seek)
        // A rate plays (as AVPlayer's rate does), and is the rate of the next play.
        let rate = try #require(try leader.command(for: .rate(2), at: .seconds(14)))
        #expect(rate.timeline == PlaybackTimeline(position: .seconds(7), time: .seconds(14), rate: 2))
        _ = leader.issue(rate)
        _ = leader.issue(try #require(try leader.command(for: .pause, at: .seconds(15))))
        #expect(try leader.command(for: .play, at: .seconds(16))?.timeline.rate == 2)
        // A stop, then a play starts from the beginning.
        _ = leader.issue(try #require(try leader.command(for: .stop, at: .seconds(17))))
        #expect(try leader.command(for: .play, at: .seconds(18))?.timeline.position == .zero)
    }

    @Test("a negative position or a rate out of range is refused")
    func invalid() {
        let ledger = GroupLedger(isLeader: true, latency: .zero)
        #expect(throws: MediaError.self) { try ledger.command(for: .seek(.seconds(-1), .exact), at: .zero) }
        for rate in [0, 0.1, 9, -9, .nan, .infinity] {
            #expect(throws: MediaError.self, "\(rate)") { try ledger.command(for: .rate(rate), at: .zero) }
        }
    }

    @Test("a member applies what is newer than it applied, and the leader's latency")
    func member() {
        var member = GroupLedger(isLeader: false, latency: .seconds(1))
        #expect(!member.synchronized)
        let first = PlaybackGroupCommand(.play, timeline: PlaybackTimeline(position: .zero, time: .seconds(1), rate: 1))
        let second = PlaybackGroupCommand(
            .pause, timeline: PlaybackTimeline(position: .seconds(1), time: .seconds(2), rate: 0))
        // The first state is applied, whatever its number (none yet, here: nothing to apply).
        let empty = member.accept(PlaybackGroupState(sequence: 0, latency: .milliseconds(20), command: nil))
        #expect(empty.first && empty.apply == nil)
        #expect(member.latency == .milliseconds(20))
        let applied = [
            member.accept(first, sequence: 1), member.accept(first, sequence: 1), member.accept(second, sequence: 2),
        ]
        #expect(applied == [true, false, true], "the same command twice is applied once")
        #expect(member.current == second)
        // A state that is not newer changes nothing; a newer one is applied.
        #expect(
            member.accept(PlaybackGroupState(sequence: 2, latency: .milliseconds(20), command: second)).apply == nil)
        let third = PlaybackGroupCommand(
            .play, timeline: PlaybackTimeline(position: .seconds(1), time: .seconds(3), rate: 1))
        #expect(
            member.accept(PlaybackGroupState(sequence: 5, latency: .milliseconds(20), command: third)).apply == third)
        #expect(member.sequence == 5)
        // The leader takes no numbered command from anyone.
        var leader = GroupLedger(isLeader: true, latency: .zero)
        let taken = leader.accept(first, sequence: 9)
        #expect(!taken)
    }

    @Test("the leader's state carries the keyframe its player landed on")
    func refine() {
        var leader = GroupLedger(isLeader: true, latency: .zero)
        let seek = PlaybackGroupCommand(
            .seek, timeline: PlaybackTimeline(position: .seconds(3), time: .seconds(10), rate: 1),
            seekOption: .nearestKeyFrame)
        _ = leader.issue(seek)
        leader.refine(PlaybackTimeline(position: .seconds(2), time: .seconds(10), rate: 1))
        #expect(leader.state.command?.timeline.position == .seconds(2))
        // Another timeline (an older command's) does not.
        leader.refine(PlaybackTimeline(position: .seconds(1), time: .seconds(4), rate: 1))
        #expect(leader.state.command?.timeline.position == .seconds(2))
    }
}
