import Synchronization
import Testing

@testable import MediaEngineCore

/// A ``PlayerMachine`` fed by hand, without GStreamer: inputs go in, and the events and actions
/// they produced are kept for the test to check.
struct MachineHarness {
    /// A source that is only a name: the machine never opens it.
    struct NamedSource: MediaSource {
        var uri: String
        var sourceType: MovieSourceType = .file
    }

    /// Seek sequence numbers from 100 up, so a test can name them.
    final class Seqnums: Sendable {
        private let next = Atomic<UInt32>(100)
        func make() -> UInt32 { next.add(1, ordering: .relaxed).newValue }
    }

    var machine: PlayerMachine
    /// Everything since the last ``take()``.
    private(set) var events: [PlayerEvent] = []
    private(set) var actions: [PlayerMachine.Action] = []

    init(source: any MediaSource = NamedSource(uri: "file:///a.mp4"), autoplay: Bool = false) {
        let seqnums = Seqnums()
        machine = PlayerMachine(
            source: source, videoSink: NullVideoSink(), audioOutput: .automatic, seqnums: { seqnums.make() })
        machine.shouldAutoplay = autoplay
    }

    /// Feeds one input.
    @discardableResult
    mutating func feed<Result>(_ input: (inout PlayerMachine) -> Result) -> Result {
        let result = input(&machine)
        let output = machine.takeOutput()
        events += output.events
        actions += output.actions
        return result
    }

    /// The events and actions since the last call (actions as one line each, without the
    /// re-arming of time observers unless `rearm`), and forgets them.
    mutating func take(rearm: Bool = false) -> (events: [PlayerEvent], actions: [String]) {
        defer {
            events = []
            actions = []
        }
        let kept = rearm ? actions : actions.filter { if case .rearmTimeObservers = $0 { false } else { true } }
        return (events, kept.map(\.description))
    }

    /// The waiter a command waits on (fails the test when the command finished at once).
    static func waiter(_ wait: PlayerMachine.Wait, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        guard case .wait(let id) = wait else {
            Issue.record("expected a wait, got \(wait)", sourceLocation: sourceLocation)
            return -1
        }
        return id
    }

    static let facts = PlayerMachine.PipelineFacts(
        position: .zero, duration: .seconds(10), mediaTypes: [.video, .audio])

    /// Prepares session 1 to the end (built, prerolled) and forgets the output.
    mutating func prepared(facts: PlayerMachine.PipelineFacts = Self.facts) {
        _ = feed { $0.prepare() }
        let session = machine.sessionID
        feed { _ = $0.pipelineBuilt(session: session) }
        // The preroll's frame reaches the video output before the pipeline says it prerolled.
        feed {
            $0.firstFrameArrived(
                session: session, seqnum: 1, streamTime: .zero, displaySize: VideoSize(width: 320, height: 240),
                facts: facts)
        }
        feed { $0.asyncDone(session: session, facts: facts) }
        _ = take()
    }

    /// Prepares and plays session 1 and forgets the output.
    mutating func playing(facts: PlayerMachine.PipelineFacts = Self.facts) {
        prepared(facts: facts)
        _ = feed { $0.play() }
        let session = machine.sessionID
        feed { $0.pipelineReached(session: session, playing: true) }
        _ = take()
    }

    /// The pipeline's preroll (ASYNC_DONE) after the marker of the seek in flight, as the bus
    /// carries them: the marker is posted just before a flushing seek is sent.
    mutating func preroll(facts: PlayerMachine.PipelineFacts = Self.facts) {
        let session = machine.sessionID
        if let seqnum = machine.inFlightSeek?.seqnum { feed { $0.seekMarkerArrived(session: session, seqnum: seqnum) } }
        feed { $0.asyncDone(session: session, facts: facts) }
    }

    /// The sequence number of the seek in flight.
    var seqnum: UInt32 { machine.inFlightSeek?.seqnum ?? 0 }
}
