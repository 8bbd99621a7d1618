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
///
/// ## Threading
/// - Each player has a thread of its own. Every call the player makes into GStreamer (building
///   its pipeline, state changes, seeks, output swaps, its window) runs there, one at a time, in
///   the order the commands were given. Bus messages, timers and time observers are handed to
///   that thread too. A pipeline the player lets go of is torn down (to NULL, its streaming
///   threads joined) on the process's one teardown thread, after everything asked before.
/// - A command never blocks its caller on GStreamer: synchronous ones (``stop()``, the setters)
///   change the player's state at once and leave the pipeline work to the player's thread;
///   `async` ones suspend until it is done. So no thread of Swift's cooperative pool waits for
///   a streaming thread.
/// - Properties read a consistent snapshot of the player's state without waiting for its
///   thread; ``currentPlaybackTime`` asks the pipeline for its position (a query, which does not
///   wait for the player's thread either).
/// - A frame callback (``FrameSink``) runs on a streaming thread. It may read the player and give
///   it commands (setting ``currentPlaybackTime`` to seek, ``stop()``, `Task { try await
///   player.pause() }`): commands are only handed to the player's thread, so none can wait for
///   the streaming thread that is running the callback.
/// - Releasing the last reference returns at once; the player's thread then tears the pipeline
///   down. To know that it is done (files closed, threads ended), `await` ``shutdown()`` first.
public final class MoviePlayer: Sendable {
    let core: PlayerCore
    private let notifications = NotificationForwarder()
    /// The thumbnail pipelines (never the player's own); see MoviePlayer+Thumbnails.swift.
    let thumbnails = PlayerThumbnails()

    /// Creates a player for a source; nothing is loaded until ``prepareToPlay()`` or ``play()``.
    /// - Parameters:
    ///   - source: What to play.
    ///   - videoSink: Where the video goes; nil for the registry's default sink. When the
    ///     registry cannot make that sink, the player keeps its error: preparing fails with it
    ///     (and announces it) until ``setVideoSink(_:)`` gives the player a sink.
    ///   - audioOutput: Where the audio goes.
    ///   - registry: The registry that supplies the default sink.
    ///   - preparationTimeout: How long ``prepareToPlay()`` waits before failing with ``MediaError/Code/timedOut``.
    public init(
        source: any MediaSource, videoSink: (any VideoSink)? = nil, audioOutput: AudioOutput = .automatic,
        registry: VideoSinkRegistry = .shared, preparationTimeout: Duration = .seconds(30)
    ) {
        var sink: any VideoSink = NullVideoSink()
        if let videoSink {
            sink = videoSink
        } else {
            do throws(MediaError) {
                sink = try registry.makeDefaultSink()
            } catch {
                sink = UnavailableVideoSink(error: error)
            }
        }
        core = PlayerCore(
            source: source, videoSink: sink, audioOutput: audioOutput, preparationTimeout: preparationTimeout)
        notifications.start(forwarding: PlayerEvents(stream: core.hub.subscribe()), from: self)
    }

    /// The player's decision state in one line (phase, target, session, seeks, waiters), for
    /// diagnosing a player that seems stuck.
    package var diagnostics: String { core.read { $0.diagnostics } }

    deinit {
        notifications.stop()
        core.release()
    }

    /// Stops playback (as ``stop()``) and returns once the pipeline is torn down: at NULL, its
    /// streaming threads ended, its files and decoders closed. Calling it again does no harm, and
    /// the player can be prepared again afterwards. Releasing a player without calling it tears
    /// the pipeline down all the same, on the player's own thread, a moment later.
    public func shutdown() async {
        await core.shutdown()
    }

    // MARK: Events

    /// A new subscription to the player's events, from now on, in order; it ends when the
    /// player is released. Each access makes a new, independent subscription. Each subscription
    /// keeps at most ``PlayerEvents/bufferLimit`` (1024) events it has not read yet; a subscriber
    /// that falls further behind loses the oldest of them, never the newest, and neither the
    /// player nor other subscriptions wait for it.
    public var events: PlayerEvents { PlayerEvents(stream: core.hub.subscribe()) }

    // MARK: What is playing

    /// The source being played. Setting a new one stops the current movie (announcing
    /// ``FinishReason/userExited`` if it was loaded); the next ``prepareToPlay()`` or ``play()``
    /// loads the new one.
    public var source: any MediaSource {
        get { core.read { $0.source } }
        set { core.replaceSource(with: newValue) }
    }

    /// The sink that gets the video. To change it, even while playing, use ``setVideoSink(_:)``.
    public var videoSink: any VideoSink { core.read { $0.videoSink } }

    /// Moves the video to another sink. While a movie plays the switch happens between two
    /// frames, without stopping: no frame is lost or shown twice, the sound goes on, and the
    /// switch delays no frame: the relink takes a few milliseconds, within the wait for the next
    /// frame, which the new sink gets as soon as it is linked. When paused, the new sink shows the
    /// current frame. Otherwise the sink is used from the next preparation on. Announces
    /// ``PlayerEvent/videoSinkChanged`` and, when the sink is or was external,
    /// ``PlayerEvent/externalPlaybackActiveChanged(_:)``.
    /// - Parameter sink: The new sink.
    /// - Throws: ``MediaError/Code/unsupportedOperation`` for an external sink while
    ///   ``allowsExternalPlayback`` is false; the sink's own error if it cannot be made.
    public func setVideoSink(_ sink: any VideoSink) async throws(MediaError) {
        try await core.setVideoSink(sink)
    }

    /// Whether the video goes to a sink with the ``VideoSinkCapabilities/external`` capability
    /// (AirPlay's analogue: a network stream, a file, another screen).
    public var isExternalPlaybackActive: Bool {
        core.read { $0.videoSink.capabilities.contains(.external) }
    }

    /// Whether ``setVideoSink(_:)`` may choose an external sink (default true;
    /// MPMoviePlayerController's `allowsAirPlay`).
    public var allowsExternalPlayback: Bool {
        get { core.read { $0.allowsExternalPlayback } }
        set { core.setAllowsExternalPlayback(newValue) }
    }

    /// What is drawn over the movie. Add, replace and remove overlays at any time; the next
    /// frame shows the change, without restarting playback.
    public var overlays: VideoOverlays { core.overlays }

    /// A click or touch at a point of the output frame (its pixels, as a frames sink delivers
    /// them). The player's own window reports its clicks by itself; for a window the app gave
    /// (``windowHandle``), whose output frame is the window, pass the click's window coordinates.
    /// The point is mapped back through the scaling mode and each overlay's placement in the
    /// latest frame; when it lands in a hit region, the player announces
    /// ``PlayerEvent/overlayRegionActivated(overlay:region:point:)`` (a click on the engine's own
    /// controls, ``controlStyle``, instead does what the control says).
    /// - Parameters:
    ///   - x: Pixels from the output frame's left edge.
    ///   - y: Pixels from its top edge.
    /// - Returns: The overlay, region and point in the overlay's pixels, or nil when no region is there.
    @discardableResult
    public func sendPointer(x: Double, y: Double) -> (overlay: VideoOverlays.ID, region: String, point: OverlayPoint)? {
        core.overlays.click(viewX: x, y: y)
    }

    // MARK: Commands

    /// Loads the movie and prerolls its first frame: afterwards ``isPreparedToPlay`` is true and
    /// ``duration``, ``naturalSize`` and ``movieMediaTypes`` are known. Returns at once when the
    /// movie is already prepared, and joins a preparation already under way.
    ///
    /// With ``shouldAutoplay`` on (the default, as in MPMoviePlayerController) playback then
    /// starts by itself, for files too; with it off the movie stays ``PlaybackState/stopped`` on
    /// its first frame until ``play()`` (or ``pause()``, which makes it
    /// ``PlaybackState/paused`` there).
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

    /// Pauses playback; returns when the pipeline has paused. A movie prepared but not started
    /// yet becomes ``PlaybackState/paused`` at once, on its first frame. Does nothing when
    /// stopped, after the end, or when already paused.
    /// - Throws: ``MediaError`` from a preparation under way.
    public func pause() async throws(MediaError) {
        try await core.pause()
    }

    /// Stops playback and releases the pipeline (files, threads, decoders). The position goes back
    /// to the start; the next ``play()`` prepares again. Announces
    /// ``PlayerEvent/playbackDidFinish(_:_:)`` with ``FinishReason/userExited`` unless playback had
    /// already finished.
    ///
    /// Returns at once, from any thread (a frame callback's included): the pipeline is torn down
    /// on a thread of the engine's (``shutdown()`` waits for that). No frames sink's callback
    /// starts after `stop()` returns; one already running on a streaming thread when it is called
    /// may still be finishing.
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
    public var isPreparedToPlay: Bool { core.read { $0.isPreparedToPlay } }

    /// What the player is doing.
    public var playbackState: PlaybackState { core.read { $0.playbackState } }

    /// How much of the movie is available.
    public var loadState: LoadState { core.read { $0.loadState } }

    /// Whether the first video frame is ready to show.
    public var readyForDisplay: Bool { core.read { $0.readyForDisplay } }

    /// The movie's length, once known.
    public var duration: Duration? { core.read { $0.duration } }

    /// The size at which the movie displays (pixel aspect ratio applied), or ``VideoSize/zero`` before it is known.
    ///
    /// A size no output could allocate is clamped: when the pixel aspect ratio makes a side longer
    /// than 16384, the size is scaled down, keeping its shape, until it fits, and no side is less
    /// than 1 (a 320x240 movie with a pixel aspect ratio of 65535:1 reports 16384x1; one of 1:65535,
    /// 1x240). GStreamer's log says when it happens (a warning, `GST_DEBUG=2`). The frames themselves
    /// keep their stored size.
    public var naturalSize: VideoSize { core.read { $0.naturalSize } }

    /// The kinds of streams in the movie, once known.
    public var movieMediaTypes: MovieMediaTypes { core.read { $0.mediaTypes } }

    /// Whether the movie is a file or a stream, once preparation has started. Setting it is a
    /// hint, as in MPMoviePlayerController: set before preparation, every movie reports that type
    /// from its preparation on (``PlayerEvent/sourceTypeAvailable(_:)``) and the stream's
    /// detected type does not override it (a manifest is still read as one); `.unknown` goes back
    /// to detection.
    public var movieSourceType: MovieSourceType {
        get { core.read { $0.phase == .idle && $0.sourceTypeHint != .unknown ? $0.sourceTypeHint : $0.sourceType } }
        set { core.apply { $0.setSourceTypeHint(newValue) } }
    }

    /// The GStreamer element decoding the video: its factory's name, such as `meh264dec` or
    /// `meh265dec` (the engine's own H.264 and H.265 decoders) or `vp8dec`; nil until decodebin
    /// has chosen one, and for a movie without video.
    public var videoDecoder: String? { core.read { $0.videoDecoder } }

    /// The movie's metadata (GStreamer tag names to values: `title`, `video-codec`, ...). For the
    /// common tags typed (title, artist, codecs, bitrate, ...), see ``movieMetadata``.
    public var metadata: [String: String] { core.read { $0.metadata } }

    /// The error that ended the last playback, if one did.
    public var error: MediaError? { core.read { $0.lastError } }

    /// The playhead's position. Setting it starts an exact seek and returns at once (invalid
    /// values are ignored; ``seek(to:option:)`` reports them and waits for the frame). Seeks set
    /// while another is under way coalesce: only the newest lands.
    public var currentPlaybackTime: Duration {
        get {
            let (session, atEnd, last, duration) = core.state.withLock { owned in
                let state = owned.machine
                return (
                    state.pipelineHasPosition ? owned.session : nil, state.atEnd, state.lastPosition,
                    state.playbackEnd ?? state.duration
                )
            }
            if atEnd { return duration ?? last }
            return session?.position ?? last
        }
        set {
            core.requestSeek(to: newValue)
        }
    }

    /// The prepared movie's audio tracks (language, codec, title, the default one); empty before
    /// preparation and for a movie without sound.
    public var audioTracks: [MediaTrack] { core.read { $0.audioTracks } }

    /// The prepared movie's subtitle tracks: those its container lists, then each closed-captions
    /// channel its video carries (``ClosedCaptionChannel``: codec `CEA-608`, title `CC1` to `CC4`;
    /// codec `CEA-708`, title `Service 1` to `Service 6`; ATSC A/53 captions in H.264, H.265 or
    /// MPEG-2 pictures, as broadcast and streamed video has them). A channel becomes a track when
    /// its first caption command comes: with the tracks announced at preparation if it is on the
    /// first frame, otherwise as it comes during playback, in a new
    /// ``PlayerEvent/tracksAvailable(_:)``. Indices never change once announced.
    public var subtitleTracks: [MediaTrack] { core.read { $0.subtitleTracks } }

    /// The audio track playing, if the movie has one.
    public var currentAudioTrack: MediaTrack? {
        core.read { machine in
            machine.currentAudioTrack.flatMap { index in machine.audioTracks.first { $0.index == index } }
        }
    }

    /// Plays another of the movie's audio tracks, at once and without a gap in the video
    /// (playbin's input selector); announced as ``PlayerEvent/audioTrackChanged(_:)``.
    /// - Parameter track: One of ``audioTracks``.
    /// - Throws: ``MediaError/Code/notPrepared`` before preparation (or during a pre-roll ad),
    ///   ``MediaError/Code/invalidArgument`` for a track the movie does not have.
    public func selectAudioTrack(_ track: MediaTrack) throws(MediaError) {
        guard track.kind == .audio else {
            throw MediaError(.invalidArgument, "\(track) is not an audio track")
        }
        try core.apply { $0.selectAudioTrack(track.index) }.get()
    }

    /// The subtitle track drawn over the movie, or nil (the default: none is drawn).
    public var currentSubtitleTrack: MediaTrack? {
        core.read { machine in
            machine.currentSubtitleTrack.flatMap { index in machine.subtitleTracks.first { $0.index == index } }
        }
    }

    /// Draws one of the movie's subtitle tracks over it, from its next cue, or none with nil;
    /// announced as ``PlayerEvent/subtitleTrackChanged(_:)``. The captions are a ``TextOverlay``
    /// (``subtitleOverlay``), in ``overlays`` while a track is drawn, with the caption placement
    /// and the style set on it. A new movie starts with none.
    ///
    /// A closed-captions track is decoded from the frames as they enter the output: a caption
    /// shows from the frame that brought it until the captions replace or erase it (CEA-608:
    /// pop-on, roll-up and paint-on captions, the special and extended characters; CEA-708: the
    /// text of the service's visible windows, in the engine's style).
    /// After a seek it shows again from the next caption command, as a television does.
    /// - Parameter track: One of ``subtitleTracks``, or nil.
    /// - Throws: ``MediaError/Code/notPrepared`` before preparation (or during a pre-roll ad),
    ///   ``MediaError/Code/invalidArgument`` for a track the movie does not have.
    public func selectSubtitleTrack(_ track: MediaTrack?) throws(MediaError) {
        if let track, track.kind != .subtitle {
            throw MediaError(.invalidArgument, "\(track) is not a subtitle track")
        }
        try core.apply { $0.selectSubtitleTrack(track?.index) }.get()
    }

    /// The overlay that draws the chosen subtitle track's captions: set its ``TextOverlay/style``
    /// or ``TextOverlay/placement`` to change how they look.
    public var subtitleOverlay: TextOverlay { core.captions.overlay }

    /// The sound's volume, from 0 (silent) to 1 (the movie's own level, the default); values
    /// outside are clamped, a NaN is ignored. A change while playing takes effect at once, in a
    /// 30 ms ramp that avoids a click, and is announced as ``PlayerEvent/volumeChanged(_:)``.
    /// Kept from movie to movie.
    public var volume: Double {
        get { core.read { $0.volume } }
        set { core.apply { $0.setVolume(newValue) } }
    }

    /// Whether the sound is muted (the volume is kept for when it is unmuted). Muting and
    /// unmuting ramp like a volume change and are announced as ``PlayerEvent/mutedChanged(_:)``;
    /// during a pre-roll ad they fire its mute and unmute beacons.
    public var isMuted: Bool {
        get { core.read { $0.isMuted } }
        set { core.apply { $0.setMuted(newValue) } }
    }

    /// The playback rate: 0 when not playing, otherwise the rate asked for (1 is normal speed).
    /// Setting 0 pauses; setting a rate between 0.25 and 8 (or -8 and -0.25, backwards) applies
    /// it at once, without waiting; other values are ignored (``setRate(_:)`` reports them).
    /// A `Double`, as ``setRate(_:)`` and ``PlayerEvent/playbackRateChanged(_:)`` (where
    /// MPMoviePlayerController has a `float`).
    public var currentPlaybackRate: Double {
        get { core.read { $0.playbackState == .playing ? $0.rate : 0 } }
        set { core.requestRate(newValue) }
    }

    /// Changes the playback rate and returns once the pipeline plays at it. Keeps the
    /// direction with an instant rate change (no flush, no visible jump); reversing flushes
    /// and restarts from the current position. Setting it while stopped keeps it for the next play.
    /// - Parameter rate: 0.25 to 8 forward, -8 to -0.25 backward.
    /// - Throws: ``MediaError/Code/invalidArgument`` for other values, 0 included (the rate stays
    ///   as it was; to pause, call ``pause()`` or set ``currentPlaybackRate`` to 0),
    ///   ``MediaError/Code/unsupportedOperation`` when the movie's demuxer cannot play backwards.
    public func setRate(_ rate: Double) async throws(MediaError) {
        try await core.setRate(rate)
    }

    // MARK: Presentation

    /// How the movie fills an output of another shape (default ``ScalingMode/aspectFit``);
    /// changes apply to the next frame. It matters where the output has a size: a window's view
    /// frame, or a frames sink asked for a size.
    /// In a window sink's window the picture moves to its new place over
    /// ``scalingModeAnimationDuration``.
    public var scalingMode: ScalingMode {
        get { core.read { $0.presentation.scalingMode } }
        set { core.changeScalingMode(to: newValue, animatedOver: scalingModeAnimationDuration) }
    }

    /// How long a change of ``scalingMode`` takes to show in a window (default 0.25 s; zero: at
    /// once). Other outputs change at the next frame.
    public var scalingModeAnimationDuration: Duration {
        get { core.scalingAnimationLength.withLock { $0 } }
        set { core.scalingAnimationLength.withLock { $0 = max(newValue, .zero) } }
    }

    /// A picture behind the movie (MPMoviePlayerController's `backgroundView`), or nil (the
    /// default) for ``backgroundColor`` alone. Scaled to fill the view and centred, it shows in the
    /// bars the scaling mode leaves and, for a movie without video, over the whole view of a
    /// window sink (its backdrop; frames sinks get no frames for such a movie), under the speaker
    /// that says the movie is sound. It is drawn as overlays under every other (at the lowest
    /// z-order), so it is among ``overlays`` while set. Set it at any time; `nil` removes it.
    public var backgroundImage: OverlayBitmap? {
        get { core.background.withLock { $0?.layer.image } }
        set { core.setBackgroundImage(newValue) }
    }

    /// The colour of the bars ``ScalingMode/aspectFit`` and ``ScalingMode/none`` leave (default
    /// black), and of a window sink's whole view for a movie without video, with a speaker in its
    /// middle that says the movie is sound (a white glyph on a translucent dark disc, which reads
    /// on any colour).
    public var backgroundColor: RGBAColor {
        get { core.read { $0.presentation.background } }
        set { core.updatePresentation { $0.background = newValue } }
    }

    /// How the picture is turned (default ``VideoOrientation/automatic``: as the movie's tag says).
    /// ``naturalSize`` follows it.
    public var videoOrientation: VideoOrientation {
        get { core.read { $0.presentation.orientation } }
        set { core.updatePresentation { $0.orientation = newValue } }
    }

    /// The rectangle the movie is shown in, in the output's pixels (MPMoviePlayerController's
    /// view frame): frames leave the video output at its size, and a window sink draws there
    /// (the player's own window, while fullscreen, draws over the whole screen and keeps the view
    /// frame for when it comes back). Nil: the sink's own size, or the movie's.
    public var viewFrame: ViewRect? {
        get { core.read { $0.presentation.viewFrame } }
        set { core.updatePresentation { $0.viewFrame = newValue } }
    }

    /// The tile of a video wall this player shows, or nil (the default) for the whole picture:
    /// the picture is fitted to the whole wall, bezels included, and the output shows this tile's
    /// part (see ``VideoWallTile``). Applies to the next frame. Players of a playback group
    /// (PlaybackSync), one per screen, each with its tile, make a synchronised wall.
    public var wallTile: VideoWallTile? {
        get { core.read { $0.presentation.wallTile } }
        set { core.updatePresentation { $0.wallTile = newValue } }
    }

    /// An X11 window of the app's for a window sink to draw into (inside ``viewFrame`` if set),
    /// instead of a window the player opens. Set it before preparing or swapping to the sink.
    /// A window that does not exist is refused then with ``MediaError/Code/invalidWindow``; one
    /// destroyed while the movie plays ends playback with
    /// ``PlayerEvent/playbackDidFinish(_:_:)`` (``FinishReason/playbackError``, `invalidWindow`).
    /// Neither is an X error that ends the app: the engine's X error handler keeps the errors of
    /// its window sinks to itself and passes every other one to the handler installed before it.
    /// An app's window shows no controls unless the app sets ``controlStyle``, and cannot be made
    /// fullscreen by the player (``setFullscreen(_:animated:)``).
    public var windowHandle: UInt? {
        get { core.read { $0.presentation.windowHandle } }
        set {
            core.updatePresentation { $0.windowHandle = newValue }
            core.outputChanged()
        }
    }

    /// Whether the player's own window fills the screen, or will when it opens (MPMoviePlayerController's
    /// `fullscreen`). Setting it is ``setFullscreen(_:animated:)`` without animation, started at
    /// once and finished on its own. Set before preparation, the window opens fullscreen when the
    /// movie is ready, announced as ``PlayerEvent/willEnterFullscreen(animationDuration:)`` and
    /// ``PlayerEvent/didEnterFullscreen``.
    ///
    /// Only the player's own window fills the screen. Drawing into an app's window
    /// (``windowHandle``), or into a sink without ``VideoSinkCapabilities/fullscreen``, setting it
    /// to true is refused as ``setFullscreen(_:animated:)`` and the controls' toggle refuse it:
    /// ``PlayerEvent/fullscreenRefused(_:)`` is posted at once with the reason
    /// (``MediaError/Code/unsupportedOperation``), and it stays false.
    public var isFullscreen: Bool {
        get { core.isFullscreen }
        set { core.requestFullscreen(newValue) }
    }

    /// Makes the player's own window fill the screen, or gives it back its size
    /// (MPMoviePlayerController's `setFullscreen(_:animated:)`). Announces
    /// ``PlayerEvent/willEnterFullscreen(animationDuration:)`` and ``PlayerEvent/didEnterFullscreen``
    /// (or the exit pair); animated, the window moves over 0.3 seconds.
    /// - Parameters:
    ///   - fullscreen: Fill the screen, or not.
    ///   - animated: Move the window gradually.
    /// Before the player's own window has opened (before preparation), the request is kept and
    /// the window opens fullscreen.
    /// Asking to leave fullscreen when not in it does nothing.
    /// - Throws: ``MediaError/Code/unsupportedOperation`` when the output cannot fill the screen:
    ///   the video is drawn into the app's window (``windowHandle``: the app makes its window
    ///   fullscreen), or the sink has no ``VideoSinkCapabilities/fullscreen``. The refusal is also
    ///   posted as ``PlayerEvent/fullscreenRefused(_:)``, as for the ``isFullscreen`` setter and the
    ///   controls' toggle.
    public func setFullscreen(_ fullscreen: Bool, animated: Bool) async throws(MediaError) {
        try await core.setFullscreen(fullscreen, animated: animated)
    }

    // MARK: Playback range, repeat, autoplay

    /// Whether ``prepareToPlay()`` starts playing by itself once the movie is ready (default true,
    /// as MPMoviePlayerController's `shouldAutoplay`). MPMoviePlayerController documents it for
    /// network content, starting once enough is buffered; this engine does that for streams
    /// (after buffering) and starts files as soon as they are prepared, as MPMoviePlayerController
    /// does in practice. Turn it off to prepare a movie without playing it.
    public var shouldAutoplay: Bool {
        get { core.read { $0.shouldAutoplay } }
        set { core.apply { $0.setShouldAutoplay(newValue) } }
    }

    /// Whether the movie starts again, gaplessly, when it reaches its end (or ``endPlaybackTime``).
    public var repeatMode: RepeatMode {
        get { core.read { $0.repeatMode } }
        set { core.setRepeatMode(newValue) }
    }

    /// Where playback starts (MPMoviePlayerController's `initialPlaybackTime`): nil, or a
    /// negative time when set (the seed's -1), is the movie's natural start. Setting it keeps
    /// ``endPlaybackTime``; while a movie is prepared, playback restarts its segment from where
    /// it is. A time at or after ``endPlaybackTime`` is ignored (the range stays as it was):
    /// ``setPlaybackRange(initial:end:)`` says why with a typed error.
    public var initialPlaybackTime: Duration? {
        get { core.read { $0.initialPlaybackTime } }
        set { try? setPlaybackRange(initial: newValue.flatMap { $0 < .zero ? nil : $0 }, end: endPlaybackTime) }
    }

    /// Where playback ends, with ``FinishReason/playbackEnded`` (MPMoviePlayerController's
    /// `endPlaybackTime`): nil, or a time of zero or less when set (the seed's -1), is the movie's
    /// natural end. Setting it keeps ``initialPlaybackTime``; a time at or before it is ignored
    /// (``setPlaybackRange(initial:end:)`` says why with a typed error). Streamed content (HLS,
    /// DASH) plays to its end whatever this says, as MPMoviePlayerController's does.
    public var endPlaybackTime: Duration? {
        get { core.read { $0.endPlaybackTime } }
        set { try? setPlaybackRange(initial: initialPlaybackTime, end: newValue.flatMap { $0 <= .zero ? nil : $0 }) }
    }

    /// Sets where playback starts and ends (MPMoviePlayerController's `initialPlaybackTime`
    /// and `endPlaybackTime`). With ``repeatMode`` `.one` the range loops.
    /// - Parameters:
    ///   - initial: Where playback starts, or nil for the beginning.
    ///   - end: Where it ends, or nil for the end of the movie.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a negative time or an end not after the
    ///   start; the range stays as it was.
    public func setPlaybackRange(initial: Duration?, end: Duration?) throws(MediaError) {
        try core.setPlaybackRange(initial: initial, end: end)
    }

    // MARK: Scanning

    /// Starts scanning forward through keyframes at a rising rate (2x, 4x, 8x);
    /// ``playbackState`` becomes ``PlaybackState/seekingForward``.
    /// - Throws: ``MediaError/Code/notPrepared`` before preparation.
    public func beginSeekingForward() throws(MediaError) {
        try core.beginScanning(forward: true)
    }

    /// Starts scanning backward through keyframes at a rising rate;
    /// ``playbackState`` becomes ``PlaybackState/seekingBackward``.
    /// - Throws: ``MediaError/Code/notPrepared`` before preparation.
    public func beginSeekingBackward() throws(MediaError) {
        try core.beginScanning(forward: false)
    }

    /// Ends a scan: the state and rate from before it return, from where the scan got to.
    public func endSeeking() {
        core.endScanning()
    }

    // MARK: Time observers

    /// Announces the position every `interval` of movie time while the movie plays, as
    /// ``PlayerEvent/periodicTime(_:_:)``.
    /// - Parameter interval: How much movie time between announcements.
    /// - Returns: The observer, for ``removeTimeObserver(_:)``.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an interval under a millisecond.
    public func addPeriodicTimeObserver(every interval: Duration) throws(MediaError) -> TimeObserver {
        guard interval >= .milliseconds(1) else {
            throw MediaError(.invalidArgument, "a periodic time observer needs an interval of at least 1 ms")
        }
        return core.apply { $0.addPeriodicTimeObserver(every: interval) }
    }

    /// Announces each time in `times` as playback crosses it, as ``PlayerEvent/boundaryTimeReached(_:_:)``.
    /// - Parameter times: Positions in the movie.
    /// - Returns: The observer, for ``removeTimeObserver(_:)``.
    /// - Throws: ``MediaError/Code/invalidArgument`` for no times or a negative one.
    public func addBoundaryTimeObserver(at times: [Duration]) throws(MediaError) -> TimeObserver {
        guard !times.isEmpty, times.allSatisfy({ $0 >= .zero }) else {
            throw MediaError(.invalidArgument, "a boundary time observer needs one or more times, none negative")
        }
        return core.apply { $0.addBoundaryTimeObserver(at: times) }
    }

    /// Stops a time observer.
    /// - Parameter observer: The observer to stop.
    public func removeTimeObserver(_ observer: TimeObserver) {
        core.apply { $0.removeTimeObserver(observer) }
    }
}
