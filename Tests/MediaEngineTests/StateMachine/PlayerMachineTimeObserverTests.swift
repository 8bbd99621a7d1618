import Testing

@testable import MediaEngineCore

/// Time observers, decided in the machine: a playback change asks for the position
/// (``PlayerMachine/Action/readPosition(session:)``), the answer arms each observer's timer (a
/// periodic one repeating at its interval in wall time, a boundary one for its next boundary),
/// and a firing, with the position read then, publishes.
@Suite("Player machine: time observers")
struct PlayerMachineTimeObserverTests {
    static let timer = PlayerMachine.Timer.timeObserver(id: 1)

    /// A playing movie with one observer added (its position read not answered yet).
    static func observing(_ add: (inout PlayerMachine) -> TimeObserver) -> (MachineHarness, TimeObserver) {
        var h = MachineHarness.whilePlaying()
        let observer = h.feed(add)
        #expect(h.takeAll() == ([], [.readPosition(session: 1)]), "armed from the position")
        return (h, observer)
    }

    @Test("periodic: armed from the position read, repeating every interval; a firing publishes where the movie is")
    func periodic() {
        var (h, observer) = Self.observing { $0.addPeriodicTimeObserver(every: .milliseconds(500)) }
        h.positionRead(.seconds(2))
        #expect(
            h.takeAll()
                == ([], [.startTimer(Self.timer, after: .milliseconds(500), repeating: .milliseconds(500))]))
        h.fire(Self.timer, position: .milliseconds(2510))
        h.fire(Self.timer, position: .milliseconds(3020))
        #expect(
            h.takeAll() == (
                [.periodicTime(observer, .milliseconds(2510)), .periodicTime(observer, .milliseconds(3020))], []
            ))
        #expect(h.isArmed(Self.timer))
    }

    @Test("at twice the rate, an interval of movie time is half of it in wall time")
    func rate() {
        var (h, _) = Self.observing { $0.addPeriodicTimeObserver(every: .milliseconds(500)) }
        h.positionRead(.seconds(2))
        _ = h.feed { $0.setRate(2, position: .seconds(2)) }
        #expect(h.takeAll().actions.last == .readPosition(session: 1), "a rate change reads the position again")
        h.positionRead(.seconds(3))
        #expect(
            h.takeAll()
                == ([], [.startTimer(Self.timer, after: .milliseconds(250), repeating: .milliseconds(250))]))
    }

    @Test("pausing disarms the observers, playing again arms them; a firing that raced the pause publishes nothing")
    func pauseAndPlay() {
        var (h, _) = Self.observing { $0.addPeriodicTimeObserver(every: .seconds(1)) }
        h.positionRead(.seconds(2))
        _ = h.takeAll()
        let waiter = MachineHarness.waiter(h.feed { $0.pause(position: nil) })
        h.reached(playing: false)
        #expect(
            h.takeAll().actions == [.pause(session: 1), .resume(waiter: waiter, .success), .cancelTimer(Self.timer)])
        #expect(!h.machine.needsFacts(for: Self.timer))
        h.feed { $0.timerFired(Self.timer, facts: .init(position: .seconds(2))) }
        #expect(h.takeAll() == ([], []))
        _ = h.feed { $0.play() }
        h.reached(playing: true)
        #expect(h.takeAll().actions.last == .readPosition(session: 1))
        h.positionRead(.seconds(2))
        #expect(h.isArmed(Self.timer))
    }

    @Test("added while paused: nothing to arm until playback starts")
    func addedWhilePaused() {
        var h = MachineHarness()
        h.prepared()
        _ = h.feed { $0.addPeriodicTimeObserver(every: .seconds(1)) }
        #expect(h.takeAll() == ([], []))
        _ = h.feed { $0.play() }
        h.reached(playing: true)
        h.positionRead(.zero)
        #expect(h.isArmed(Self.timer))
    }

    @Test("a removed observer's timer is cancelled; stopping cancels every armed one")
    func removeAndStop() {
        var (h, observer) = Self.observing { $0.addPeriodicTimeObserver(every: .seconds(1)) }
        let second = h.feed { $0.addBoundaryTimeObserver(at: [.seconds(5)]) }
        h.positionRead(.seconds(1))
        _ = h.takeAll()
        h.feed { $0.removeTimeObserver(observer) }
        #expect(h.takeAll() == ([], [.cancelTimer(Self.timer)]))
        h.feed { $0.stop() }
        #expect(h.takeAll().actions == [.close(session: 1), .cancelTimer(.timeObserver(id: second.id))])
    }

    @Test(
        "boundary: armed for the next boundary; early, re-armed for the rest; reached, published once and the next armed"
    )
    func boundary() {
        var (h, observer) = Self.observing { $0.addBoundaryTimeObserver(at: [.seconds(3), .seconds(1), .seconds(5)]) }
        h.positionRead(.milliseconds(500))
        #expect(h.takeAll() == ([], [.startTimer(Self.timer, after: .milliseconds(500))]))
        // The wall clock and the pipeline drift apart: the timer came before the boundary.
        h.fire(Self.timer, position: .milliseconds(990))
        #expect(h.takeAll() == ([], [.startTimer(Self.timer, after: .milliseconds(10))]))
        // Reached exactly: published, and the next boundary (not this one again) armed.
        h.fire(Self.timer, position: .seconds(1))
        #expect(
            h.takeAll() == (
                [.boundaryTimeReached(observer, .seconds(1))], [.startTimer(Self.timer, after: .seconds(2))]
            ))
        // Late: published with its boundary, the rest of the way to the next one armed.
        h.fire(Self.timer, position: .milliseconds(3200))
        #expect(
            h.takeAll() == (
                [.boundaryTimeReached(observer, .seconds(3))], [.startTimer(Self.timer, after: .milliseconds(1800))]
            ))
        // The last one: nothing more to arm.
        h.fire(Self.timer, position: .seconds(5))
        #expect(h.takeAll() == ([.boundaryTimeReached(observer, .seconds(5))], [.cancelTimer(Self.timer)]))
    }

    @Test("boundary, playing backwards: the next boundary below the position")
    func boundaryBackwards() {
        var (h, observer) = Self.observing { $0.addBoundaryTimeObserver(at: [.seconds(3), .seconds(5)]) }
        _ = h.feed { $0.setRate(-1, position: .seconds(6)) }
        h.landSeek(at: .seconds(6))
        _ = h.takeAll()
        h.positionRead(.seconds(6))
        #expect(h.takeAll() == ([], [.startTimer(Self.timer, after: .seconds(1))]))
        h.fire(Self.timer, position: .milliseconds(4900))
        #expect(
            h.takeAll() == (
                [.boundaryTimeReached(observer, .seconds(5))], [.startTimer(Self.timer, after: .milliseconds(1900))]
            ))
    }

    @Test("repeat one: a new pass arms the boundaries from its start")
    func boundaryAfterLoop() {
        var (h, observer) = Self.observing { $0.addBoundaryTimeObserver(at: [.seconds(2), .seconds(8)]) }
        h.positionRead(.seconds(5))
        h.feed { $0.setRepeatMode(.one, position: .seconds(5)) }
        h.landSeek(at: .seconds(5))
        h.positionRead(.seconds(5))
        _ = h.takeAll()
        h.fire(Self.timer, position: .seconds(8))
        #expect(
            h.takeAll() == (
                [.boundaryTimeReached(observer, .seconds(8))], [.startTimer(Self.timer, after: .seconds(4))]
            ), "nothing ahead in this pass: the next pass's 2 s, through the loop (2 s left, then 2 s)")
        // The pass ends: the loop is sent (it does not flush), and the position is read right
        // after it, while the sinks still play the end of the pass that ends.
        h.feed { $0.segmentDone(session: 1) }
        h.loopTimingRead(.now)
        h.positionRead(.milliseconds(9900))
        // Armed through the loop: 0.1 s left in this pass, then 2 s into the next.
        #expect(h.isArmed(Self.timer))
        #expect(h.takeAll().actions.contains(.startTimer(Self.timer, after: .milliseconds(2100))))
        // A firing before the loop's pass began waits for it; in it, the boundary is reached.
        h.fire(Self.timer, position: .milliseconds(9950))
        #expect(h.takeAll().events.isEmpty)
        h.fire(Self.timer, position: .milliseconds(2010))
        #expect(h.takeAll().events == [.boundaryTimeReached(observer, .seconds(2))])
    }
}
