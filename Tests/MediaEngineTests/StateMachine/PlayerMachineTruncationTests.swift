import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// A movie whose file is cut short, as its source's tables tell: warned about when prepared,
/// finished with `truncatedMovie` when playback reaches the cut, never `playbackEnded`.
@Suite("Player state machine: truncation")
struct PlayerMachineTruncationTests {
    static let cut = PlayerMachine.PipelineFacts(
        position: .zero, duration: .seconds(10), mediaTypes: [.video, .audio],
        truncation: MovieTruncation(playableDuration: .seconds(5), duration: .seconds(10)))

    @Test("preparation announces how much of the duration is present, after the duration")
    func announced() {
        var h = MachineHarness()
        h.preparing()
        h.asyncDone(facts: Self.cut)
        let events = h.take().events
        let duration = events.firstIndex(of: .durationAvailable(.seconds(10)))
        let warning = events.firstIndex(of: .truncationDetected(playable: .seconds(5), duration: .seconds(10)))
        #expect(duration != nil && warning != nil, "\(events)")
        if let duration, let warning { #expect(duration < warning) }
        #expect(h.machine.truncation == MovieTruncation(playableDuration: .seconds(5), duration: .seconds(10)))
    }

    @Test("the end of the stream at the cut finishes with truncatedMovie, whatever the position says")
    func endAtCut() {
        for position in [Duration.seconds(5), .seconds(10), nil] {
            var h = MachineHarness()
            h.playing(facts: Self.cut)
            h.feed { $0.endOfStream(session: 1, position: position) }
            let (events, actions) = h.take()
            #expect(!actions.contains { $0.isInterpret }, "known cut short: nothing for the source to add")
            #expect(events.last?.finish?.0 == .playbackError, "\(String(describing: position))")
            #expect(events.last?.finish?.1?.code == .truncatedMovie)
            #expect(!events.contains { $0.finish?.0 == .playbackEnded })
            #expect(h.machine.lastError?.message.contains("5.000 s of 10.000 s") == true)
        }
    }

    @Test("an end playback time before the cut ends normally; one after it is truncated")
    func endPlaybackTime() {
        for (end, truncated) in [(Duration.seconds(4), false), (.seconds(8), true)] {
            var h = MachineHarness()
            h.playing(facts: Self.cut)
            h.feed { $0.setPlaybackRange(initial: nil, end: end, position: .seconds(1)) }
            h.landSeek(at: .seconds(1), facts: Self.cut)
            _ = h.take()
            h.feed { $0.endOfStream(session: 1, position: end) }
            let finish = h.take().events.last?.finish
            #expect(finish?.0 == (truncated ? .playbackError : .playbackEnded), "\(end)")
        }
    }

    @Test("playing backwards to the start of a cut movie is a normal end")
    func backwards() {
        var h = MachineHarness()
        h.playing(facts: Self.cut)
        _ = h.feed { $0.setRate(-1, position: .seconds(3)) }
        h.landSeek(at: .seconds(3), facts: Self.cut)
        _ = h.take()
        h.feed { $0.endOfStream(session: 1, position: .zero) }
        #expect(h.take().events.last?.finish?.0 == .playbackEnded)
    }

    @Test("a whole movie reports no truncation, and a new movie forgets the old one's")
    func wholeMovie() {
        var h = MachineHarness()
        h.playing(facts: Self.cut)
        h.feed { $0.stop() }
        _ = h.take()
        h.prepared()
        #expect(h.machine.truncation == nil)
        h.feed { _ = $0.play() }
        h.reached(playing: true)
        h.feed { $0.endOfStream(session: 2, position: .seconds(10)) }
        #expect(h.take().events.last?.finish?.0 == .playbackEnded)
    }

    @Test("a seek past the cut lands without waiting for a frame")
    func seekPastCut() {
        var h = MachineHarness()
        h.prepared(facts: Self.cut)
        h.seek(to: .seconds(7), exact: true)
        _ = h.take()
        h.preroll(facts: Self.cut)
        #expect(h.take().events.contains { if case .seekCompleted = $0 { true } else { false } })
    }
}
