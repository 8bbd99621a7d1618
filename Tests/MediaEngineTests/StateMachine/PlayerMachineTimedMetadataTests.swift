import Testing

@testable import MediaEngineCore

/// When the machine hands out timed metadata, and when it asks to look at the position again
/// (its timed metadata timer, whose firing brings the position).
@Suite("Player machine: timed metadata")
struct PlayerMachineTimedMetadataTests {
    static let item = TimedMetadataItem(key: "TIT2", keySpace: .id3, value: .text("later"), time: .seconds(5))
    static let timer = PlayerMachine.Timer.timedMetadata(session: 1)

    @Test("an item ahead is looked at again within 0.1 s, however far ahead: a stalled pipeline catches up")
    func boundedWait() {
        var h = MachineHarness.whilePlaying()
        h.feed {
            $0.timedMetadataArrived(session: 1, [Self.item], time: .seconds(5), seqnum: nil, position: .seconds(1))
        }
        #expect(h.takeAll() == ([], [.startTimer(Self.timer, after: .milliseconds(100))]))
        // Nearer than the bound: the rest of the way, in wall time.
        h.fire(Self.timer, position: .milliseconds(4950))
        #expect(h.takeAll() == ([], [.startTimer(Self.timer, after: .milliseconds(50))]))
        // Reached (or jumped past): handed out, and nothing more to wait for.
        h.fire(Self.timer, position: .milliseconds(5400))
        #expect(h.takeAll() == ([.timedMetadataChanged([Self.item])], []))
    }

    @Test("a read of the position a playback change asked for hands out what is due; paused, no timer is armed")
    func positionRead() {
        var h = MachineHarness.whilePlaying()
        _ = h.feed { $0.pause(position: nil) }
        h.reached(playing: false)
        _ = h.takeAll()
        h.feed {
            $0.timedMetadataArrived(session: 1, [Self.item], time: .seconds(5), seqnum: nil, position: .seconds(1))
        }
        #expect(h.takeAll() == ([], []), "paused: nothing moves, nothing to look at")
        _ = h.feed { $0.play() }
        h.reached(playing: true)
        #expect(h.takeAll().actions.last == .readPosition(session: 1))
        h.positionRead(.seconds(6))
        #expect(h.takeAll() == ([.timedMetadataChanged([Self.item])], []))
    }
}
