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
    var videoSink: any VideoSink
    var audioOutput: AudioOutput

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
    var sourceType = MovieSourceType.unknown
    var metadata: [String: String] = [:]
    var rate = 1.0
    /// Where playback was when the pipeline last went away (or the end, after the end).
    var lastPosition = Duration.zero
    var lastError: MediaError?

    /// What the bus said about the stream before a failure, for telling errors apart.
    var errorContext = PipelineErrorTranslator()

    var waiters = Waiters()
    var pendingSeek: (seqnum: UInt32, position: Duration)?

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

    mutating func setDuration(_ new: Duration?, _ events: inout [PlayerEvent]) {
        guard let new, duration != new else { return }
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

    mutating func mergeMetadata(_ tags: [String: String], _ events: inout [PlayerEvent]) {
        let merged = metadata.merging(tags) { _, new in new }
        guard merged != metadata else { return }
        metadata = merged
        events.append(.metadataAvailable(merged))
    }

    /// Forgets what was known about the previous movie (a new preparation starts).
    mutating func resetMovieInfo() {
        duration = nil
        naturalSize = .zero
        mediaTypes = []
        metadata = [:]
        lastError = nil
        atEnd = false
        lastPosition = .zero
        errorContext = PipelineErrorTranslator()
        pendingSeek = nil
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
        pendingSeek = nil
        if let error { lastError = error }
        setPlaybackState(.stopped, &events)
        setReadyForDisplay(false, &events)
        setPrepared(false, &events)
        setLoadState(.unknown, &events)
        if let reason { events.append(.playbackDidFinish(reason, error)) }
        failWaiters(error ?? MediaError(.cancelled, "playback was stopped"))
        return session
    }

    /// The pending seek has landed at `position`: announce it and complete every seek waiter
    /// (earlier seeks that a later one replaced complete with it).
    mutating func completeSeeks(at position: Duration, _ events: inout [PlayerEvent]) {
        pendingSeek = nil
        events.append(.seekCompleted(position))
        waiters.resolve(.success(())) { kind in
            if case .seek = kind { return true }
            return false
        }
    }

    // MARK: Waiters

    /// Completes every `play()`/`pause()` still waiting: a later command has replaced them.
    mutating func supersedeStateWaiters() {
        waiters.resolve(.success(())) { kind in
            if case .playbackState = kind { return true }
            return false
        }
    }

    mutating func failWaiters(_ error: MediaError) {
        waiters.resolve(.failure(error)) { _ in true }
    }
}
