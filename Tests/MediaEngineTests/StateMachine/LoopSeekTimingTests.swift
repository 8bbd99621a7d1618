import Testing

@testable import MediaEngineCore

/// When repeat mode's loop may be sent: not while its demuxer's thread could be blocked on sinks
/// that wait for the player's thread to set PLAYING.
@Suite("Loop seek timing")
struct LoopSeekTimingTests {
    @Test("asked to play: now, whether it plays, is on its way, or lost its state to an output's preroll")
    func playing() {
        #expect(LoopSeekTiming.decide(target: .playing, current: .playing, pending: .voidPending) == .now)
        // An output swap's preroll: current and pending PAUSED, the target still PLAYING.
        #expect(LoopSeekTiming.decide(target: .playing, current: .paused, pending: .paused) == .now)
        #expect(LoopSeekTiming.decide(target: .playing, current: .paused, pending: .playing) == .now)
    }

    @Test("paused and prerolled, or pausing: later; paused and prerolling after a flushing seek: now")
    func paused() {
        #expect(LoopSeekTiming.decide(target: .paused, current: .paused, pending: .voidPending) == .later)
        #expect(LoopSeekTiming.decide(target: .paused, current: .paused, pending: .paused) == .now)
        // pause() on a playing movie: its sinks take one frame more and hold it.
        #expect(LoopSeekTiming.decide(target: .paused, current: .playing, pending: .paused) == .later)
    }

    @Test("shutting down: never")
    func shuttingDown() {
        for target in [GstStateValue.ready, .null, .voidPending] {
            #expect(LoopSeekTiming.decide(target: target, current: .paused, pending: .ready) == .never)
        }
    }
}
