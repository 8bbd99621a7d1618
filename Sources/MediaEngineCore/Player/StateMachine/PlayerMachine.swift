/// A player's decisions, as a value: what it knows, and how each input (a command, a pipeline
/// message, a timer) changes that and what must happen next.
///
/// No I/O, no locks, no clocks: every method is `mutating`, named after its input, and appends
/// the events to publish and the ``Action``s to perform to ``output``, which the owner takes
/// with ``takeOutput()`` after each input. The owner (``PlayerCore``) feeds inputs under its one
/// lock, publishes the events under that lock (one order for every subscriber), and performs
/// the pipeline actions on the player's own thread in the order they were returned. Tests feed
/// inputs and check the output without GStreamer (`PlayerMachineTests`).
///
/// Pipelines are known by their preparation number (`session`): an input about a pipeline that
/// is no longer the current one is ignored.
struct PlayerMachine {
    enum Phase: Equatable {
        /// No pipeline.
        case idle
        /// A pipeline is being built or loaded and has not prerolled yet.
        case preparing
        /// The movie's first frame is ready; commands act on the pipeline at once.
        case prepared
    }

    /// What the app asked the pipeline to do once prepared.
    enum Target: Equatable {
        case paused, playing
    }

    // MARK: Configuration

    var source: any MediaSource
    var videoSink: any VideoSink {
        didSet { videoSinkChanged = true }
    }
    var audioOutput: AudioOutput
    /// Set when the app picks another sink: the next movie needs a new pipeline.
    var videoSinkChanged = false
    var shouldAutoplay = true
    var allowsExternalPlayback = true
    var presentation = VideoPresentation()
    var repeatMode = RepeatMode.none
    var bufferingPolicy = BufferingPolicy()
    var initialPlaybackTime: Duration?
    var endPlaybackTime: Duration?
    /// The rate the app asked for (never 0; 0 means paused and is not stored).
    var rate = 1.0
    /// The sound's volume, 0...1, and whether it is muted.
    var volume = 1.0
    var isMuted = false

    // MARK: What the app sees

    var playbackState = PlaybackState.stopped
    var loadState = LoadState.unknown
    var isPreparedToPlay = false
    var readyForDisplay = false
    var duration: Duration?
    var naturalSize = VideoSize.zero
    var mediaTypes: MovieMediaTypes = []
    /// The movie's audio and subtitle tracks, and the audio track playing.
    var audioTracks: [MediaTrack] = []
    var subtitleTracks: [MediaTrack] = []
    /// The subtitle tracks of the container (playbin's text streams), the first of
    /// ``subtitleTracks``; the closed-captions channels the video carries follow them.
    var streamSubtitleTracks: [MediaTrack] = []
    /// The closed-captions channels found in the video, in the order they were found (so a
    /// track's index never changes once announced).
    var closedCaptionChannels: [ClosedCaptionChannel] = []
    var currentAudioTrack: Int?
    /// An audio track chosen while the movie was not playing, switched to when it plays
    /// (``PlayerMachine/selectAudioTrack(_:)``).
    var deferredAudioTrack: Int?
    /// The subtitle track drawn over the movie, by index; nil for none (the default).
    var currentSubtitleTrack: Int?
    /// The factory name of the element decoding the video, once decodebin chose it.
    var videoDecoder: String?
    var sourceType = MovieSourceType.unknown
    /// The app's `movieSourceType` hint: when not `.unknown`, the source type every movie reports
    /// from its preparation on, which the stream's detected type does not override.
    var sourceTypeHint = MovieSourceType.unknown
    var metadata: [String: String] = [:]
    /// Timed metadata read from the stream: what waits for its time, and what was handed out last.
    var timedMetadata = TimedMetadataQueue()
    /// The stream is an ICY (Shoutcast) stream: its title tag is its StreamTitle.
    var isICYStream = false
    /// Where playback was when the pipeline last went away (or the end, after the end).
    var lastPosition = Duration.zero
    var lastError: MediaError?
    /// The movie's file is cut short: how much of it is present (announced when prepared).
    var truncation: MovieTruncation?

    // MARK: The pipeline

    var phase = Phase.idle
    var target = Target.paused
    /// Grows with every preparation; the current pipeline's number.
    private(set) var sessionID = 0
    /// Whether the pipeline of ``sessionID`` exists (it has been built and installed).
    private(set) var hasSession = false
    /// Set at the end of the movie; `play()` then starts again from the beginning.
    var atEnd = false
    /// `pause()` was called during preparation: the prepared movie reports `.paused`.
    var pauseWhenPrepared = false
    /// The rate of the segment the pipeline is playing now (set by the last seek or rate change).
    var segmentRate = 1.0
    /// Whether the pipeline's segment was started with the SEGMENT flag, so that it ends with
    /// SEGMENT_DONE (and can be restarted without a gap) rather than EOS.
    var looping = false
    /// Passes completed in repeat mode since the movie started.
    var loops = 0
    /// Bumped when the pipeline is reused for another movie; messages before the marker of the
    /// current epoch belong to the previous movie.
    var epoch = 0
    var epochSeen = 0
    /// What the bus said about the stream before a failure, for telling errors apart.
    var errorContext = PipelineErrorTranslator()
    /// The source was asked to answer an authentication challenge for this movie (only once).
    var authenticationAnswered = false
    /// The reconnection under way after a failure that may pass, or the last one (its count of
    /// tries); nil for a movie that has not failed.
    var reconnection: Reconnection?
    /// The network buffer's last report: how full (100: enough to play) and how fast it fills;
    /// nil until the first (local files never report).
    var buffering: (percent: Int, stats: BufferingStats)?
    /// Buffering has reached its start threshold once; from then on it ends at the resume one.
    var bufferedOnce = false
    /// The network source delivered the whole movie: it can play through, whatever follows.
    var downloadComplete = false
    /// A buffering dip paused the pipeline and no play has been sent since: a PLAYING the
    /// pipeline reports now was reached before that pause (a play is reported twice, by the play
    /// action and by the bus) and must not end the stall, or the 100 % that follows would find
    /// the movie `playing` and never send the play the paused pipeline needs.
    var pausedForBuffering = false
    /// Which variant each segment of an adaptive stream belongs to, read from its manifest by
    /// the source (``AdaptiveManifestReading``), for demuxers that do not report their switches.
    var segmentVariants: SegmentVariants?
    /// The variant of the last segment downloaded, as ``segmentVariants`` tells it.
    var segmentVariant: SegmentVariant?

    // MARK: Seeks, scans, waiting commands

    /// The seek sent to the pipeline and not landed yet.
    var inFlightSeek: InFlightSeek?
    /// A seek asked for while another was in flight: the latest one replaces any earlier, so a
    /// scrubbing user's seeks coalesce and only the last lands.
    var queuedSeek: QueuedSeek?
    /// Scanning (`beginSeekingForward()`): the state and rate to return to.
    var scan: Scan?
    /// The queue of movies (``setQueue(_:startingAt:)``), the item playing, whether the next is
    /// queued in the pipeline, and the stream group of the movie playing.
    var queue: [any MediaSource] = []
    /// Each queue item's id (``UpNext``), in the queue's order.
    var queueIDs: [Int] = []
    var queueIndex: Int?
    /// Where ids for ``UpNext`` items come from.
    var lastItemID = 0
    var queuedGapless = false
    /// The stream group at the output: the movie's (a queue's item's) whose stream start the
    /// bus reported last. Durations are taken only from elements of this group.
    var contentGroup: UInt32?
    /// The pre-roll playing before the content (``beginPreroll(_:playsContentAfter:timeout:observer:)``).
    var preroll: Preroll?
    /// How the last pre-roll ended.
    var lastPrerollEnd: PrerollEnd?
    /// Commands waiting for an outcome.
    private(set) var waiters: [(id: Int, kind: WaiterKind)] = []
    private var nextWaiterID = 0
    /// Where seek sequence numbers come from (GStreamer's global counter, in the engine).
    private let nextSeqnum: @Sendable () -> UInt32

    private(set) var output = Output()

    init(
        source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput,
        seqnums: @escaping @Sendable () -> UInt32
    ) {
        self.source = source
        self.videoSink = videoSink
        self.audioOutput = audioOutput
        self.videoSinkChanged = false
        nextSeqnum = seqnums
    }

    /// The events and actions of the inputs since the last call.
    mutating func takeOutput() -> Output {
        defer { output = Output() }
        return output
    }

    /// Whether `session` is the pipeline the player has now.
    func isCurrent(_ session: Int) -> Bool {
        hasSession && session == sessionID
    }

    /// The current pipeline's number, if there is one.
    var currentSession: Int? {
        hasSession ? sessionID : nil
    }

    // MARK: Output

    /// Publishes an event; one that says playback started, stopped, moved or changed speed also
    /// re-arms the time observers.
    mutating func publish(_ event: PlayerEvent) {
        output.events.append(event)
        if event.changesPlayback { perform(.rearmTimeObservers) }
    }

    mutating func perform(_ action: Action) {
        // Every seek reaches the pipeline through here: the timed metadata read before it may be stale.
        if case .seek(_, let plan, let seqnum) = action { timedMetadataSeekSent(seqnum: seqnum, plan: plan) }
        // An audio track chosen while paused is switched to just before the pipeline plays.
        if case .play(let session) = action, session == sessionID, let track = deferredAudioTrack {
            deferredAudioTrack = nil
            output.actions.append(.selectAudioTrack(session: session, track))
        }
        if case .play = action { pausedForBuffering = false }
        output.actions.append(action)
    }

    // MARK: Changes that publish events

    mutating func setPlaybackState(_ new: PlaybackState) {
        guard playbackState != new else { return }
        playbackState = new
        publish(.playbackStateChanged(new))
        resolveWaiters(.playbackState(new))
    }

    mutating func setLoadState(_ new: LoadState) {
        guard loadState != new else { return }
        loadState = new
        publish(.loadStateChanged(new))
    }

    mutating func setPrepared(_ new: Bool) {
        guard isPreparedToPlay != new else { return }
        isPreparedToPlay = new
        publish(.preparedToPlayChanged(new))
    }

    mutating func setReadyForDisplay(_ new: Bool) {
        guard readyForDisplay != new else { return }
        readyForDisplay = new
        publish(.readyForDisplayChanged(new))
    }

    /// Revisions of a duration smaller than this are a demuxer's rounding (Matroska revises
    /// 1.000 s to 1.000333 s at the end, counting the last frame's length), not a new duration.
    static let durationRevisionThreshold = Duration.milliseconds(50)

    /// Keeps and announces the duration: once, unless it really changes (by at least
    /// ``durationRevisionThreshold``).
    mutating func setDuration(_ new: Duration?) {
        guard let new else { return }
        if let duration, abs((new - duration) / .nanoseconds(1)) < Self.durationRevisionThreshold / .nanoseconds(1) {
            return
        }
        duration = new
        publish(.durationAvailable(new))
    }

    mutating func setNaturalSize(_ new: VideoSize) {
        guard naturalSize != new, new != .zero else { return }
        naturalSize = new
        publish(.naturalSizeAvailable(new))
    }

    mutating func setMediaTypes(_ new: MovieMediaTypes) {
        guard mediaTypes != new else { return }
        mediaTypes = new
        publish(.mediaTypesAvailable(new))
    }

    /// The source type a movie starts with: the app's hint, else what its source says.
    var expectedSourceType: MovieSourceType {
        sourceTypeHint != .unknown ? sourceTypeHint : source.sourceType
    }

    mutating func setSourceType(_ new: MovieSourceType) {
        guard sourceType != new else { return }
        sourceType = new
        publish(.sourceTypeAvailable(new))
    }

    mutating func setRateAsked(_ new: Double) {
        guard rate != new else { return }
        rate = new
        publish(.playbackRateChanged(new))
    }

    /// Keeps the movie's tags. During preparation they are only collected (one event announces
    /// them when preparation ends); afterwards a change announces them again, unless only the
    /// running bitrate estimates moved.
    mutating func mergeMetadata(_ tags: [String: String]) {
        let merged = metadata.merging(tags) { _, new in new }
        guard merged != metadata else { return }
        let volatile: Set<String> = ["bitrate", "minimum-bitrate", "maximum-bitrate", "nominal-bitrate"]
        let meaningful = merged.keys.contains { !volatile.contains($0) && merged[$0] != metadata[$0] }
        metadata = merged
        if phase == .prepared && meaningful { publish(.metadataAvailable(merged)) }
    }

    // MARK: Sessions

    /// Starts a new preparation: a new session number, the previous movie's facts forgotten.
    /// Returns the new number.
    mutating func beginSession() -> Int {
        sessionID += 1
        hasSession = false
        phase = .preparing
        pauseWhenPrepared = false
        videoSinkChanged = false
        epoch = 0
        epochSeen = 0
        resetMovieInfo()
        setSourceType(expectedSourceType)
        return sessionID
    }

    /// The pipeline of preparation `session` was built: it becomes the player's, unless a newer
    /// preparation or a stop replaced it meanwhile (then the owner closes it). Returns whether
    /// it was installed.
    mutating func pipelineBuilt(session: Int) -> Bool {
        guard session == sessionID, phase == .preparing, !hasSession else { return false }
        hasSession = true
        perform(.scheduleTimeout(session: session, epoch: epoch))
        return true
    }

    /// Forgets what was known about the previous movie (a new preparation starts).
    mutating func resetMovieInfo() {
        duration = nil
        naturalSize = .zero
        mediaTypes = []
        audioTracks = []
        subtitleTracks = []
        streamSubtitleTracks = []
        closedCaptionChannels = []
        currentAudioTrack = nil
        deferredAudioTrack = nil
        if currentSubtitleTrack != nil {
            currentSubtitleTrack = nil
            perform(.selectSubtitleTrack(session: sessionID, nil))
        }
        videoDecoder = nil
        metadata = [:]
        if timedMetadata.reset() { publish(.timedMetadataChanged([])) }
        isICYStream = false
        lastError = nil
        truncation = nil
        atEnd = false
        lastPosition = .zero
        errorContext = PipelineErrorTranslator()
        authenticationAnswered = false
        reconnection = nil
        buffering = nil
        bufferedOnce = false
        downloadComplete = false
        pausedForBuffering = false
        segmentVariants = nil
        segmentVariant = nil
        contentGroup = nil
        queuedGapless = false
        inFlightSeek = nil
        queuedSeek = nil
        looping = false
        loops = 0
        segmentRate = 1.0
    }

    /// Ends the current pipeline (if any) and returns the player to idle, publishing what an app
    /// sees change; the pipeline is closed on the player's thread.
    mutating func detachSession(finish reason: FinishReason?, error: MediaError?, position: Duration?) {
        if preroll != nil { finishPreroll(.stopped, at: preroll?.position) }
        if hasSession { perform(.close(session: sessionID)) }
        hasSession = false
        if let position { lastPosition = position }
        phase = .idle
        target = .paused
        pauseWhenPrepared = false
        atEnd = false
        inFlightSeek = nil
        queuedSeek = nil
        reconnection = nil
        looping = false
        if scan != nil {
            scan = nil
            perform(.cancelScanTimer)
        }
        if let error { lastError = error }
        setPlaybackState(.stopped)
        setReadyForDisplay(false)
        setPrepared(false)
        setLoadState(.unknown)
        if timedMetadata.reset() { publish(.timedMetadataChanged([])) }
        if let reason { publish(.playbackDidFinish(reason, error)) }
        failWaiters(error ?? MediaError(.cancelled, "playback was stopped"))
        perform(.rearmTimeObservers)
    }

    // MARK: Waiters

    /// What a waiting command waits for.
    enum WaiterKind: Equatable, Sendable {
        /// The end of a preparation.
        case prepared
        /// The playback state reaching this value.
        case playbackState(PlaybackState)
        /// Every seek asked for so far has landed (coalesced seeks land with the last one).
        case seeksSettled
        /// The video output was swapped for another.
        case outputSwapped
        /// The pre-roll ended (``lastPrerollEnd`` says how).
        case prerollEnded
    }

    /// Registers a waiter; it is completed by a ``Action/resume(waiter:_:)`` exactly once.
    mutating func addWaiter(_ kind: WaiterKind) -> Int {
        nextWaiterID += 1
        waiters.append((nextWaiterID, kind))
        return nextWaiterID
    }

    /// Completes every waiter `matches` selects with `result`.
    mutating func resolveWaiters(_ result: Result<Void, MediaError>, where matches: (WaiterKind) -> Bool) {
        var kept: [(id: Int, kind: WaiterKind)] = []
        for waiter in waiters {
            if matches(waiter.kind) {
                perform(.resume(waiter: waiter.id, result))
            } else {
                kept.append(waiter)
            }
        }
        waiters = kept
    }

    /// Completes every waiter of exactly this kind.
    mutating func resolveWaiters(_ kind: WaiterKind, _ result: Result<Void, MediaError> = .success(())) {
        resolveWaiters(result) { $0 == kind }
    }

    /// Fails one waiter with ``MediaError/Code/cancelled`` (its task was cancelled).
    mutating func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index)
        perform(.resume(waiter: id, .failure(MediaError(.cancelled, "the waiting task was cancelled"))))
    }

    /// Completes every `play()`/`pause()` still waiting: a later command has replaced them.
    mutating func supersedeStateWaiters() {
        resolveWaiters(.success(())) { kind in
            if case .playbackState = kind { return true }
            return false
        }
    }

    mutating func resolveSeekWaiters(_ result: Result<Void, MediaError> = .success(())) {
        resolveWaiters(result) { $0 == .seeksSettled }
    }

    mutating func failWaiters(_ error: MediaError) {
        resolveWaiters(.failure(error)) { _ in true }
    }

    // MARK: Positions

    /// A plan that goes to `position` with the player's current range, rate and repeat mode.
    func plan(to position: Duration, accuracy: SeekPlan.Accuracy, rate: Double? = nil) -> SeekPlan {
        // A looping segment states its end: GStreamer starts the next pass's running time where
        // the segment's position stands, which is the end only when the segment has one
        // (otherwise it is the last frame's start, and the pass would begin a frame early).
        let looping = repeatMode == .one
        return SeekPlan(
            position: position, rate: rate ?? self.rate, accuracy: accuracy, flush: true, looping: looping,
            rangeStart: initialPlaybackTime, rangeEnd: playbackEnd ?? (looping ? duration : nil))
    }

    /// Where a movie starts: its initial playback time, or its end when playing backwards.
    var startPosition: Duration {
        if isReconnecting, let resumeAt = reconnection?.resumeAt { return resumeAt }
        return rate >= 0 ? (initialPlaybackTime ?? .zero) : (playbackEnd ?? duration ?? .zero)
    }

    /// Where a movie ends in the direction it plays: its end (or end playback time) forward, its
    /// initial playback time (or start) backward.
    var endPosition: Duration {
        rate >= 0 ? (playbackEnd ?? duration ?? .zero) : (initialPlaybackTime ?? .zero)
    }

    /// A position kept inside the movie and the playback range.
    func clamp(_ position: Duration) -> Duration {
        var clamped = position
        if let end = playbackEnd ?? duration { clamped = min(clamped, end) }
        return max(clamped, .zero)
    }

    /// Whether the movie needs a seek after its first preroll: a playback range, repeat mode or
    /// a rate other than 1 all live in the pipeline's segment, which only a seek sets.
    var needsPreparationSeek: Bool {
        initialPlaybackTime != nil || playbackEnd != nil || repeatMode == .one || rate != 1
            || isReconnecting && (reconnection?.resumeAt ?? .zero) > .zero
    }

    /// How far before its announced duration a movie may end and still count as complete:
    /// a frame or two of rounding, audio priming, an estimated duration.
    static func truncationTolerance(for duration: Duration) -> Duration {
        max(.milliseconds(500), duration / 50)
    }

    func makeSeqnum() -> UInt32 { nextSeqnum() }

    /// A new id for a movie the pipeline may go on to (``UpNext``).
    mutating func makeItemID() -> Int {
        lastItemID += 1
        return lastItemID
    }
}

extension PlayerMachine {
    /// The decision state in one line, for diagnosing a stuck player (the stress check prints it).
    var diagnostics: String {
        "phase \(phase), target \(target), state \(playbackState), session \(sessionID)"
            + "\(hasSession ? "" : " (none)"), epoch \(epochSeen)/\(epoch), atEnd \(atEnd), "
            + "seek in flight \(inFlightSeek.map { "\($0.purpose) #\($0.seqnum) landing \(String(describing: $0.landing))" } ?? "none"), "
            + "queued \(queuedSeek != nil), waiters \(waiters.map(\.kind)), "
            + "preroll \(preroll.map { $0.started ? "started" : "loading" } ?? "none"), "
            + "reconnection \(reconnection.map { "\($0.attempt)\($0.underWay ? " under way" : "")" } ?? "none")"
    }
}
