/// Something that changed in a ``MoviePlayer``. Every change the player makes to its
/// observable state is announced as one of these, in the order it happened, to every
/// subscriber of ``MoviePlayer/events`` and as the matching `Notification`.
public enum PlayerEvent: Sendable, Hashable, CustomStringConvertible {
    /// Whether the movie is prepared to play changed (MPMediaPlaybackIsPreparedToPlayDidChangeNotification).
    case preparedToPlayChanged(Bool)
    /// The movie's source type became known (MPMovieSourceTypeAvailableNotification).
    case sourceTypeAvailable(MovieSourceType)
    /// The movie's duration became known or changed (MPMovieDurationAvailableNotification).
    case durationAvailable(Duration)
    /// The movie's natural size became known or changed (MPMovieNaturalSizeAvailableNotification).
    case naturalSizeAvailable(VideoSize)
    /// The kinds of streams in the movie became known (MPMovieMediaTypesAvailableNotification).
    case mediaTypesAvailable(MovieMediaTypes)
    /// The load state changed (MPMoviePlayerLoadStateDidChangeNotification).
    case loadStateChanged(LoadState)
    /// The first frame is (or is no longer) ready to show (MPMoviePlayerReadyForDisplayDidChangeNotification).
    case readyForDisplayChanged(Bool)
    /// The playback state changed (MPMoviePlayerPlaybackStateDidChangeNotification).
    case playbackStateChanged(PlaybackState)
    /// A seek finished: the frame at the new position is ready. Seeks asked for while another
    /// was under way coalesce, so one event can answer several `seek(to:)` calls.
    case seekCompleted(Duration)
    /// The playback rate the app asked for changed.
    case playbackRateChanged(Double)
    /// In repeat mode, the movie started its pass number N + 1 (N counts completed passes).
    case didLoop(Int)
    /// A new source replaced the movie (MPMoviePlayerNowPlayingMovieDidChangeNotification).
    case nowPlayingMovieChanged
    /// The scaling mode changed (MPMoviePlayerScalingModeDidChangeNotification).
    case scalingModeChanged(ScalingMode)
    /// The video moved to or from an external sink (MPMoviePlayerIsAirPlayVideoActiveDidChangeNotification).
    case externalPlaybackActiveChanged(Bool)
    /// The video output was replaced by another (``MoviePlayer/setVideoSink(_:)``).
    case videoSinkChanged
    /// The window is about to fill the screen, over this long (MPMoviePlayerWillEnterFullscreenNotification).
    case willEnterFullscreen(animationDuration: Duration)
    /// The window fills the screen (MPMoviePlayerDidEnterFullscreenNotification).
    case didEnterFullscreen
    /// The window is about to leave fullscreen, over this long (MPMoviePlayerWillExitFullscreenNotification).
    case willExitFullscreen(animationDuration: Duration)
    /// The window is back to its size (MPMoviePlayerDidExitFullscreenNotification).
    case didExitFullscreen
    /// A request to fill the screen was refused, with why (``MediaError/Code/unsupportedOperation``):
    /// the output is an app's window (``MoviePlayer/windowHandle``), which the app makes
    /// fullscreen itself, or a sink that cannot show fullscreen. Announced the same way for
    /// ``MoviePlayer/setFullscreen(_:animated:)`` (which also throws it), the
    /// ``MoviePlayer/isFullscreen`` setter and the controls' fullscreen toggle, which have no
    /// caller to throw to. An app that draws into its own window can make that window fullscreen
    /// on this event.
    case fullscreenRefused(MediaError)
    /// A periodic time observer's interval passed during playback; the position then.
    case periodicTime(TimeObserver, Duration)
    /// Playback crossed one of a boundary time observer's times.
    case boundaryTimeReached(TimeObserver, Duration)
    /// The movie's metadata (title, codecs, ...) became known or grew.
    case metadataAvailable([String: String])
    /// Playback reached timed metadata (an ID3 tag of a TS metadata stream or of packed audio, an
    /// ICY stream title, a tag that changed while playing): the items of that moment, now
    /// ``MoviePlayer/timedMetadata``, one event per presentation time, in order. An empty list: a
    /// seek, a stop or a new movie left the earlier items behind (MPMoviePlayerTimedMetadataUpdatedNotification).
    case timedMetadataChanged([TimedMetadataItem])
    /// Playback finished, with the reason and, for ``FinishReason/playbackError``, the error
    /// (MPMoviePlayerPlaybackDidFinishNotification).
    case playbackDidFinish(FinishReason, MediaError?)
    /// A warning when the movie is prepared: its file is cut short (a partial download or copy),
    /// and only the first `playable` of its `duration` is present (the container's own tables
    /// say so, ``MediaSource/truncation()``). ``MoviePlayer/playableDuration`` is `playable`;
    /// playback can go up to there and then finishes with ``MediaError/Code/truncatedMovie``.
    case truncationDetected(playable: Duration, duration: Duration)
    /// An overlay could not draw (its bitmap threw); it is skipped until it draws again, and
    /// playback goes on. Announced once per failure, not once per frame.
    case overlayFailed(VideoOverlays.ID, MediaError)
    /// A click or touch (on a window output, or sent with ``MoviePlayer/sendPointer(x:y:)``)
    /// landed in one of an overlay's ``VideoOverlay/hitRegions``; `point` is in the overlay
    /// bitmap's pixels.
    case overlayRegionActivated(overlay: VideoOverlays.ID, region: String, point: OverlayPoint)
    /// One time of a ``MoviePlayer/requestThumbnailImages(at:timeOption:)`` request finished,
    /// with its picture or its error (``MediaError/Code/cancelled`` after
    /// ``MoviePlayer/cancelAllThumbnailImageRequests()``); announced once for every time
    /// (MPMoviePlayerThumbnailImageRequestDidFinishNotification).
    case thumbnailRequestFinished(ThumbnailResult)
    /// The access log changed: a network movie's entry began, or one ended with its final
    /// figures (``MoviePlayer/accessLog``).
    case accessLogChanged
    /// An entry was added to the error log (``MoviePlayer/errorLog``).
    case errorLogEntryAdded(ErrorLogEvent)
    /// An HLS stream moved to another variant (its rendition at another bitrate, often another
    /// size: a ``naturalSizeAvailable(_:)`` follows with the first frame of a new size). Where
    /// MPMoviePlayerController's access log starts a new entry.
    case variantSwitched(VariantSwitch)
    /// Loading a network movie failed in a way that may pass (a broken connection, a server
    /// briefly unavailable: ``RetryPolicy/isTransient(_:)``): the player loads it again after
    /// `delay`, at the position playback had reached. `attempt` counts from 1 up to the
    /// source's ``MediaSource/retryPolicy``'s attempts; the error is also in the error log. A
    /// playing movie is ``PlaybackState/interrupted`` meanwhile, its load state `stalled`.
    case reconnecting(attempt: Int, delay: Duration, error: MediaError)
    /// The queue moved to item N (``MoviePlayer/setQueue(_:startingAt:)``): by itself at the end of
    /// the previous one (without a gap when it could follow in the same pipeline), or by a skip.
    case queueItemChanged(Int)
    /// The prepared movie's audio and subtitle tracks (``MoviePlayer/audioTracks``, ``MoviePlayer/subtitleTracks``).
    case tracksAvailable([MediaTrack])
    /// Another audio track plays (``MoviePlayer/selectAudioTrack(_:)``).
    case audioTrackChanged(MediaTrack)
    /// Another subtitle track is drawn over the movie, or none (``MoviePlayer/selectSubtitleTrack(_:)``).
    case subtitleTrackChanged(MediaTrack?)
    /// The sound's volume changed (``MoviePlayer/volume``, 0...1).
    case volumeChanged(Double)
    /// The sound was muted or unmuted (``MoviePlayer/isMuted``).
    case mutedChanged(Bool)
    /// A pre-roll ad (`playPrerollAd`, in PrerollAdSource) started, progressed or finished.
    case prerollAd(PrerollAdEvent)
    /// A key was pressed in a window sink's window (the player's own, or the app's when the sink
    /// reports keys: ximagesink does): the X keysym's name, unshifted (`space`, `Left`, `q`,
    /// `Escape`, `slash` for `?`; modifiers are keys too, `Shift_L`), and whether Shift was held.
    /// For keyboard control of a window that has no other keyboard handling; nothing in the player
    /// acts on it.
    case windowKeyPressed(String, shift: Bool)
    /// A pipeline this player let go of has been on its way to NULL for `after` without getting
    /// there (a sink that blocks in its state change, a source that hangs): `element` names the
    /// element(s) still between two states (`appsink0 (appsink): PAUSED to READY`). Other players
    /// are not held up by it; this player's next preparation and ``MoviePlayer/shutdown()`` go on
    /// without waiting for it any longer. Announced once per pipeline; a line on standard error
    /// says the same.
    case teardownStalled(element: String, after: Duration)
    /// The time source of the player's playback group (PlaybackSync's `PlaybackGroup`) stopped
    /// answering: the player plays on, on the group clock's last calibration (its own clock,
    /// in effect), until the source answers again (``groupTimeSourceRestored``).
    case groupTimeSourceLost
    /// The group's time source answers again: the group clock recalibrates, and the player's
    /// frames follow it back into step with the group.
    case groupTimeSourceRestored
    /// The player cannot keep up with its playback group: its video elements dropped
    /// `framesDropped` frames within `within` (decoding, or the sink, too slow for the movie),
    /// so it shows fewer frames than the others rather than falling behind them. Announced once,
    /// until it has kept up for a few seconds again.
    case groupMemberTooSlow(framesDropped: Int, within: Duration)

    /// The event in a form for logs, for example `playbackStateChanged(playing)`; times exact to
    /// the nanosecond (`durationAvailable(10.000333333 seconds)`).
    public var description: String {
        switch self {
        case .preparedToPlayChanged(let value): "preparedToPlayChanged(\(value))"
        case .sourceTypeAvailable(let type): "sourceTypeAvailable(\(type))"
        case .durationAvailable(let duration): "durationAvailable(\(duration.exactDescription))"
        case .naturalSizeAvailable(let size): "naturalSizeAvailable(\(size))"
        case .mediaTypesAvailable(let types): "mediaTypesAvailable(\(types))"
        case .loadStateChanged(let state): "loadStateChanged(\(state))"
        case .readyForDisplayChanged(let ready): "readyForDisplayChanged(\(ready))"
        case .playbackStateChanged(let state): "playbackStateChanged(\(state))"
        case .seekCompleted(let time): "seekCompleted(\(time.exactDescription))"
        case .playbackRateChanged(let rate): "playbackRateChanged(\(rate))"
        case .didLoop(let count): "didLoop(\(count))"
        case .nowPlayingMovieChanged: "nowPlayingMovieChanged"
        case .scalingModeChanged(let mode): "scalingModeChanged(\(mode))"
        case .externalPlaybackActiveChanged(let active): "externalPlaybackActiveChanged(\(active))"
        case .videoSinkChanged: "videoSinkChanged"
        case .willEnterFullscreen(let duration): "willEnterFullscreen(\(duration.exactDescription))"
        case .didEnterFullscreen: "didEnterFullscreen"
        case .willExitFullscreen(let duration): "willExitFullscreen(\(duration.exactDescription))"
        case .didExitFullscreen: "didExitFullscreen"
        case .fullscreenRefused(let error): "fullscreenRefused(\(error.code))"
        case .periodicTime(let observer, let time): "periodicTime(\(observer), \(time.exactDescription))"
        case .boundaryTimeReached(let observer, let time): "boundaryTimeReached(\(observer), \(time.exactDescription))"
        case .metadataAvailable(let tags): "metadataAvailable(\(tags.count) tags)"
        case .timedMetadataChanged(let items):
            "timedMetadataChanged(\(items.map(\.description).joined(separator: ", ")))"
        case .playbackDidFinish(let reason, let error):
            error.map { "playbackDidFinish(\(reason), \($0.code))" } ?? "playbackDidFinish(\(reason))"
        case .truncationDetected(let playable, let duration):
            "truncationDetected(playable: \(playable.exactDescription), duration: \(duration.exactDescription))"
        case .overlayFailed(let id, let error): "overlayFailed(\(id), \(error.code))"
        case .overlayRegionActivated(let overlay, let region, let point):
            "overlayRegionActivated(\(overlay), \(region), \(point))"
        case .thumbnailRequestFinished(let result): "thumbnailRequestFinished(\(result))"
        case .accessLogChanged: "accessLogChanged"
        case .errorLogEntryAdded(let entry): "errorLogEntryAdded(\(entry.statusCode.map(String.init) ?? entry.domain))"
        case .variantSwitched(let change): "variantSwitched(\(change.indicatedBitrate))"
        case .reconnecting(let attempt, let delay, let error):
            "reconnecting(\(attempt), after: \(delay.exactDescription), \(error.code))"
        case .prerollAd(let event): "prerollAd(\(event))"
        case .volumeChanged(let volume): "volumeChanged(\(volume))"
        case .queueItemChanged(let index): "queueItemChanged(\(index))"
        case .tracksAvailable(let tracks): "tracksAvailable(\(tracks.map(\.description).joined(separator: ", ")))"
        case .audioTrackChanged(let track): "audioTrackChanged(\(track))"
        case .subtitleTrackChanged(let track): "subtitleTrackChanged(\(track.map { "\($0)" } ?? "none"))"
        case .mutedChanged(let muted): "mutedChanged(\(muted))"
        case .windowKeyPressed(let key, let shift): "windowKeyPressed(\(shift ? "shift-" : "")\(key))"
        case .teardownStalled(let element, let after): "teardownStalled(\(element), after: \(after.exactDescription))"
        case .groupTimeSourceLost: "groupTimeSourceLost"
        case .groupTimeSourceRestored: "groupTimeSourceRestored"
        case .groupMemberTooSlow(let dropped, let within):
            "groupMemberTooSlow(\(dropped) frames dropped within \(within.exactDescription))"
        }
    }
}

extension PlayerEvent {
    /// Whether the event means the movie started, stopped, jumped or changed speed.
    var changesPlayback: Bool {
        switch self {
        case .playbackStateChanged, .playbackRateChanged, .seekCompleted, .playbackDidFinish, .didLoop: true
        default: false
        }
    }
}
