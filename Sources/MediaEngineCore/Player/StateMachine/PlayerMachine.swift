/// A player's decisions, as a value: what it knows, and how each input (a command, a pipeline
/// message, a timer, what the owner read from the pipeline or the source) changes that and what
/// must happen next.
///
/// The model is AsyncHTTPClient's `HTTPRequestStateMachine`: the state is private (``State``, an
/// enum of phases with their data, changed only by the inputs below), each input is a `mutating`
/// method named after what happened, and what it decided comes out as values: the events to
/// publish and the ``Action``s to perform, which the owner takes with ``takeOutput()`` after
/// each input. No I/O, no locks, no clocks, no GStreamer: whatever the machine needs from the
/// world (the pipeline's position, a source's keyframes, a failure made precise by its source)
/// it asks for with an action, and the answer comes back as another input. The owner
/// (``PlayerCore``) feeds inputs under its one lock, publishes the events under that lock (one
/// order for every subscriber), and performs the actions on the player's own thread, in order.
/// Tests feed inputs and compare the output as values, without GStreamer (`PlayerMachine*Tests`).
///
/// Reading: any property of ``State`` reads through the machine (`machine.playbackState`), never
/// writes. Pipelines are known by their preparation number (`session`): an input about a
/// pipeline that is no longer the current one is ignored.
@dynamicMemberLookup
struct PlayerMachine {
    private var state: State

    /// A machine for `source`, with nothing loaded.
    /// - Parameters:
    ///   - preparationTimeout: How long a preparation, or a flushing seek, may take.
    ///   - seqnums: Where seek sequence numbers come from (GStreamer's counter, in the engine).
    ///   - workarounds: The GStreamer bugs it decides around (all of them unless told otherwise).
    init(
        source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput,
        preparationTimeout: Duration = .seconds(30), workarounds: Workarounds = Workarounds(),
        seqnums: @escaping @Sendable () -> UInt32
    ) {
        state = State(
            settings: Settings(source: source, videoSink: videoSink, audioOutput: audioOutput),
            preparationTimeout: preparationTimeout, workarounds: workarounds, seqnums: seqnums)
    }

    /// Reads the machine's state; nothing writes it but the inputs.
    subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        state[keyPath: keyPath]
    }

    /// The events and actions of the inputs since the last call.
    mutating func takeOutput() -> Output {
        state.takeOutput()
    }

    // MARK: - Questions the owner asks before an input

    /// Whether a message of `session` is about the movie the player has now.
    func accepts(_ session: Int) -> Bool { state.accepts(session) }
    /// Whether `session` is the pipeline the player has now.
    func isCurrent(_ session: Int) -> Bool { state.isCurrent(session) }
    /// Whether an ASYNC_DONE or a first frame of `session` may need the pipeline's facts.
    func needsFacts(session: Int, firstFrame: Bool = false) -> Bool {
        state.needsFacts(session: session, firstFrame: firstFrame)
    }
    /// Whether a firing of `timer` needs what the owner reads from the pipeline.
    func needsFacts(for timer: Timer) -> Bool { state.needsFacts(for: timer) }
    /// Whether a stream start of `group` is a hand-over the machine prepares the next movie from.
    func needsHandOverFacts(session: Int, group: UInt32) -> Bool {
        state.needsHandOverFacts(session: session, group: group)
    }

    // MARK: - The app's commands

    /// `prepareToPlay()`.
    mutating func prepare() -> Wait { state.prepare() }
    /// `play()`; refused while the player follows a group.
    mutating func play() -> Wait {
        if state.isGrouped { return .done(.failure(State.refusedInGroup("play"))) }
        return state.play()
    }
    /// `pause()`, at `position` (the current one, for a scan that ends); refused while the player
    /// follows a group.
    mutating func pause(position: Duration?) -> Wait {
        if state.isGrouped { return .done(.failure(State.refusedInGroup("pause"))) }
        return state.pause(position: position)
    }
    /// `stop()`.
    mutating func stop() { state.stop() }
    /// The owner let go.
    mutating func release() { state.release() }
    /// The `contentURL`/`source` setters.
    mutating func replaceSource(with source: any MediaSource) { state.replaceSource(with: source) }
    /// `seek(to:option:)`; refused while the player follows a group.
    mutating func seek(to position: Duration, exact: Bool) -> Wait {
        if state.isGrouped { return .done(.failure(State.refusedInGroup("seek"))) }
        return state.seek(to: position, exact: exact)
    }
    /// The `currentPlaybackTime` setter; ignored while the player follows a group.
    mutating func requestSeek(to position: Duration) {
        guard !state.isGrouped else { return }
        state.requestSeek(to: position)
    }
    /// Shows the frame at `position` again in a new output (after a swap while paused).
    mutating func repaint(session: Int, at position: Duration) -> Wait { state.repaint(session: session, at: position) }
    /// `setRate(_:)` with a valid rate, from `position`; refused while the player follows a group.
    mutating func setRate(_ rate: Double, position: Duration?) -> Wait {
        if state.isGrouped { return .done(.failure(State.refusedInGroup("change the rate of"))) }
        return state.setRate(rate, position: position)
    }
    /// `setPlaybackRange(initial:end:)`, validated, from `position`.
    mutating func setPlaybackRange(initial: Duration?, end: Duration?, position: Duration?) {
        state.setPlaybackRange(initial: initial, end: end, position: position)
    }
    /// The `repeatMode` setter, from `position`.
    mutating func setRepeatMode(_ mode: RepeatMode, position: Duration?) {
        state.setRepeatMode(mode, position: position)
    }
    /// `beginSeekingForward()`/`beginSeekingBackward()`; refused while the player follows a group.
    mutating func beginScan(forward: Bool, position: Duration?) -> Result<Void, MediaError> {
        if state.isGrouped { return .failure(State.refusedInGroup("scan with")) }
        return state.beginScan(forward: forward, position: position)
    }
    /// `endSeeking()`.
    mutating func endScan(position: Duration?) { state.endScan(position: position) }
    /// The `volume` setter.
    mutating func setVolume(_ value: Double) { state.setVolume(value) }
    /// The `isMuted` setter.
    mutating func setMuted(_ value: Bool) { state.setMuted(value) }
    /// `selectAudioTrack(_:)`.
    mutating func selectAudioTrack(_ index: Int) -> Result<Void, MediaError> { state.selectAudioTrack(index) }
    /// `selectSubtitleTrack(_:)`.
    mutating func selectSubtitleTrack(_ index: Int?) -> Result<Void, MediaError> {
        state.selectSubtitleTrack(index)
    }
    /// `setVideoSink(_:)`: the swap to perform, if a movie is prepared.
    mutating func chooseVideoSink(_ sink: any VideoSink) -> Result<OutputSwap?, MediaError> {
        state.chooseVideoSink(sink)
    }
    /// Waits for the swap of `session`'s output.
    mutating func awaitOutputSwap(session: Int) -> Wait { state.awaitOutputSwap(session: session) }
    /// Changes the presentation (orientation, scaling, background, view frame, window) and
    /// applies it to the current pipeline.
    mutating func updatePresentation(_ change: (inout VideoPresentation) -> Void) { state.updatePresentation(change) }
    /// The `allowsExternalPlayback` setter.
    mutating func setAllowsExternalPlayback(_ allowed: Bool) { state.settings.allowsExternalPlayback = allowed }
    /// The `shouldAutoplay` setter.
    mutating func setShouldAutoplay(_ value: Bool) { state.settings.shouldAutoplay = value }
    /// The `movieSourceType` hint.
    mutating func setSourceTypeHint(_ hint: MovieSourceType) { state.settings.sourceTypeHint = hint }
    /// The `doneButtonBehavior` setter.
    mutating func setDoneButtonBehavior(_ behavior: DoneButtonBehavior) { state.settings.doneButtonBehavior = behavior }
    /// The controls' Done button, at `position` (``DoneButtonBehavior``).
    mutating func doneButtonPressed(position: Duration?) -> Wait { state.doneButtonPressed(position: position) }
    /// The buffering policy for the next network movie.
    mutating func setBufferingPolicy(_ policy: BufferingPolicy) { state.settings.bufferingPolicy = policy }
    /// `setQueue(_:startingAt:)`.
    mutating func setQueue(_ items: [any MediaSource], startingAt start: Int) -> Result<Void, MediaError> {
        state.setQueue(items, startingAt: start)
    }
    /// `advanceToNextItem()` / `returnToPreviousItem()`.
    mutating func skipInQueue(forward: Bool) -> Bool { state.skipInQueue(forward: forward) }
    /// `insert(_:at:)`.
    mutating func insertInQueue(_ item: any MediaSource, at index: Int) -> Result<Void, MediaError> {
        state.insertInQueue(item, at: index)
    }
    /// `removeItem(at:)`.
    mutating func removeFromQueue(at index: Int) -> Result<Void, MediaError> { state.removeFromQueue(at: index) }
    /// A pre-roll of `items` before the content.
    mutating func beginPreroll(_ items: [any MediaSource], playsContentAfter: Bool, timeout: Duration) -> Wait {
        state.beginPreroll(items, playsContentAfter: playsContentAfter, timeout: timeout)
    }
    /// `skipPreroll()`, at `position`.
    mutating func skipPreroll(position: Duration?) -> Bool { state.skipPreroll(position: position) }
    /// `resumePreroll()`.
    mutating func resumePreroll() { state.resumePreroll() }
    /// Adds a periodic time observer.
    mutating func addPeriodicTimeObserver(every interval: Duration) -> TimeObserver {
        state.addTimeObserver(.periodic(interval))
    }
    /// Adds a boundary time observer.
    mutating func addBoundaryTimeObserver(at times: [Duration]) -> TimeObserver {
        state.addTimeObserver(.boundary(times.sorted()))
    }
    /// Removes a time observer.
    mutating func removeTimeObserver(_ observer: TimeObserver) { state.removeTimeObserver(observer) }
    /// A waiting command's task was cancelled.
    mutating func cancelWaiter(_ id: Int) { state.cancelWaiter(id) }
    /// A pipeline the player let go of is stuck on its way to NULL (``PipelineTeardown``): announced.
    mutating func teardownStalled(element: String, after: Duration) {
        state.publish(.teardownStalled(element: element, after: after))
    }
    /// A thumbnail the app asked for is ready (or failed).
    mutating func thumbnailRequestFinished(_ result: ThumbnailResult) {
        state.publish(.thumbnailRequestFinished(result))
    }
    /// The pre-roll ad's own events (its tracking, its clicks), from the ad source.
    mutating func prerollAdEventOccurred(_ event: PrerollAdEvent) { state.publish(.prerollAd(event)) }

    // MARK: - Playing in a group

    /// The player joins a playback group: its pipelines use the group's clock (held by the
    /// owner) with `latency`; a start it cannot make on time it plans `joinLead` ahead.
    mutating func joinGroup(latency: Duration, joinLead: Duration) {
        state.joinGroup(latency: latency, joinLead: joinLead)
    }
    /// The player leaves its group.
    mutating func leaveGroup() { state.leaveGroup() }
    /// The group's timeline changed: the member follows it.
    mutating func followGroup(_ timeline: PlaybackTimeline, accuracy: SeekPlan.Accuracy) {
        state.followGroup(timeline, accuracy: accuracy)
    }
    /// The group stops at group time `time`.
    mutating func stopWithGroup(at time: Duration) { state.stopWithGroup(at: time) }
    /// The group's time source stopped answering, or answers again.
    mutating func timeSourceReachabilityChanged(_ reachable: Bool) { state.timeSourceReachabilityChanged(reachable) }
    /// ``Action/readGroupClock``: the group clock's time (nil: the player has no group clock).
    mutating func groupClockRead(now: Duration?) { state.groupClockRead(now: now) }

    // MARK: - The player's own window

    /// The window's canvas (the frames' size for a window output) is now `size`.
    mutating func windowCanvasChanged(_ size: VideoSize?) { state.settings.presentation.windowCanvas = size }
    /// The player's own window starts going fullscreen (or back), over `duration`.
    mutating func fullscreenWillChange(entering: Bool, animationDuration: Duration) {
        state.publish(
            entering
                ? .willEnterFullscreen(animationDuration: animationDuration)
                : .willExitFullscreen(animationDuration: animationDuration))
    }
    /// A request for fullscreen was refused (``fullscreenRefusal``): announced, for the setter
    /// and the controls' toggle, which have no caller to throw to.
    mutating func fullscreenRefused(_ error: MediaError) { state.publish(.fullscreenRefused(error)) }
    /// The player's own window fills a screen of `screenSize`, or (nil) is back to its size.
    mutating func fullscreenDidChange(screenSize: VideoSize?) {
        state.settings.presentation.fullscreenSize = screenSize
        state.publish(screenSize != nil ? .didEnterFullscreen : .didExitFullscreen)
    }

    // MARK: - The pipeline

    /// The pipeline of preparation `session` was built; false when a newer one replaced it.
    mutating func pipelineBuilt(session: Int) -> Bool { state.pipelineBuilt(session: session) }
    /// Building or loading the pipeline failed, or the pipeline failed (a refused state change, a
    /// bad window, its source's settings); `error` made precise by the source already.
    mutating func pipelineFailed(session: Int, error: MediaError, position: Duration? = nil) {
        state.pipelineFailed(session: session, error: error, position: position)
    }
    /// The marker of a reload's epoch passed the bus.
    mutating func epochMarkerArrived(session: Int, epoch: Int) {
        state.epochMarkerArrived(session: session, epoch: epoch)
    }
    /// The marker posted just before seek `seqnum` passed the bus.
    mutating func seekMarkerArrived(session: Int, seqnum: UInt32) {
        state.seekMarkerArrived(session: session, seqnum: seqnum)
    }
    /// ASYNC_DONE.
    mutating func asyncDone(session: Int, facts: PipelineFacts) { state.asyncDone(session: session, facts: facts) }
    /// The first frame after a start or a flush reached the video output.
    mutating func firstFrameArrived(
        session: Int, seqnum: UInt32, streamTime: Duration?, displaySize: VideoSize, facts: PipelineFacts
    ) {
        state.firstFrameArrived(
            session: session, seqnum: seqnum, streamTime: streamTime, displaySize: displaySize, facts: facts)
    }
    /// The first frame was held back until the preparation's seek.
    mutating func firstFrameHeld(session: Int) { state.firstFrameHeld(session: session) }
    /// The pipeline settled in PLAYING or PAUSED.
    mutating func pipelineReached(session: Int, playing: Bool) {
        state.pipelineReached(session: session, playing: playing)
    }
    /// SEGMENT_DONE.
    mutating func segmentDone(session: Int) { state.segmentDone(session: session) }
    /// EOS, with the later of the pipeline's position and the last frame's.
    mutating func endOfStream(session: Int, position: Duration?) {
        state.endOfStream(session: session, position: position)
    }
    /// ERROR.
    mutating func pipelineError(session: Int, _ failure: PipelineFailure, position: Duration?) {
        state.pipelineError(session: session, failure, position: position)
    }
    /// A state change failed.
    mutating func stateChangeFailed(session: Int, position: Duration?) {
        state.stateChangeFailed(session: session, position: position)
    }
    /// typefind found the stream's type.
    mutating func streamTypeFound(session: Int, caps: String) { state.streamTypeFound(session: session, caps: caps) }
    /// decodebin chose the video decoder.
    mutating func videoDecoderChosen(session: Int, factory: String) {
        state.videoDecoderChosen(session: session, factory: factory)
    }
    /// A plugin is missing.
    mutating func missingPlugin(session: Int, description: String, caps: String?) {
        state.missingPlugin(session: session, description: description, caps: caps)
    }
    /// DURATION_CHANGED, read from stream group `group`'s own elements.
    mutating func durationChanged(session: Int, group: UInt32? = nil, duration: Duration?) {
        state.durationChanged(session: session, group: group, duration: duration)
    }
    /// Tags reached a sink, at `position`.
    mutating func tagsArrived(session: Int, _ tags: [String: String], position: Duration? = nil) {
        state.tagsArrived(session: session, tags, position: position)
    }
    /// An ID3 tag's items read at `time` in the segment numbered `seqnum`.
    mutating func timedMetadataArrived(
        session: Int, _ items: [TimedMetadataItem], time: Duration, seqnum: UInt32?, position: Duration?
    ) {
        state.timedMetadataArrived(session: session, items, time: time, seqnum: seqnum, position: position)
    }
    /// BUFFERING.
    mutating func buffering(session: Int, percent: Int, stats: BufferingStats) {
        state.buffering(session: session, percent: percent, stats: stats)
    }
    /// An HTTP source's answer (or that none came).
    mutating func httpResponseArrived(session: Int, _ response: HTTPResponse) {
        state.httpResponseArrived(session: session, response)
    }
    /// The adaptive demuxer's manifest, read by the source: its segments' variants.
    mutating func manifestRead(session: Int, variants: SegmentVariants?) {
        state.manifestRead(session: session, variants: variants)
    }
    /// The network source delivered its whole stream.
    mutating func downloadCompleted(session: Int) { state.downloadCompleted(session: session) }
    /// An adaptive demuxer's report.
    mutating func adaptiveStreamingReported(session: Int, _ report: AdaptiveStreamingReport) {
        state.adaptiveStreamingReported(session: session, report)
    }
    /// CLOCK_LOST.
    mutating func clockLost(session: Int) { state.clockLost(session: session) }
    /// The video output moved to another sink.
    mutating func outputSwapped(session: Int) { state.outputSwapped(session: session) }
    /// A stream of group `group` started at the outputs (a gapless hand-over, or the movie's own).
    mutating func contentStreamStarted(session: Int, group: UInt32, facts: PipelineFacts) {
        state.contentStreamStarted(session: session, group: group, facts: facts)
    }
    /// The closed-captions channels found in the video.
    mutating func closedCaptionsFound(session: Int, channels: [ClosedCaptionChannel]) {
        state.closedCaptionsFound(session: session, channels: channels)
    }
    /// playbin's about-to-finish (a streaming thread): the movie to hand over, if any.
    mutating func aboutToFinish(session: Int, gateOpen: Bool) -> (any MediaSource)? {
        state.aboutToFinish(session: session, gateOpen: gateOpen)
    }
    /// An instant rate change reached a sink.
    mutating func instantRateReachedSink(
        session: Int, seqnum: UInt32, multiplier: Double, sink: SinkKind, sinksHaveTimeSegments: Bool
    ) {
        state.instantRateReachedSink(
            session: session, seqnum: seqnum, multiplier: multiplier, sink: sink,
            sinksHaveTimeSegments: sinksHaveTimeSegments)
    }

    // MARK: - What the owner read or did for an action

    /// A timer fired (``Action/startTimer(_:after:repeating:)``), with what the owner read then.
    mutating func timerFired(_ timer: Timer, facts: TimerFacts = TimerFacts()) {
        state.timerFired(timer, facts: facts)
    }
    /// ``Action/readPosition(session:)``.
    mutating func positionRead(session: Int, position: Duration?) {
        state.positionRead(session: session, position: position)
    }
    /// ``Action/settle(session:epoch:within:)``.
    mutating func pipelineSettled(session: Int, epoch: Int, position: Duration?) {
        state.pipelineSettled(session: session, epoch: epoch, position: position)
    }
    /// ``Action/interpret(session:epoch:source:error:position:)``.
    mutating func failureInterpreted(session: Int, epoch: Int, error: MediaError, position: Duration?) {
        state.failureInterpreted(session: session, epoch: epoch, error: error, position: position)
    }
    /// ``Action/readKeyframeTimes(session:epoch:source:)``.
    mutating func keyframeTimesRead(session: Int, epoch: Int, times: [Duration]?) {
        state.keyframeTimesRead(session: session, epoch: epoch, times: times)
    }
    /// ``Action/readLoopTiming(session:seqnum:)``.
    mutating func loopTimingRead(session: Int, seqnum: UInt32, timing: LoopSeekTiming) {
        state.loopTimingRead(session: session, seqnum: seqnum, timing: timing)
    }
    /// The pipeline refused seek `seqnum` (``Action/seek(session:plan:seqnum:)``, ``Action/sendLoop(session:plan:seqnum:)``).
    mutating func seekRefused(session: Int, seqnum: UInt32) { state.seekRefused(session: session, seqnum: seqnum) }
    /// The pipeline refused an instant rate change (``Action/instantRate(session:rate:seqnum:)``).
    mutating func instantRateRefused(session: Int, rate: Double, position: Duration?) {
        state.instantRateRefused(session: session, rate: rate, position: position)
    }

    // MARK: - Validation

    /// Validates a rate: any finite value from 0.25 to 8 times normal speed, forward or backward.
    static func validate(rate: Double) throws(MediaError) {
        if rate == 0 {
            throw MediaError(.invalidArgument, "a playback rate of 0 is not a rate; call pause() to pause")
        }
        guard rate.isFinite, (0.25...8).contains(abs(rate)) else {
            throw MediaError(
                .invalidArgument, "a playback rate must be between 0.25 and 8 (or -8 and -0.25), not \(rate)")
        }
    }

    /// Validates a playback range.
    static func validateRange(initial: Duration?, end: Duration?) throws(MediaError) {
        if let initial, initial < .zero {
            throw MediaError(.invalidArgument, "the initial playback time cannot be negative (\(initial))")
        }
        if let end, end <= .zero {
            throw MediaError(.invalidArgument, "the end playback time must be after the start (\(end))")
        }
        if let initial, let end, end <= initial {
            throw MediaError(
                .invalidArgument, "the end playback time (\(end)) must come after the initial one (\(initial))")
        }
    }
}
