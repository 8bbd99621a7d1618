import Synchronization
import Testing

@testable import MediaEngineCore

/// A ``PlayerMachine`` fed by hand as its owner (``PlayerCore``) feeds it, without GStreamer:
/// inputs go in, and the events and actions they produced are kept for the test to compare as
/// values. Like the owner, the harness keeps the timers the machine arms (a timer fires only
/// while armed, and a one-shot timer is disarmed by its firing), reads the pipeline's facts for
/// an input only when the machine says it needs them, and answers what the machine asked of the
/// pipeline or the source (a position, keyframes, a loop's timing, a failure's interpretation)
/// when the test says what the answer is.
struct MachineHarness {
    typealias Action = PlayerMachine.Action
    typealias Timer = PlayerMachine.Timer
    typealias Facts = PlayerMachine.PipelineFacts

    /// A source that is only a name: the machine never opens it.
    struct NamedSource: MediaSource {
        var uri: String
        var sourceType: MovieSourceType = .file
    }

    /// Seek sequence numbers from 101 up, so a test can name them.
    final class Seqnums: Sendable {
        private let next = Atomic<UInt32>(100)
        func make() -> UInt32 { next.add(1, ordering: .relaxed).newValue }
    }

    /// The source every harness plays unless told otherwise.
    static let movie = NamedSource(uri: "file:///a.mp4")
    static let size = VideoSize(width: 320, height: 240)
    static let facts = Facts(position: .zero, duration: .seconds(10), mediaTypes: [.video, .audio])

    /// The machine; read it freely (`h.machine.playbackState`), change it only with ``feed(_:)``.
    private(set) var machine: PlayerMachine
    /// The events and actions since the last ``take()``, as the machine returned them.
    private(set) var events: [PlayerEvent] = []
    private(set) var actions: [Action] = []
    /// The timers armed, as the owner keeps them: each with its delay and period.
    private(set) var timers: [Timer: (after: Duration, repeating: Duration?)] = [:]
    /// What the machine asked of the pipeline or the source and has not been answered, oldest first.
    private(set) var questions: [Action] = []

    init(source: any MediaSource = Self.movie, autoplay: Bool = false) {
        let seqnums = Seqnums()
        machine = PlayerMachine(
            source: source, videoSink: NullVideoSink(), audioOutput: .automatic, seqnums: { seqnums.make() })
        machine.setShouldAutoplay(autoplay)
    }

    /// The current preparation's number.
    var session: Int { machine.sessionID }

    /// The sequence number of the seek in flight.
    var seqnum: UInt32 { machine.inFlightSeek?.seqnum ?? 0 }

    // MARK: Feeding

    /// Feeds one input, as the owner does: its output is kept, the timers it armed or cancelled
    /// and the questions it asked noted.
    @discardableResult
    mutating func feed<Result>(_ input: (inout PlayerMachine) -> Result) -> Result {
        let result = input(&machine)
        let output = machine.takeOutput()
        events += output.events
        actions += output.actions
        for action in output.actions {
            switch action {
            case .startTimer(let timer, let after, let repeating): timers[timer] = (after, repeating)
            case .cancelTimer(let timer): timers[timer] = nil
            case .interpret, .readKeyframeTimes, .readLoopTiming, .readPosition, .settle: questions.append(action)
            default: break
            }
        }
        return result
    }

    /// The events and actions since the last call, and forgets them. The actions leave out the
    /// machine's bookkeeping with its owner, which most tests are not about: timers armed and
    /// cancelled, reads of the position, fragment gates opened (``takeAll()`` keeps them).
    /// Errors in actions are compared by their code (``normalized``).
    mutating func take() -> (events: [PlayerEvent], actions: [Action]) {
        let all = takeAll()
        return (all.events, all.actions.filter { !$0.isBookkeeping })
    }

    /// The events and every action since the last call, and forgets them.
    mutating func takeAll() -> (events: [PlayerEvent], actions: [Action]) {
        defer {
            events = []
            actions = []
        }
        return (events, actions.map(\.normalized))
    }

    // MARK: The owner's side

    /// Fires `timer` as the owner does: only while armed (a cancelled or replaced timer never
    /// reaches the machine), with what the owner reads from the pipeline when the machine says
    /// it needs it (nothing otherwise).
    mutating func fire(
        _ timer: Timer, position: Duration? = nil, duration: Duration? = nil, mediaTypes: MovieMediaTypes = [],
        stalledDemuxer: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let armed = timers[timer] else {
            Issue.record("\(timer) is not armed: the owner would not fire it", sourceLocation: sourceLocation)
            return
        }
        if armed.repeating == nil { timers[timer] = nil }
        let facts =
            machine.needsFacts(for: timer)
            ? PlayerMachine.TimerFacts(
                position: position, duration: duration, mediaTypes: mediaTypes, stalledDemuxer: stalledDemuxer)
            : PlayerMachine.TimerFacts()
        feed { $0.timerFired(timer, facts: facts) }
    }

    /// Whether `timer` is armed.
    func isArmed(_ timer: Timer) -> Bool { timers[timer] != nil }

    /// Takes the latest question `matches` selects (forgetting the older ones like it, which the
    /// same answer covers); records an issue when the machine asked none.
    private mutating func question(
        _ what: String, sourceLocation: SourceLocation, _ matches: (Action) -> Bool
    ) -> Action? {
        guard let latest = questions.last(where: matches) else {
            Issue.record("the machine did not ask for \(what)", sourceLocation: sourceLocation)
            return nil
        }
        questions.removeAll(where: matches)
        return latest
    }

    /// The source's interpretation of the failure it was asked about: `error`, or the failure as
    /// it was asked (what a source that has nothing to add answers).
    mutating func interpreted(as error: MediaError? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        guard
            case .interpret(let session, let epoch, let source, let asked, let position) = question(
                "an interpretation", sourceLocation: sourceLocation, { if case .interpret = $0 { true } else { false } }
            )
        else { return }
        let answer = error ?? source.source.interpret(asked)
        feed { $0.failureInterpreted(session: session, epoch: epoch, error: answer, position: position) }
    }

    /// The movie's keyframe times, read from its source (nil: it cannot tell).
    mutating func keyframesRead(_ times: [Duration]?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard
            case .readKeyframeTimes(let session, let epoch, _) = question(
                "keyframe times", sourceLocation: sourceLocation,
                { if case .readKeyframeTimes = $0 { true } else { false } })
        else { return }
        feed { $0.keyframeTimesRead(session: session, epoch: epoch, times: times) }
    }

    /// When the pipeline can take the loop it was asked about.
    mutating func loopTimingRead(_ timing: LoopSeekTiming, sourceLocation: SourceLocation = #_sourceLocation) {
        guard
            case .readLoopTiming(let session, let seqnum) = question(
                "a loop's timing", sourceLocation: sourceLocation,
                { if case .readLoopTiming = $0 { true } else { false } })
        else { return }
        feed { $0.loopTimingRead(session: session, seqnum: seqnum, timing: timing) }
    }

    /// The pipeline's position, read as asked.
    mutating func positionRead(_ position: Duration?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard
            case .readPosition(let session) = question(
                "the position", sourceLocation: sourceLocation, { if case .readPosition = $0 { true } else { false } })
        else { return }
        feed { $0.positionRead(session: session, position: position) }
    }

    /// The pipeline settled where it was asked to (a reconnection's wait is over), at `position`.
    mutating func settled(at position: Duration?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard
            case .settle(let session, let epoch, _) = question(
                "a settle", sourceLocation: sourceLocation, { if case .settle = $0 { true } else { false } })
        else { return }
        feed { $0.pipelineSettled(session: session, epoch: epoch, position: position) }
    }

    // MARK: Bus messages, as the owner hands them over

    /// The pipeline of the current preparation was built.
    @discardableResult
    mutating func built(_ session: Int? = nil) -> Bool {
        let session = session ?? self.session
        return feed { $0.pipelineBuilt(session: session) }
    }

    /// ASYNC_DONE, with the pipeline's facts when the machine says it may need them.
    mutating func asyncDone(_ session: Int? = nil, facts: Facts = Self.facts) {
        let session = session ?? self.session
        let read = machine.needsFacts(session: session) ? facts : Facts()
        feed { $0.asyncDone(session: session, facts: read) }
    }

    /// A first frame after a start or a flush (of the segment `seqnum`), at `time`.
    mutating func firstFrame(
        _ session: Int? = nil, seqnum: UInt32 = 1, at time: Duration? = .zero, size: VideoSize = Self.size,
        facts: Facts = Self.facts
    ) {
        let session = session ?? self.session
        let read = machine.needsFacts(session: session, firstFrame: true) ? facts : Facts()
        feed {
            $0.firstFrameArrived(session: session, seqnum: seqnum, streamTime: time, displaySize: size, facts: read)
        }
    }

    /// The pipeline's preroll (ASYNC_DONE) after the marker of the seek in flight, as the bus
    /// carries them: the marker is posted just before a flushing seek is sent.
    mutating func preroll(facts: Facts = Self.facts) {
        let session = self.session
        if let seqnum = machine.inFlightSeek?.seqnum { feed { $0.seekMarkerArrived(session: session, seqnum: seqnum) } }
        asyncDone(facts: facts)
    }

    /// The seek in flight lands: its preroll, then its first frame at `time`.
    mutating func landSeek(at time: Duration, facts: Facts = Self.facts) {
        let seqnum = self.seqnum
        preroll(facts: facts)
        firstFrame(seqnum: seqnum, at: time, facts: facts)
    }

    /// The pipeline settled in PLAYING or PAUSED.
    mutating func reached(playing: Bool) {
        let session = self.session
        feed { $0.pipelineReached(session: session, playing: playing) }
    }

    /// A stream of `group` started at the outputs, with the facts of that group when the machine
    /// will prepare a movie from them.
    mutating func streamStarted(group: UInt32, facts: Facts = Self.facts) {
        let session = self.session
        let read = machine.needsHandOverFacts(session: session, group: group) ? facts : Facts()
        feed { $0.contentStreamStarted(session: session, group: group, facts: read) }
    }

    // MARK: Situations

    /// `prepareToPlay()`, and its pipeline built; returns the command's waiter.
    @discardableResult
    mutating func preparing(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let waiter = Self.waiter(feed { $0.prepare() }, sourceLocation: sourceLocation)
        built()
        return waiter
    }

    /// `seek(to:option:)` on a prepared movie; returns the command's waiter.
    @discardableResult
    mutating func seek(to position: Duration, exact: Bool, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        Self.waiter(feed { $0.seek(to: position, exact: exact) }, sourceLocation: sourceLocation)
    }

    /// Prepares a movie to the end (built, first frame, prerolled) and forgets the output.
    mutating func prepared(facts: Facts = Self.facts) {
        preparing()
        // The preroll's frame reaches the video output before the pipeline says it prerolled.
        firstFrame(facts: facts)
        asyncDone(facts: facts)
        _ = takeAll()
    }

    /// A harness whose movie of `source` is prepared and playing, the output forgotten.
    static func whilePlaying(_ source: any MediaSource = Self.movie, facts: Facts = Self.facts) -> MachineHarness {
        var h = MachineHarness(source: source)
        h.playing(facts: facts)
        return h
    }

    /// Prepares and plays a movie and forgets the output.
    mutating func playing(facts: Facts = Self.facts) {
        prepared(facts: facts)
        _ = feed { $0.play() }
        reached(playing: true)
        _ = takeAll()
    }

    /// The waiter a command waits on (fails the test when the command finished at once).
    static func waiter(_ wait: PlayerMachine.Wait, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        guard case .wait(let id) = wait else {
            Issue.record("expected a wait, got \(wait)", sourceLocation: sourceLocation)
            return -1
        }
        return id
    }
}

// MARK: - Actions as the tests write them

extension PlayerMachine.Action {
    /// What the owner does without a decision behind it that most tests check: timers, position
    /// reads, fragment gates.
    var isBookkeeping: Bool {
        switch self {
        case .startTimer, .cancelTimer, .readPosition, .openFragmentGates: true
        default: false
        }
    }

    /// The action with its errors reduced to their code: an error's message is prose, and a test
    /// that is about it reads it from ``PlayerMachine/State/lastError``.
    var normalized: Self {
        switch self {
        case .resume(let waiter, .failure(let error)): .resume(waiter: waiter, .failed(error.code))
        case .interpret(let session, let epoch, let source, let error, let position):
            .interpret(session: session, epoch: epoch, source: source, error: .coded(error.code), position: position)
        case .reportPreroll(let item, .ended(.failed(let error), let at)):
            .reportPreroll(item: item, .ended(.failed(.coded(error.code)), at: at))
        default: self
        }
    }

    /// A new pipeline for `source`, with the harness's sink and output and the default settings.
    static func build(
        _ session: Int, _ source: any MediaSource = MachineHarness.movie, holding: Bool = false,
        nextQueued: Bool = false, gain: Double = 1
    ) -> Self {
        .build(
            PlayerMachine.PipelineBuild(
                session: session, source: .init(source), videoSink: NullVideoSink(), audioOutput: .automatic,
                presentation: VideoPresentation(), buffering: BufferingPolicy(), holdFirstFrame: holding,
                nextQueued: nextQueued, gain: gain))
    }

    static func reload(_ session: Int, _ source: any MediaSource, epoch: Int, holding: Bool = false) -> Self {
        .reload(session: session, source: .init(source), epoch: epoch, holdFirstFrame: holding)
    }

    /// A flushing seek numbered `seqnum`.
    static func seek(
        _ session: Int, _ seqnum: UInt32, to position: Duration, rate: Double = 1,
        _ accuracy: SeekPlan.Accuracy = .exact, looping: Bool = false, from start: Duration? = nil,
        until end: Duration? = nil
    ) -> Self {
        .seek(
            session: session,
            plan: SeekPlan(
                position: position, rate: rate, accuracy: accuracy, looping: looping, rangeStart: start, rangeEnd: end),
            seqnum: seqnum)
    }

    /// Repeat mode's loop (not flushing) numbered `seqnum`.
    static func sendLoop(
        _ session: Int, _ seqnum: UInt32, to position: Duration, from start: Duration? = nil, until end: Duration?
    ) -> Self {
        .sendLoop(
            session: session,
            plan: SeekPlan(
                position: position, rate: 1, accuracy: .exact, flush: false, looping: true, rangeStart: start,
                rangeEnd: end),
            seqnum: seqnum)
    }

    /// The preparation's timeout armed (30 s, the harness's).
    static func armPreparation(_ session: Int, epoch: Int) -> Self {
        .startTimer(.preparation(session: session, epoch: epoch), after: .seconds(30))
    }

    static func armFragmentGates(_ session: Int, epoch: Int) -> Self {
        .startTimer(.fragmentGates(session: session, epoch: epoch), after: PlayerMachine.fragmentGateLimit)
    }

    /// A flushing seek's deadline armed: the preparation timeout, or a frame's grace after its preroll.
    static func armSeekDeadline(_ session: Int, _ seqnum: UInt32, after: Duration = .seconds(30)) -> Self {
        .startTimer(.seekDeadline(session: session, seqnum: seqnum), after: after)
    }

    static func cancelSeekDeadline(_ session: Int, _ seqnum: UInt32) -> Self {
        .cancelTimer(.seekDeadline(session: session, seqnum: seqnum))
    }
}

extension PlayerMachine.Completion {
    /// A failure with `code`, as ``PlayerMachine/Action/normalized`` has it.
    static func failed(_ code: MediaError.Code) -> Self { .failure(.coded(code)) }
}

extension MediaError {
    /// An error with `code` and no message, as ``PlayerMachine/Action/normalized`` has it.
    static func coded(_ code: Code) -> MediaError { MediaError(code, "") }
}

extension PlayerMachine.SourceRef {
    /// A source that is only a name.
    static func named(_ uri: String) -> Self { .init(MachineHarness.NamedSource(uri: uri)) }
}
