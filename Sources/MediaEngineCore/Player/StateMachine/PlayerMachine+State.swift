extension PlayerMachine {
    /// Where the player is with its pipeline, as its owner and tests read it.
    enum Phase: Equatable, Sendable {
        /// No pipeline.
        case idle
        /// A pipeline is being built or loaded and its movie has not prerolled yet.
        case preparing
        /// The movie's first frame is ready; commands act on the pipeline at once.
        case prepared
    }

    /// What the app asked the pipeline to do once prepared.
    enum Target: Equatable, Sendable {
        case paused, playing
    }

    /// Everything the machine knows. ``PlayerMachine`` holds it privately: it changes only through
    /// the machine's inputs, which are written as methods of this type in the `PlayerMachine+*`
    /// files, and nothing outside the machine can write it.
    ///
    /// It is kept by lifetime, so that what belongs together comes and goes together:
    /// - ``settings``: what the app chose (source, sink, rate, range, volume...), kept across movies;
    /// - ``shown``: the state the app sees (playback and load states, position, last error);
    /// - ``facts``: what is known of the current movie (duration, size, tracks, tags), from its
    ///   preparation until the next movie;
    /// - ``lifecycle``: no pipeline, or a ``Pipeline`` with its phase (``Stage``), the movie loaded in
    ///   it (``LoadedMovie``: its seeks, network state, failure in progress) and the pre-roll
    ///   playing in it. None of that exists without a pipeline;
    /// - the queue of movies, the commands waiting, the time observers.
    struct State {
        typealias Action = PlayerMachine.Action
        typealias Wait = PlayerMachine.Wait
        typealias PipelineFacts = PlayerMachine.PipelineFacts
        typealias PipelineBuild = PlayerMachine.PipelineBuild
        typealias Output = PlayerMachine.Output
        typealias Timer = PlayerMachine.Timer
        typealias TimerFacts = PlayerMachine.TimerFacts
        typealias SourceRef = PlayerMachine.SourceRef
        typealias SinkKind = PlayerMachine.SinkKind
        typealias Completion = PlayerMachine.Completion
        typealias Phase = PlayerMachine.Phase
        typealias Target = PlayerMachine.Target
        typealias WaiterKind = PlayerMachine.WaiterKind
        typealias OutputSwap = PlayerMachine.OutputSwap
        typealias PrerollObserver = PlayerMachine.PrerollObserver

        var settings: Settings
        var shown = Shown()
        var facts = MovieFacts()
        var lifecycle = Lifecycle.idle
        /// The number of the last preparation (the current pipeline's, while there is one).
        private(set) var sessionID = 0
        var queue = MovieQueue()
        var waiters = Waiters()
        var observers = TimeObserverTable()
        /// The playback group the player follows, if any (``PlayerMachine/Membership``).
        var group: PlayerMachine.Membership?
        /// The timed metadata timer is armed (so a playback change that leaves nothing waiting
        /// cancels it).
        var timedMetadataArmed = false
        /// An input asked for a look at the position (``requestPositionLook()``); done once, at its end.
        var positionLookRequested = false
        var output = Output()
        /// Where seek sequence numbers come from (GStreamer's global counter, in the engine).
        let nextSeqnum: @Sendable () -> UInt32
        /// How long a preparation, or a flushing seek, may take.
        let preparationTimeout: Duration
        /// The GStreamer bugs the machine decides around.
        let workarounds: PlayerMachine.Workarounds

        init(
            settings: Settings, preparationTimeout: Duration, workarounds: PlayerMachine.Workarounds,
            seqnums: @escaping @Sendable () -> UInt32
        ) {
            self.settings = settings
            self.preparationTimeout = preparationTimeout
            self.workarounds = workarounds
            nextSeqnum = seqnums
        }

        /// A new preparation's number.
        mutating func makeSessionID() -> Int {
            sessionID += 1
            return sessionID
        }
    }

    /// The GStreamer bugs some of the machine's decisions work around, as the registry of
    /// workarounds decided them for the running GStreamer (`GStreamerWorkaround`), read once when
    /// the player is made and handed in: the machine itself asks nothing of GStreamer.
    struct Workarounds: Sendable, Equatable {
        /// "keyunit-seek-snap": a forward keyframe seek goes as an exact seek to the video keyframe
        /// (qtdemux snaps a KEY_UNIT seek to any stream's keyframe). Off: it goes as asked
        /// (WorkaroundReproductionTests' keyunit-seek-snap test, engine-workaround-check forced off
        /// and on: a keyframe seek to 4.002 s of an MP4 with AAC lands at 3.993832 s, an audio
        /// frame's start, off; on the keyframe at 4 s, on).
        var snapsKeyframeSeeks = true
        /// "paused-audio-switch": an audio track chosen while not playing is switched to just
        /// before the movie plays (switching while PAUSED deadlocks the next flushing seek). Off:
        /// at once (WorkaroundReproductionTests' paused-audio-switch test, engine-workaround-check
        /// forced off and on: the seek after the switch never returns off; lands on).
        var defersPausedAudioSwitch = true

        /// Every workaround on: the engine on GStreamer 1.22.
        init(snapsKeyframeSeeks: Bool = true, defersPausedAudioSwitch: Bool = true) {
            self.snapsKeyframeSeeks = snapsKeyframeSeeks
            self.defersPausedAudioSwitch = defersPausedAudioSwitch
        }
    }

    /// What the app chose; kept for every movie.
    struct Settings {
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
        /// The app's `movieSourceType` hint: when not `.unknown`, the source type every movie reports
        /// from its preparation on, which the stream's detected type does not override.
        var sourceTypeHint = MovieSourceType.unknown
        /// What the controls' Done button does.
        var doneButtonBehavior = DoneButtonBehavior.exitFullscreen

        init(source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput) {
            self.source = source
            self.videoSink = videoSink
            self.audioOutput = audioOutput
            videoSinkChanged = false
        }
    }

    /// The state the app sees, across movies.
    struct Shown {
        var playbackState = PlaybackState.stopped
        var loadState = LoadState.unknown
        var isPreparedToPlay = false
        var readyForDisplay = false
        var sourceType = MovieSourceType.unknown
        /// Where playback was when the pipeline last went away (or the end, after the end).
        var lastPosition = Duration.zero
        var lastError: MediaError?
        /// How the last pre-roll ended.
        var lastPrerollEnd: PrerollEnd?
    }

    /// What is known of the current movie; forgotten when the next one loads.
    struct MovieFacts {
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
        /// An audio track chosen while the movie was not playing, switched to when it plays.
        var deferredAudioTrack: Int?
        /// The subtitle track drawn over the movie, by index; nil for none (the default).
        var currentSubtitleTrack: Int?
        /// The factory name of the element decoding the video, once decodebin chose it.
        var videoDecoder: String?
        var metadata: [String: String] = [:]
        /// Timed metadata read from the stream: what waits for its time, and what was handed out last.
        var timedMetadata = TimedMetadataQueue()
        /// The stream is an ICY (Shoutcast) stream: its title tag is its StreamTitle.
        var isICYStream = false
        /// The movie's file is cut short: how much of it is present (announced when prepared).
        var truncation: MovieTruncation?
    }

    /// No pipeline, or one.
    enum Lifecycle {
        case idle
        case running(Pipeline)
    }

    /// A pipeline of the player's (built, or being built on the player's thread) and what plays in it.
    struct Pipeline {
        /// Its preparation's number.
        let session: Int
        /// Built and installed as the player's; false while the player's thread builds it.
        var installed = false
        /// Bumped when the pipeline is reused for another movie; messages before the marker of the
        /// current epoch (``epochSeen``) belong to the previous movie.
        var epoch = 0
        var epochSeen = 0
        var target: Target
        var stage: Stage
        /// Set at the end of the movie; `play()` then starts again from the beginning.
        var atEnd = false
        var movie = LoadedMovie()
        /// The pre-roll playing before the content, if any.
        var preroll: Preroll?
        /// The movies the pipeline goes on to without a gap, and those it was handed.
        var upNext = UpNext()
    }

    /// A failure the source is asked about, and whether it may end in a reconnection.
    struct InterpretedFailure: Equatable {
        let mayReconnect: Bool
    }

    /// Preparing, or prepared.
    enum Stage {
        /// The movie has not prerolled; `pauseWhenPrepared`: `pause()` was called meanwhile, and
        /// the prepared movie reports `.paused`.
        case preparing(pauseWhenPrepared: Bool)
        /// The first frame is ready; `scan`: a scan under way (`beginSeekingForward()`).
        case prepared(scan: Scan?)
    }

    /// The movie loaded in the pipeline, as the pipeline plays it; a new one starts afresh.
    struct LoadedMovie {
        /// What the bus said about the stream before a failure, for telling errors apart.
        var errorContext = PipelineErrorTranslator()
        /// The source was asked to answer an authentication challenge for this movie (only once).
        var authenticationAnswered = false
        /// The reconnection under way after a failure that may pass, or the last one.
        var reconnection: Reconnection?
        /// The bound on getting the movie going, while it runs (``RetryPolicy/deadline``).
        var connectionDeadline: ConnectionDeadline?
        /// A failure is with the source to be made more precise (``Action/interpret(session:epoch:source:error:position:)``):
        /// nothing else ends the movie meanwhile.
        var interpreting: InterpretedFailure?
        /// The network buffer's last report; nil until the first (local files never report).
        var buffering: (percent: Int, stats: BufferingStats)?
        /// Buffering has reached its start threshold once; from then on it ends at the resume one.
        var bufferedOnce = false
        /// The network source delivered the whole movie: it can play through, whatever follows.
        var downloadComplete = false
        /// A buffering dip paused the pipeline and no play has been sent since (see
        /// ``PlayerMachine/State/pipelineReached(session:playing:)``).
        var pausedForBuffering = false
        /// Which variant each segment of an adaptive stream belongs to, read from its manifest.
        var segmentVariants: SegmentVariants?
        /// The variant of the last segment downloaded.
        var segmentVariant: SegmentVariant?
        /// The stream group at the output: the movie's whose stream start the bus reported last.
        var contentGroup: UInt32?
        /// Items of the queue follow this movie without a gap.
        var queuedGapless = false
        /// The seek sent to the pipeline and not landed yet.
        var inFlightSeek: InFlightSeek?
        /// A seek asked for while another was in flight: the latest replaces any earlier.
        var queuedSeek: QueuedSeek?
        /// A keyframe seek waiting for the movie's keyframe times to be read.
        var seekAwaitingKeyframes: (plan: SeekPlan, seqnum: UInt32)?
        /// The movie's video keyframes: not asked yet (nil), or what the source said.
        var keyframes: [Duration]??
        /// The rate of the segment the pipeline is playing now (set by the last seek or rate change).
        var segmentRate = 1.0
        /// The segment was started with the SEGMENT flag: it ends with SEGMENT_DONE, not EOS.
        var looping = false
        /// Passes completed in repeat mode since the movie started.
        var loops = 0
        /// Repeat mode's loop, decided and waiting to learn whether the pipeline can take it now.
        var pendingLoop: LoopSeek?
        /// Repeat mode's loop, held while the pipeline is paused until the player plays.
        var heldLoop: LoopSeek?
        /// The instant rate change sent last, until a flush: only its first copy at a sink applies.
        var pendingInstantRate: UInt32?
        /// The stalled demuxer the last look found, if any (two looks in a row make a stall).
        var stalledDemuxerSeen: String?
    }
}

// MARK: - Reading the state as the decisions do

extension PlayerMachine.State {
    /// The running pipeline, if any. Setting nil makes the player idle.
    var pipeline: PlayerMachine.Pipeline? {
        get {
            guard case .running(let pipeline) = lifecycle else { return nil }
            return pipeline
        }
        set { lifecycle = newValue.map { .running($0) } ?? .idle }
    }

    var phase: Phase {
        switch pipeline?.stage {
        case nil: .idle
        case .preparing: .preparing
        case .prepared: .prepared
        }
    }

    /// Moves the running pipeline to preparing (`pauseWhenPrepared` cleared) or prepared.
    mutating func setStage(_ phase: Phase) {
        switch phase {
        case .idle: pipeline = nil
        case .preparing: pipeline?.stage = .preparing(pauseWhenPrepared: false)
        case .prepared: pipeline?.stage = .prepared(scan: nil)
        }
    }

    /// Whether the pipeline of ``sessionID`` exists (it has been built and installed).
    var hasSession: Bool { pipeline?.installed ?? false }

    var target: Target {
        get { pipeline?.target ?? .paused }
        set { pipeline?.target = newValue }
    }

    var pauseWhenPrepared: Bool {
        get {
            guard case .preparing(let pause) = pipeline?.stage else { return false }
            return pause
        }
        set {
            guard case .preparing = pipeline?.stage else { return }
            pipeline?.stage = .preparing(pauseWhenPrepared: newValue)
        }
    }

    var scan: PlayerMachine.Scan? {
        get {
            guard case .prepared(let scan) = pipeline?.stage else { return nil }
            return scan
        }
        set {
            guard case .prepared = pipeline?.stage else { return }
            pipeline?.stage = .prepared(scan: newValue)
        }
    }

    var atEnd: Bool {
        get { pipeline?.atEnd ?? false }
        set { pipeline?.atEnd = newValue }
    }

    var epoch: Int { pipeline?.epoch ?? 0 }
    var epochSeen: Int { pipeline?.epochSeen ?? 0 }

    /// Starts a new epoch in the pipeline: messages of the movie before are ignored from now on.
    mutating func bumpEpoch() {
        pipeline?.epoch += 1
    }

    var preroll: PlayerMachine.Preroll? {
        get { pipeline?.preroll }
        set { pipeline?.preroll = newValue }
    }

    /// The loaded movie's pipeline state, changed in place (nothing without a pipeline).
    mutating func withMovie(_ change: (inout PlayerMachine.LoadedMovie) -> Void) {
        guard var pipeline else { return }
        change(&pipeline.movie)
        self.pipeline = pipeline
    }

    var movie: PlayerMachine.LoadedMovie { pipeline?.movie ?? PlayerMachine.LoadedMovie() }

    var inFlightSeek: PlayerMachine.InFlightSeek? {
        get { pipeline?.movie.inFlightSeek }
        set { pipeline?.movie.inFlightSeek = newValue }
    }

    var queuedSeek: PlayerMachine.QueuedSeek? {
        get { pipeline?.movie.queuedSeek }
        set { pipeline?.movie.queuedSeek = newValue }
    }

    var reconnection: PlayerMachine.Reconnection? {
        get { pipeline?.movie.reconnection }
        set { pipeline?.movie.reconnection = newValue }
    }

    var errorContext: PipelineErrorTranslator {
        get { pipeline?.movie.errorContext ?? PipelineErrorTranslator() }
        set { pipeline?.movie.errorContext = newValue }
    }

    var buffering: (percent: Int, stats: BufferingStats)? {
        get { pipeline?.movie.buffering }
        set { pipeline?.movie.buffering = newValue }
    }

    var downloadComplete: Bool {
        get { pipeline?.movie.downloadComplete ?? false }
        set { pipeline?.movie.downloadComplete = newValue }
    }

    var pausedForBuffering: Bool {
        get { pipeline?.movie.pausedForBuffering ?? false }
        set { pipeline?.movie.pausedForBuffering = newValue }
    }

    var segmentRate: Double {
        get { pipeline?.movie.segmentRate ?? 1 }
        set { pipeline?.movie.segmentRate = newValue }
    }

    var looping: Bool {
        get { pipeline?.movie.looping ?? false }
        set { pipeline?.movie.looping = newValue }
    }

    var contentGroup: UInt32? {
        get { pipeline?.movie.contentGroup }
        set { pipeline?.movie.contentGroup = newValue }
    }

    var queuedGapless: Bool {
        get { pipeline?.movie.queuedGapless ?? false }
        set { pipeline?.movie.queuedGapless = newValue }
    }

    // MARK: Settings and facts by their names

    var source: any MediaSource { settings.source }
    var videoSink: any VideoSink { settings.videoSink }
    var presentation: VideoPresentation { settings.presentation }
    var rate: Double { settings.rate }
    var repeatMode: RepeatMode { settings.repeatMode }
    var initialPlaybackTime: Duration? { settings.initialPlaybackTime }
    var endPlaybackTime: Duration? { settings.endPlaybackTime }
    var playbackState: PlaybackState { shown.playbackState }
    var lastPosition: Duration { shown.lastPosition }
    var sourceType: MovieSourceType { shown.sourceType }
    var duration: Duration? { facts.duration }
    var naturalSize: VideoSize { facts.naturalSize }
    var mediaTypes: MovieMediaTypes { facts.mediaTypes }
    var truncation: MovieTruncation? { facts.truncation }

    /// Whether `session` is the pipeline the player has now.
    func isCurrent(_ session: Int) -> Bool {
        hasSession && session == sessionID
    }

    /// The current pipeline's number, if there is one.
    var currentSession: Int? {
        hasSession ? sessionID : nil
    }

    func makeSeqnum() -> UInt32 { nextSeqnum() }

    /// A new id for a movie the pipeline may go on to (``UpNext``).
    mutating func makeItemID() -> Int {
        queue.makeItemID()
    }
}

// MARK: - What the owner and the app read

extension PlayerMachine.State {
    var audioOutput: AudioOutput { settings.audioOutput }
    var shouldAutoplay: Bool { settings.shouldAutoplay }
    var allowsExternalPlayback: Bool { settings.allowsExternalPlayback }
    var bufferingPolicy: BufferingPolicy { settings.bufferingPolicy }
    var volume: Double { settings.volume }
    var isMuted: Bool { settings.isMuted }
    var sourceTypeHint: MovieSourceType { settings.sourceTypeHint }
    var loadState: LoadState { shown.loadState }
    var isPreparedToPlay: Bool { shown.isPreparedToPlay }
    var readyForDisplay: Bool { shown.readyForDisplay }
    var lastError: MediaError? { shown.lastError }
    var lastPrerollEnd: PrerollEnd? { shown.lastPrerollEnd }
    var audioTracks: [MediaTrack] { facts.audioTracks }
    var subtitleTracks: [MediaTrack] { facts.subtitleTracks }
    var currentAudioTrack: Int? { facts.currentAudioTrack }
    var currentSubtitleTrack: Int? { facts.currentSubtitleTrack }
    var closedCaptionChannels: [ClosedCaptionChannel] { facts.closedCaptionChannels }
    var videoDecoder: String? { facts.videoDecoder }
    var metadata: [String: String] { facts.metadata }
    var timedMetadata: TimedMetadataQueue { facts.timedMetadata }
    var queueItems: [any MediaSource] { queue.items }
    var queueIndex: Int? { queue.index }
    var queueIDs: [Int] { queue.ids }
    var videoSinkChanged: Bool { settings.videoSinkChanged }
    /// The waiters' kinds, oldest first.
    var waiterKinds: [PlayerMachine.WaiterKind] { waiters.kinds }
    /// The id of the oldest movie handed to the pipeline that has not started yet.
    var startingItem: Int? { pipeline?.upNext.handed.first }
}
