/// Everything a ``PlayerCore`` knows, kept behind its one lock. Methods that change what an
/// app can observe append the matching events, so a change and its event cannot drift apart.
struct PlayerState {
    enum Phase: Equatable {
        case idle, preparing, prepared
    }

    /// What the app asked the pipeline to do once prepared.
    enum Target: Equatable {
        case paused, playing
    }

    var source: any MediaSource
    var videoSink: any VideoSink {
        didSet { videoSinkChanged = true }
    }
    var audioOutput: AudioOutput
    /// Set when the app picks another sink: the next movie needs a new pipeline.
    var videoSinkChanged = false

    var session: PipelineSession?
    /// Grows with every preparation, so messages of an older pipeline are recognised and ignored.
    var sessionID = 0
    var phase = Phase.idle
    var target = Target.paused
    /// Set at the end of the movie; `play()` then starts again from the beginning.
    var atEnd = false

    var playbackState = PlaybackState.stopped
    var loadState = LoadState.unknown
    var isPreparedToPlay = false
    var readyForDisplay = false
    var duration: Duration?
    var naturalSize = VideoSize.zero
    var mediaTypes: MovieMediaTypes = []
    /// The factory name of the element decoding the video, once decodebin chose it.
    var videoDecoder: String?
    var sourceType = MovieSourceType.unknown
    var metadata: [String: String] = [:]
    /// The rate the app asked for (never 0; 0 means paused and is not stored).
    var rate = 1.0
    /// The rate of the segment the pipeline is playing now (set by the last seek or rate change).
    var segmentRate = 1.0
    /// Where playback was when the pipeline last went away (or the end, after the end).
    var lastPosition = Duration.zero
    var lastError: MediaError?

    var shouldAutoplay = true
    var allowsExternalPlayback = true
    var presentation = VideoPresentation()
    /// The window the player opened for a window sink (when the app gave it none).
    var ownWindow: PlayerWindow?
    /// The own window's frame before it went fullscreen.
    var windowedFrame: ViewRect?
    var repeatMode = RepeatMode.none
    var initialPlaybackTime: Duration?
    var endPlaybackTime: Duration?
    /// Whether the pipeline's segment was started with the SEGMENT flag, so that it ends with
    /// SEGMENT_DONE (and can be restarted without a gap) rather than EOS.
    var looping = false
    /// Passes completed in repeat mode since the movie started.
    var loops = 0
    /// Scanning (`beginSeekingForward()`): the state and rate to return to, and the timer that raises the rate.
    var scan: Scan?

    /// What the bus said about the stream before a failure, for telling errors apart.
    var errorContext = PipelineErrorTranslator()

    var waiters = Waiters()
    /// The seek sent to the pipeline and not landed yet.
    var inFlightSeek: InFlightSeek?
    /// A seek asked for while another was in flight: the latest one replaces any earlier, so a
    /// scrubbing user's seeks coalesce and only the last lands.
    var queuedSeek: QueuedSeek?

    /// A seek waiting for the one in flight to land.
    struct QueuedSeek {
        var plan: SeekPlan
        let purpose: InFlightSeek.Purpose
    }
    /// Bumped when the pipeline is reused for another movie; messages before the marker of the
    /// current epoch belong to the previous movie.
    var epoch = 0
    var epochSeen = 0

    /// A seek in flight and why it was sent.
    struct InFlightSeek {
        enum Purpose { case user, preparation, loop, rate }
        let seqnum: UInt32
        let plan: SeekPlan
        let purpose: Purpose
        /// Where the seek's first frame is, once it has reached the video output.
        var landing: Duration?
        /// An ASYNC_DONE came before the first frame's message: the frame lands the seek at once.
        var prerolled = false
        /// The segment's rate and looping before this seek, restored if the pipeline refuses it.
        var previousSegment: (rate: Double, looping: Bool)
    }

    /// An ongoing scan and what to return to.
    struct Scan {
        let forward: Bool
        let previousState: PlaybackState
        let previousRate: Double
        let timer: ScanTimer
        /// Index into ``PlayerCore/scanRates``.
        var level = 0
    }

    init(source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput) {
        self.source = source
        self.videoSink = videoSink
        self.audioOutput = audioOutput
    }

    /// The session with this id, if it is still the current one.
    func session(_ id: Int) -> PipelineSession? {
        session?.id == id ? session : nil
    }

    // MARK: Changes that publish events

    mutating func setPlaybackState(_ new: PlaybackState, _ events: inout [PlayerEvent]) {
        guard playbackState != new else { return }
        playbackState = new
        events.append(.playbackStateChanged(new))
        waiters.resolve(.playbackState(new))
    }

    mutating func setLoadState(_ new: LoadState, _ events: inout [PlayerEvent]) {
        guard loadState != new else { return }
        loadState = new
        events.append(.loadStateChanged(new))
    }

    mutating func setPrepared(_ new: Bool, _ events: inout [PlayerEvent]) {
        guard isPreparedToPlay != new else { return }
        isPreparedToPlay = new
        events.append(.preparedToPlayChanged(new))
    }

    mutating func setReadyForDisplay(_ new: Bool, _ events: inout [PlayerEvent]) {
        guard readyForDisplay != new else { return }
        readyForDisplay = new
        events.append(.readyForDisplayChanged(new))
    }

    /// Revisions of a duration smaller than this are a demuxer's rounding (Matroska revises
    /// 1.000 s to 1.000333 s at the end, counting the last frame's length), not a new duration.
    static let durationRevisionThreshold = Duration.milliseconds(50)

    /// Keeps and announces the duration: once, unless it really changes (by at least
    /// ``durationRevisionThreshold``).
    mutating func setDuration(_ new: Duration?, _ events: inout [PlayerEvent]) {
        guard let new else { return }
        if let duration, abs((new - duration) / .nanoseconds(1)) < Self.durationRevisionThreshold / .nanoseconds(1) {
            return
        }
        duration = new
        events.append(.durationAvailable(new))
    }

    mutating func setNaturalSize(_ new: VideoSize, _ events: inout [PlayerEvent]) {
        guard naturalSize != new, new != .zero else { return }
        naturalSize = new
        events.append(.naturalSizeAvailable(new))
    }

    mutating func setMediaTypes(_ new: MovieMediaTypes, _ events: inout [PlayerEvent]) {
        guard mediaTypes != new else { return }
        mediaTypes = new
        events.append(.mediaTypesAvailable(new))
    }

    mutating func setSourceType(_ new: MovieSourceType, _ events: inout [PlayerEvent]) {
        guard sourceType != new else { return }
        sourceType = new
        events.append(.sourceTypeAvailable(new))
    }

    /// Keeps the movie's tags. During preparation they are only collected (one event announces
    /// them when preparation ends); afterwards a change announces them again, unless only the
    /// running bitrate estimates moved.
    mutating func mergeMetadata(_ tags: [String: String], _ events: inout [PlayerEvent]) {
        let merged = metadata.merging(tags) { _, new in new }
        guard merged != metadata else { return }
        let volatile: Set<String> = ["bitrate", "minimum-bitrate", "maximum-bitrate", "nominal-bitrate"]
        let meaningful = merged.keys.contains { !volatile.contains($0) && merged[$0] != metadata[$0] }
        metadata = merged
        if phase == .prepared && meaningful { events.append(.metadataAvailable(merged)) }
    }

    /// Forgets what was known about the previous movie (a new preparation starts).
    mutating func resetMovieInfo() {
        duration = nil
        naturalSize = .zero
        mediaTypes = []
        videoDecoder = nil
        metadata = [:]
        lastError = nil
        atEnd = false
        lastPosition = .zero
        errorContext = PipelineErrorTranslator()
        inFlightSeek = nil
        queuedSeek = nil
        looping = false
        loops = 0
        segmentRate = 1.0
    }

    /// Takes the session away and returns the player to idle, publishing what an app sees
    /// change. The caller closes the returned session outside the lock.
    mutating func detachSession(
        finish reason: FinishReason?, error: MediaError?, position: Duration?, _ events: inout [PlayerEvent]
    ) -> PipelineSession? {
        let session = self.session
        if let position { lastPosition = position }
        self.session = nil
        phase = .idle
        target = .paused
        atEnd = false
        inFlightSeek = nil
        queuedSeek = nil
        looping = false
        scan?.timer.cancel()
        scan = nil
        if let error { lastError = error }
        setPlaybackState(.stopped, &events)
        setReadyForDisplay(false, &events)
        setPrepared(false, &events)
        setLoadState(.unknown, &events)
        if let reason { events.append(.playbackDidFinish(reason, error)) }
        failWaiters(error ?? MediaError(.cancelled, "playback was stopped"))
        return session
    }

    /// A plan that goes to `position` with the player's current range, rate and repeat mode.
    func plan(to position: Duration, accuracy: SeekPlan.Accuracy, rate: Double? = nil) -> SeekPlan {
        // A looping segment states its end: GStreamer starts the next pass's running time where
        // the segment's position stands, which is the end only when the segment has one
        // (otherwise it is the last frame's start, and the pass would begin a frame early).
        let looping = repeatMode == .one
        return SeekPlan(
            position: position, rate: rate ?? self.rate, accuracy: accuracy, flush: true, looping: looping,
            rangeStart: initialPlaybackTime, rangeEnd: endPlaybackTime ?? (looping ? duration : nil))
    }

    /// Where a movie starts: its initial playback time, or its end when playing backwards.
    var startPosition: Duration {
        rate >= 0 ? (initialPlaybackTime ?? .zero) : (endPlaybackTime ?? duration ?? .zero)
    }

    // MARK: Waiters

    /// Completes every `play()`/`pause()` still waiting: a later command has replaced them.
    mutating func supersedeStateWaiters() {
        waiters.resolve(.success(())) { kind in
            if case .playbackState = kind { return true }
            return false
        }
    }

    mutating func resolveSeekWaiters(_ result: Result<Void, MediaError> = .success(())) {
        waiters.resolve(result) { $0 == .seeksSettled }
    }

    mutating func failWaiters(_ error: MediaError) {
        waiters.resolve(.failure(error)) { _ in true }
    }
}

extension PlayerState {
    /// The decision state in one line, for diagnosing a stuck player (the stress check prints it).
    var diagnostics: String {
        "phase \(phase), target \(target), state \(playbackState), session \(sessionID)"
            + "\(session == nil ? " (none)" : ""), epoch \(epochSeen)/\(epoch), atEnd \(atEnd), "
            + "seek in flight \(inFlightSeek.map { "\($0.purpose) #\($0.seqnum) landing \(String(describing: $0.landing))" } ?? "none"), "
            + "queued \(queuedSeek != nil), waiters \(waiters.kinds)"
    }
}
