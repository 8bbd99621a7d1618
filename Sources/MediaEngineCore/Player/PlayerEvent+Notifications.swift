import Foundation

extension Notification.Name {
    /// The player's ``MoviePlayer/isPreparedToPlay`` changed (MPMediaPlaybackIsPreparedToPlayDidChangeNotification).
    public static let mediaPlaybackIsPreparedToPlayDidChange = Notification.Name(
        "MediaPlaybackIsPreparedToPlayDidChangeNotification")
    /// The movie's source type is known (MPMovieSourceTypeAvailableNotification).
    public static let movieSourceTypeAvailable = Notification.Name("MovieSourceTypeAvailableNotification")
    /// The movie's duration is known (MPMovieDurationAvailableNotification).
    public static let movieDurationAvailable = Notification.Name("MovieDurationAvailableNotification")
    /// The movie's natural size is known (MPMovieNaturalSizeAvailableNotification).
    public static let movieNaturalSizeAvailable = Notification.Name("MovieNaturalSizeAvailableNotification")
    /// The movie's media types are known (MPMovieMediaTypesAvailableNotification).
    public static let movieMediaTypesAvailable = Notification.Name("MovieMediaTypesAvailableNotification")
    /// The load state changed (MPMoviePlayerLoadStateDidChangeNotification).
    public static let moviePlayerLoadStateDidChange = Notification.Name("MoviePlayerLoadStateDidChangeNotification")
    /// Ready-for-display changed (MPMoviePlayerReadyForDisplayDidChangeNotification).
    public static let moviePlayerReadyForDisplayDidChange = Notification.Name(
        "MoviePlayerReadyForDisplayDidChangeNotification")
    /// The playback state changed (MPMoviePlayerPlaybackStateDidChangeNotification).
    public static let moviePlayerPlaybackStateDidChange = Notification.Name(
        "MoviePlayerPlaybackStateDidChangeNotification")
    /// A seek finished.
    public static let moviePlayerSeekDidComplete = Notification.Name("MoviePlayerSeekDidCompleteNotification")
    /// The playback rate changed.
    public static let moviePlayerPlaybackRateDidChange = Notification.Name(
        "MoviePlayerPlaybackRateDidChangeNotification")
    /// A pass of a repeating movie ended and the next began.
    public static let moviePlayerDidLoop = Notification.Name("MoviePlayerDidLoopNotification")
    /// A new movie replaced the current one (MPMoviePlayerNowPlayingMovieDidChangeNotification).
    public static let moviePlayerNowPlayingMovieDidChange = Notification.Name(
        "MoviePlayerNowPlayingMovieDidChangeNotification")
    /// The scaling mode changed (MPMoviePlayerScalingModeDidChangeNotification).
    public static let moviePlayerScalingModeDidChange = Notification.Name("MoviePlayerScalingModeDidChangeNotification")
    /// External playback started or stopped (MPMoviePlayerIsAirPlayVideoActiveDidChangeNotification).
    public static let moviePlayerIsExternalPlaybackActiveDidChange = Notification.Name(
        "MoviePlayerIsExternalPlaybackActiveDidChangeNotification")
    /// The video output was replaced.
    public static let moviePlayerVideoSinkDidChange = Notification.Name("MoviePlayerVideoSinkDidChangeNotification")
    /// The window is about to fill the screen (MPMoviePlayerWillEnterFullscreenNotification); the
    /// animation's length is under ``MoviePlayer/fullscreenAnimationDurationUserInfoKey`` and its
    /// curve under ``MoviePlayer/fullscreenAnimationCurveUserInfoKey``.
    public static let moviePlayerWillEnterFullscreen = Notification.Name("MoviePlayerWillEnterFullscreenNotification")
    /// The window fills the screen (MPMoviePlayerDidEnterFullscreenNotification; no userInfo but
    /// the event, as MPMoviePlayerController's has none).
    public static let moviePlayerDidEnterFullscreen = Notification.Name("MoviePlayerDidEnterFullscreenNotification")
    /// The window is about to leave fullscreen (MPMoviePlayerWillExitFullscreenNotification); the
    /// animation's length and curve are under the same keys as for entering.
    public static let moviePlayerWillExitFullscreen = Notification.Name("MoviePlayerWillExitFullscreenNotification")
    /// The window is back to its size (MPMoviePlayerDidExitFullscreenNotification; no userInfo but
    /// the event).
    public static let moviePlayerDidExitFullscreen = Notification.Name("MoviePlayerDidExitFullscreenNotification")
    /// A request to fill the screen was refused (``PlayerEvent/fullscreenRefused(_:)``, under
    /// ``MoviePlayer/eventUserInfoKey``; the error under ``MoviePlayer/errorUserInfoKey``).
    public static let moviePlayerFullscreenRefused = Notification.Name("MoviePlayerFullscreenRefusedNotification")
    /// A time observer fired (periodic or boundary).
    public static let moviePlayerTimeObserverDidFire = Notification.Name("MoviePlayerTimeObserverDidFireNotification")
    /// The movie's metadata became known or grew (``PlayerEvent/metadataAvailable(_:)``).
    public static let movieMetadataAvailable = Notification.Name("MovieMetadataAvailableNotification")
    /// Playback reached timed metadata (``PlayerEvent/timedMetadataChanged(_:)``;
    /// MPMoviePlayerTimedMetadataUpdatedNotification): the items under
    /// ``MoviePlayer/timedMetadataUserInfoKey``.
    public static let moviePlayerTimedMetadataUpdated = Notification.Name(
        "MoviePlayerTimedMetadataUpdatedNotification")
    /// An overlay could not draw and is skipped (``PlayerEvent/overlayFailed(_:_:)``).
    public static let moviePlayerOverlayDidFail = Notification.Name("MoviePlayerOverlayDidFailNotification")
    /// A click landed in an overlay's hit region (``PlayerEvent/overlayRegionActivated(overlay:region:point:)``).
    public static let moviePlayerOverlayRegionActivated = Notification.Name(
        "MoviePlayerOverlayRegionActivatedNotification")
    /// A requested thumbnail finished (MPMoviePlayerThumbnailImageRequestDidFinishNotification):
    /// the picture under ``MoviePlayer/thumbnailImageUserInfoKey``, the time under
    /// ``MoviePlayer/thumbnailTimeUserInfoKey`` and, on failure, the error under
    /// ``MoviePlayer/thumbnailErrorUserInfoKey``.
    public static let moviePlayerThumbnailImageRequestDidFinish = Notification.Name(
        "MoviePlayerThumbnailImageRequestDidFinishNotification")
    /// A network movie's access log changed (MPMoviePlayerPlaybackAccessLogEntry...); read
    /// ``MoviePlayer/accessLog``.
    public static let moviePlayerAccessLogDidChange = Notification.Name("MoviePlayerAccessLogDidChangeNotification")
    /// An entry was added to the error log; it is under ``MoviePlayer/eventUserInfoKey``'s event.
    public static let moviePlayerErrorLogEntryAdded = Notification.Name("MoviePlayerErrorLogEntryAddedNotification")
    /// An HLS stream moved to another variant (``PlayerEvent/variantSwitched(_:)``).
    public static let moviePlayerVariantDidSwitch = Notification.Name("MoviePlayerVariantDidSwitchNotification")
    /// A network movie's load failed in a way that may pass, and the player will load it again
    /// (``PlayerEvent/reconnecting(attempt:delay:error:)``, under ``MoviePlayer/eventUserInfoKey``;
    /// the error under ``MoviePlayer/errorUserInfoKey``).
    public static let moviePlayerWillReconnect = Notification.Name("MoviePlayerWillReconnectNotification")
    /// Playback finished (MPMoviePlayerPlaybackDidFinishNotification); the reason is under
    /// ``MoviePlayer/finishReasonUserInfoKey``, an error under ``MoviePlayer/errorUserInfoKey``.
    public static let moviePlayerPlaybackDidFinish = Notification.Name("MoviePlayerPlaybackDidFinishNotification")
    /// The prepared movie's file is cut short (``PlayerEvent/truncationDetected(playable:duration:)``,
    /// under ``MoviePlayer/eventUserInfoKey``); ``MoviePlayer/playableDuration`` says how much is present.
    public static let moviePlayerTruncationDetected = Notification.Name("MoviePlayerTruncationDetectedNotification")
    /// The queue moved to another item (``PlayerEvent/queueItemChanged(_:)``, under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerQueueItemDidChange = Notification.Name("MoviePlayerQueueItemDidChangeNotification")
    /// The prepared movie's tracks are known (``PlayerEvent/tracksAvailable(_:)``, under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerTracksAvailable = Notification.Name("MoviePlayerTracksAvailableNotification")
    /// Another audio track plays (``PlayerEvent/audioTrackChanged(_:)``, under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerAudioTrackDidChange = Notification.Name("MoviePlayerAudioTrackDidChangeNotification")
    /// Another subtitle track is drawn, or none (``PlayerEvent/subtitleTrackChanged(_:)``, under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerSubtitleTrackDidChange = Notification.Name(
        "MoviePlayerSubtitleTrackDidChangeNotification")
    /// The sound's volume changed (``PlayerEvent/volumeChanged(_:)``, under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerVolumeDidChange = Notification.Name("MoviePlayerVolumeDidChangeNotification")
    /// The sound was muted or unmuted (``PlayerEvent/mutedChanged(_:)``, under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerMutedDidChange = Notification.Name("MoviePlayerMutedDidChangeNotification")
    /// A pre-roll ad started, progressed or finished (``PlayerEvent/prerollAd(_:)``, under
    /// ``MoviePlayer/eventUserInfoKey``; a failed ad's ``PrerollAdError`` under ``MoviePlayer/errorUserInfoKey``).
    public static let moviePlayerPrerollAdDidChange = Notification.Name("MoviePlayerPrerollAdDidChangeNotification")
    /// A key was pressed in a window sink's window (``PlayerEvent/windowKeyPressed(_:shift:)``,
    /// under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerWindowKeyPressed = Notification.Name("MoviePlayerWindowKeyPressedNotification")
    /// A pipeline the player let go of is stuck on its way to NULL (``PlayerEvent/teardownStalled(element:after:)``).
    public static let moviePlayerTeardownDidStall = Notification.Name("MoviePlayerTeardownDidStallNotification")
    /// The playback group's time source stopped answering (``PlayerEvent/groupTimeSourceLost``).
    public static let moviePlayerGroupTimeSourceLost = Notification.Name(
        "MoviePlayerGroupTimeSourceLostNotification")
    /// The playback group's time source answers again (``PlayerEvent/groupTimeSourceRestored``).
    public static let moviePlayerGroupTimeSourceRestored = Notification.Name(
        "MoviePlayerGroupTimeSourceRestoredNotification")
    /// The player cannot keep up with its playback group
    /// (``PlayerEvent/groupMemberTooSlow(framesDropped:within:)``, under ``MoviePlayer/eventUserInfoKey``).
    public static let moviePlayerGroupMemberTooSlow = Notification.Name("MoviePlayerGroupMemberTooSlowNotification")
}

extension MoviePlayer {
    /// The userInfo key of a finish notification's reason (MPMoviePlayerPlaybackDidFinishReasonUserInfoKey):
    /// an `NSNumber` of MPMovieFinishReason's number, the ``FinishReason``'s raw value (0 ended,
    /// 1 error, 2 user exited), so `userInfo[key] as? Int` and `as? NSNumber` read it as ported
    /// code expects. `Notification.finishReason` reads it as the enum.
    public static let finishReasonUserInfoKey = "MoviePlayerPlaybackDidFinishReasonUserInfoKey"
    /// The userInfo key of the error that ended playback (a finish notification's `"error"`, as
    /// MPMoviePlayerController's) or that a reconnection retries after: an `NSError` made from the
    /// ``MediaError`` (its ``MediaError/domain``, ``MediaError/Code/number`` and message), so
    /// `userInfo[key] as? NSError` reads it as ported code does; `Notification.mediaError` gives
    /// the ``MediaError`` back. A failed pre-roll ad's ``PrerollAdError`` is under it as it is.
    public static let errorUserInfoKey = "error"
    /// The userInfo key under which every notification carries its ``PlayerEvent``
    /// (`Notification.playerEvent` reads it).
    public static let eventUserInfoKey = "MoviePlayerEvent"
    /// The userInfo key of a will-enter or will-exit fullscreen notification's animation length
    /// (MPMoviePlayerFullscreenAnimationDurationUserInfoKey): an `NSNumber` of a `Double` of
    /// seconds (0 without animation), so `userInfo[key] as? Double` (or `as? TimeInterval`) reads
    /// it. `Notification.fullscreenAnimationDuration` reads it as a `Duration`.
    public static let fullscreenAnimationDurationUserInfoKey = "MoviePlayerFullscreenAnimationDurationUserInfoKey"
    /// The userInfo key of a will-enter or will-exit fullscreen notification's animation curve
    /// (MPMoviePlayerFullscreenAnimationCurveUserInfoKey): an `NSNumber` of UIViewAnimationCurve's
    /// number, a ``FullscreenAnimationCurve``'s raw value (always 3, linear: the player's own
    /// window moves at an even pace). `Notification.fullscreenAnimationCurve` reads it as the enum.
    public static let fullscreenAnimationCurveUserInfoKey = "MoviePlayerFullscreenAnimationCurveUserInfoKey"
    /// The userInfo key of a thumbnail notification's ``VideoImage`` (MPMoviePlayerThumbnailImageKey).
    public static let thumbnailImageUserInfoKey = "MoviePlayerThumbnailImageKey"
    /// The userInfo key of a thumbnail notification's time (MPMoviePlayerThumbnailTimeKey): an
    /// `NSNumber` of a `Double` of seconds, as MPMoviePlayerController's (`as? Double` reads it),
    /// the frame's own time on success, the requested time on failure. `Notification.thumbnailTime`
    /// reads it as a `Duration`.
    public static let thumbnailTimeUserInfoKey = "MoviePlayerThumbnailTimeKey"
    /// The userInfo key of a failed thumbnail's error (MPMoviePlayerThumbnailErrorKey): an `NSError`
    /// made from the ``MediaError``, as under ``errorUserInfoKey``.
    public static let thumbnailErrorUserInfoKey = "MoviePlayerThumbnailErrorKey"
    /// The userInfo key of a timed-metadata notification's items, a `[TimedMetadataItem]`
    /// (MPMoviePlayerTimedMetadataUserInfoKey).
    public static let timedMetadataUserInfoKey = "MPMoviePlayerTimedMetadataUserInfoKey"
}

extension PlayerEvent {
    /// The notification that mirrors this event.
    public var notificationName: Notification.Name {
        switch self {
        case .preparedToPlayChanged: .mediaPlaybackIsPreparedToPlayDidChange
        case .sourceTypeAvailable: .movieSourceTypeAvailable
        case .durationAvailable: .movieDurationAvailable
        case .naturalSizeAvailable: .movieNaturalSizeAvailable
        case .mediaTypesAvailable: .movieMediaTypesAvailable
        case .loadStateChanged: .moviePlayerLoadStateDidChange
        case .readyForDisplayChanged: .moviePlayerReadyForDisplayDidChange
        case .playbackStateChanged: .moviePlayerPlaybackStateDidChange
        case .seekCompleted: .moviePlayerSeekDidComplete
        case .playbackRateChanged: .moviePlayerPlaybackRateDidChange
        case .didLoop: .moviePlayerDidLoop
        case .nowPlayingMovieChanged: .moviePlayerNowPlayingMovieDidChange
        case .scalingModeChanged: .moviePlayerScalingModeDidChange
        case .externalPlaybackActiveChanged: .moviePlayerIsExternalPlaybackActiveDidChange
        case .videoSinkChanged: .moviePlayerVideoSinkDidChange
        case .willEnterFullscreen: .moviePlayerWillEnterFullscreen
        case .didEnterFullscreen: .moviePlayerDidEnterFullscreen
        case .willExitFullscreen: .moviePlayerWillExitFullscreen
        case .didExitFullscreen: .moviePlayerDidExitFullscreen
        case .fullscreenRefused: .moviePlayerFullscreenRefused
        case .periodicTime, .boundaryTimeReached: .moviePlayerTimeObserverDidFire
        case .metadataAvailable: .movieMetadataAvailable
        case .timedMetadataChanged: .moviePlayerTimedMetadataUpdated
        case .playbackDidFinish: .moviePlayerPlaybackDidFinish
        case .truncationDetected: .moviePlayerTruncationDetected
        case .overlayFailed: .moviePlayerOverlayDidFail
        case .overlayRegionActivated: .moviePlayerOverlayRegionActivated
        case .thumbnailRequestFinished: .moviePlayerThumbnailImageRequestDidFinish
        case .accessLogChanged: .moviePlayerAccessLogDidChange
        case .errorLogEntryAdded: .moviePlayerErrorLogEntryAdded
        case .variantSwitched: .moviePlayerVariantDidSwitch
        case .reconnecting: .moviePlayerWillReconnect
        case .prerollAd: .moviePlayerPrerollAdDidChange
        case .volumeChanged: .moviePlayerVolumeDidChange
        case .queueItemChanged: .moviePlayerQueueItemDidChange
        case .tracksAvailable: .moviePlayerTracksAvailable
        case .audioTrackChanged: .moviePlayerAudioTrackDidChange
        case .subtitleTrackChanged: .moviePlayerSubtitleTrackDidChange
        case .mutedChanged: .moviePlayerMutedDidChange
        case .windowKeyPressed: .moviePlayerWindowKeyPressed
        case .teardownStalled: .moviePlayerTeardownDidStall
        case .groupTimeSourceLost: .moviePlayerGroupTimeSourceLost
        case .groupTimeSourceRestored: .moviePlayerGroupTimeSourceRestored
        case .groupMemberTooSlow: .moviePlayerGroupMemberTooSlow
        }
    }

    /// The notification's userInfo: the event under ``MoviePlayer/eventUserInfoKey``, and the keys
    /// MPMoviePlayerController documents for its notification, with the values it documents
    /// (numbers as `NSNumber`), or the engine's own notification's keys. Nothing else: a
    /// notification MPMoviePlayerController posts without userInfo has only the event.
    var notificationUserInfo: [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [MoviePlayer.eventUserInfoKey: self]
        switch self {
        case .willEnterFullscreen(let duration), .willExitFullscreen(let duration):
            // NSNumbers, as MPMoviePlayerController's: `as? Double`, `as? Int` and `as? NSNumber` read them.
            info[MoviePlayer.fullscreenAnimationDurationUserInfoKey] = NSNumber(value: duration.inSeconds)
            info[MoviePlayer.fullscreenAnimationCurveUserInfoKey] = NSNumber(
                value: PlayerCore.fullscreenAnimationCurve.rawValue)
        default:
            break
        }
        if case .thumbnailRequestFinished(let result) = self {
            info[MoviePlayer.thumbnailTimeUserInfoKey] = NSNumber(
                value: (result.actualTime ?? result.requestedTime).inSeconds)
            switch result.result {
            case .success(let image): info[MoviePlayer.thumbnailImageUserInfoKey] = image
            case .failure(let error): info[MoviePlayer.thumbnailErrorUserInfoKey] = error as NSError
            }
        }
        if case .timedMetadataChanged(let items) = self { info[MoviePlayer.timedMetadataUserInfoKey] = items }
        if case .reconnecting(_, _, let error) = self { info[MoviePlayer.errorUserInfoKey] = error as NSError }
        if case .fullscreenRefused(let error) = self { info[MoviePlayer.errorUserInfoKey] = error as NSError }
        if case .prerollAd(.finished(_, let error?)) = self { info[MoviePlayer.errorUserInfoKey] = error }
        if case .playbackDidFinish(let reason, let error) = self {
            info[MoviePlayer.finishReasonUserInfoKey] = NSNumber(value: reason.rawValue)
            if let error { info[MoviePlayer.errorUserInfoKey] = error as NSError }
        }
        return info
    }
}
