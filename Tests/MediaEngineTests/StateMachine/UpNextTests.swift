import Testing

@testable import MediaEngineCore

/// What a pipeline goes on to without a gap, without GStreamer: which hand-over a change of the
/// queue withdraws, counted from the last clear, whether or not the player has seen that movie
/// start yet.
@Suite("UpNext: hand-overs and withdrawals")
struct UpNextTests {
    static func item(_ id: Int) -> UpNext.Item {
        UpNext.Item(id: id, source: MachineHarness.NamedSource(uri: "file:///\(id)"))
    }

    @Test("a list sent again after playbin took its head hands nothing twice and withdraws nothing")
    func sameListAgain() {
        var upNext = UpNext()
        #expect(upNext.replace(with: [Self.item(2), Self.item(3)], playing: 1) == nil)
        #expect(upNext.take() != nil)
        #expect(upNext.replace(with: [Self.item(2), Self.item(3)], playing: 1) == nil)
        #expect(upNext.pending.map(\.id) == [3] && upNext.handed == [2])
    }

    @Test("removing the handed movie withdraws hand-over 1, before or after the player saw it start")
    func removedAfterHandOver() {
        var upNext = UpNext()
        upNext.replace(with: [Self.item(2)], playing: 1)
        _ = upNext.take()
        // The player has not acknowledged movie 2: it still plays 1, and 2 is gone from its queue.
        #expect(upNext.replace(with: [], playing: 1) == 1)
        #expect(upNext.pending.isEmpty)
    }

    @Test("the ordinal counts every hand-over since the clear, also those already started")
    func ordinalsCountFromTheClear() {
        var upNext = UpNext()
        upNext.replace(with: [Self.item(2), Self.item(3), Self.item(4)], playing: 1)
        _ = upNext.take()  // hand-over 1: movie 2
        upNext.replace(with: [Self.item(3), Self.item(4)], playing: 2)
        _ = upNext.take()  // hand-over 2: movie 3
        _ = upNext.take()  // hand-over 3: movie 4 (a short movie 3 was read to its end)
        #expect(upNext.handed == [3, 4])
        // Movie 4 replaced by 5 while 2 still plays: hand-over 3 is withdrawn.
        #expect(upNext.replace(with: [Self.item(3), Self.item(5)], playing: 2) == 3)
        #expect(upNext.pending.map(\.id) == [5])
        upNext.clear()
        upNext.replace(with: [Self.item(7)], playing: 6)
        _ = upNext.take()
        #expect(upNext.replace(with: [], playing: 6) == 1, "counted again from the clear")
    }
}
