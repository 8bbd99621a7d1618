import Foundation

/// Plays one movie at a time from a ``MediaSource``: the engine's MPMoviePlayerController.
///
/// ```swift
/// let player = MoviePlayer(source: FileSource(path: "movie.mp4"), videoSink: FrameSink(format: .rgba))
/// try await player.prepareToPlay()
/// try await player.play()
/// for await event in player.events {
///     if case .playbackDidFinish(let reason, _) = event { print(reason); break }
/// }
/// ```
///
/// Every command may be called from any task. Commands that wait for the pipeline are `async`
/// and return when GStreamer has done what they asked (never after a fixed delay). Properties
/// are read synchronously from the player's state. Every change is announced on ``events`` and
/// as a `Notification` (see `Notification.Name.moviePlayerPlaybackStateDidChange` and its siblings).
public final class MoviePlayer: Sendable {
    let core: PlayerCore
    private let notifications = NotificationForwarder()

    /// Creates a player for a source; nothing is loaded until ``prepareToPlay()`` or ``play()``.
    /// - Parameters:
    ///   - source: What to play.
    ///   - videoSink: Where the video goes; nil for the registry's default sink.
    ///   - audioOutput: Where the audio goes.
    ///   - registry: The registry that supplies the default sink.
    ///   - preparationTimeout: How long ``prepareToPlay()`` waits before failing with ``MediaError/Code/timedOut``.
    public init(
        source: any MediaSource, videoSink: (any VideoSink)? = nil, audioOutput: AudioOutput = .automatic,
        registry: VideoSinkRegistry = .shared, preparationTimeout: Duration = .seconds(30)
    ) {
        let sink = videoSink ?? (try? registry.makeDefaultSink()) ?? NullVideoSink()
        core = PlayerCore(
            source: source, videoSink: sink, audioOutput: audioOutput, preparationTimeout: preparationTimeout)
        notifications.start(forwarding: core.hub.subscribe(), from: self)
    }

    deinit {
        notifications.stop()
        core.shutdown()
    }

    // MARK: Events

    /// A new subscription to the player's events, from now on, in order; it ends when the
    /// player is released. Each access makes a new, independent subscription.
    public var events: PlayerEvents { core.hub.subscribe() }

    // MARK: What is playing

    /// The source being played. Setting a new one stops the current movie (announcing
    /// ``FinishReason/userExited`` if it was loaded); the next ``prepareToPlay()`` or ``play()``
    /// loads the new one.
    public var source: any MediaSource {
        get { core.state.withLock { $0.source } }
        set { core.replaceSource(with: newValue) }
    }

    /// The sink that gets the video (used from the next preparation when changed).
    public var videoSink: any VideoSink {
        get { core.state.withLock { $0.videoSink } }
        set { core.state.withLock { $0.videoSink = newValue } }
    }

    /// What is drawn over the movie. Add, replace and remove overlays at any time; the next
    /// frame shows the change, without restarting playback.
    public var overlays: VideoOverlays { core.overlays }

    // MARK: Commands

    /// Loads the movie and prerolls its first frame: afterwards ``isPreparedToPlay`` is true and
    /// ``duration``, ``naturalSize`` and ``movieMediaTypes`` are known. Returns at once when the
    /// movie is already prepared, and joins a preparation already under way.
    /// - Throws: ``MediaError``: the source's own checks (``MediaError/Code/fileNotFound``, ...),
    ///   what the pipeline reported (``MediaError/Code/notAMovie``, ``MediaError/Code/missingPlugin``, ...),
    ///   ``MediaError/Code/timedOut``, or ``MediaError/Code/cancelled`` when ``stop()`` interrupted it.
    ///   A failure is also announced as ``PlayerEvent/playbackDidFinish(_:_:)`` with ``FinishReason/playbackError``.
    public func prepareToPlay() async throws(MediaError) {
        try await core.prepare()
    }

    /// Starts (or resumes) playback, preparing the movie first if needed; after the end of the
    /// movie it starts again from the beginning. Returns when the pipeline is playing.
    /// - Throws: ``MediaError`` from preparation, or ``MediaError/Code/cancelled`` when stopped meanwhile.
    public func play() async throws(MediaError) {
        try await core.play()
    }

    /// Pauses playback; returns when the pipeline has paused. Does nothing unless playing.
    /// - Throws: ``MediaError`` from a preparation under way.
    public func pause() async throws(MediaError) {
        try await core.pause()
    }

    /// Stops playback and releases the pipeline (files, threads, decoders). The position goes back
    /// to the start; the next ``play()`` prepares again. Announces
    /// ``PlayerEvent/playbackDidFinish(_:_:)`` with ``FinishReason/userExited`` unless playback had
    /// already finished.
    public func stop() {
        core.stop()
    }

    /// Moves the playhead; returns when the frame at the new position is ready.
    /// - Parameters:
    ///   - time: The position in the movie (clamped to the duration).
    ///   - option: Exact frame, or the keyframe before it (faster).
    /// - Throws: ``MediaError/Code/invalidArgument`` for a negative time, ``MediaError/Code/notPrepared``
    ///   before preparation, ``MediaError/Code/cancelled`` when stopped meanwhile.
    public func seek(to time: Duration, option: SeekOption = .exact) async throws(MediaError) {
        try await core.seek(to: time, exact: option == .exact)
    }

    // MARK: State

    /// Whether the movie is loaded and its first frame prerolled.
    public var isPreparedToPlay: Bool { core.state.withLock { $0.isPreparedToPlay } }

    /// What the player is doing.
    public var playbackState: PlaybackState { core.state.withLock { $0.playbackState } }

    /// How much of the movie is available.
    public var loadState: LoadState { core.state.withLock { $0.loadState } }

    /// Whether the first video frame is ready to show.
    public var readyForDisplay: Bool { core.state.withLock { $0.readyForDisplay } }

    /// The movie's length, once known.
    public var duration: Duration? { core.state.withLock { $0.duration } }

    /// The size at which the movie displays (pixel aspect ratio applied), or ``VideoSize/zero`` before it is known.
    public var naturalSize: VideoSize { core.state.withLock { $0.naturalSize } }

    /// The kinds of streams in the movie, once known.
    public var movieMediaTypes: MovieMediaTypes { core.state.withLock { $0.mediaTypes } }

    /// Whether the movie is a file or a stream, once preparation has started.
    public var movieSourceType: MovieSourceType { core.state.withLock { $0.sourceType } }

    /// The movie's metadata (GStreamer tag names to values: `title`, `video-codec`, ...).
    public var metadata: [String: String] { core.state.withLock { $0.metadata } }

    /// The error that ended the last playback, if one did.
    public var error: MediaError? { core.state.withLock { $0.lastError } }

    /// The playhead's position. Setting it starts an exact seek and returns at once (invalid
    /// values are ignored; ``seek(to:option:)`` reports them and waits for the frame).
    public var currentPlaybackTime: Duration {
        get {
            let (session, atEnd, last, duration) = core.state.withLock { state in
                (state.phase == .prepared ? state.session : nil, state.atEnd, state.lastPosition, state.duration)
            }
            if atEnd { return duration ?? last }
            return session?.position ?? last
        }
        set {
            try? core.requestSeek(to: newValue, exact: true)
        }
    }

    /// The playback rate: 0 when not playing, 1 at normal speed. Setting a non-zero rate while
    /// playing changes speed from the current position; setting 0 pauses.
    public var currentPlaybackRate: Float {
        get { core.state.withLock { $0.playbackState == .playing ? Float($0.rate) : 0 } }
        set { core.setRate(Double(newValue)) }
    }
}
