import Testing

@testable import MediaEngineCore

/// When the machine hands out timed metadata, and when it asks to look at the position again.
@Suite("Player machine: timed metadata")
struct PlayerMachineTimedMetadataTests {
    static let item = TimedMetadataItem(key: "TIT2", keySpace: .id3, value: .text("later"), time: .seconds(5))

    @Test("an item ahead is looked at again within 0.1 s, however far ahead: a stalled pipeline catches up")
    func boundedWait() {
        var h = MachineHarness()
        h.playing()
        _ = h.take()
        h.feed {
            $0.timedMetadataArrived(session: 1, [Self.item], time: .seconds(5), seqnum: nil, position: .seconds(1))
        }
        #expect(h.take() == ([], ["scheduleTimedMetadata 1 after 0.100 s"]))
        // Nearer than the bound: the rest of the way, in wall time.
        h.feed { $0.timedMetadataTick(session: 1, position: .milliseconds(4950)) }
        #expect(h.take() == ([], ["scheduleTimedMetadata 1 after 0.050 s"]))
        // Reached (or jumped past): handed out, and nothing more to wait for.
        h.feed { $0.timedMetadataTick(session: 1, position: .milliseconds(5400)) }
        #expect(h.take() == ([.timedMetadataChanged([Self.item])], []))
    }
}
