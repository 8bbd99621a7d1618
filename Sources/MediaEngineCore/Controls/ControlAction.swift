/// What a click on the controls asks for: each is one of the player's own API calls, so it posts
/// what that call posts.
enum ControlAction: Sendable, Hashable {
    /// ``MoviePlayer/play()``.
    case play
    /// ``MoviePlayer/pause()``.
    case pause
    /// ``MoviePlayer/seek(to:option:)``, exact.
    case seek(to: Duration)
    /// ``MoviePlayer/setFullscreen(_:animated:)``, animated.
    case setFullscreen(Bool)
    /// ``MoviePlayer/scalingMode``.
    case setScalingMode(ScalingMode)
    /// ``MoviePlayer/volume`` (unmuting when muted).
    case setVolume(Double)
    /// The Done button: pause, and leave fullscreen; no playback finish is posted
    /// (MPMoviePlayerController's documented behaviour).
    case done
    /// The tracks button: open or close the track menu (the controls' own state).
    case toggleTrackMenu
    /// ``MoviePlayer/selectAudioTrack(_:)``, from the track menu.
    case selectAudioTrack(Int)
    /// ``MoviePlayer/selectSubtitleTrack(_:)``, from the track menu (nil: off).
    case selectSubtitleTrack(Int?)

    /// How far the seek buttons jump.
    static let skipLength = Duration.seconds(10)

    /// The action of a click on `element` at `x` (the strip's pixels) of `bar`, with the player as
    /// `snapshot` says; nil when the click does nothing (a scrubber with no known duration).
    static func of(
        _ element: ControlsLayout.Element, atX x: Double, in bar: ControlsLayout.Bar, layout: ControlsLayout,
        snapshot: ControlsSnapshot
    ) -> ControlAction? {
        switch element {
        case .playPause:
            return snapshot.isPlaying ? .pause : .play
        case .seekBackward, .seekForward:
            let forward = element == .seekForward
            var target = snapshot.position + (forward ? skipLength : .zero - skipLength)
            target = max(.zero, target)
            if let duration = snapshot.duration { target = min(duration, target) }
            return .seek(to: target)
        case .scrubber:
            guard let duration = snapshot.duration, duration > .zero,
                let fraction = layout.fraction(of: .scrubber, atX: x, in: bar)
            else { return nil }
            return .seek(to: duration * fraction)
        case .volume:
            guard let fraction = layout.fraction(of: .volume, atX: x, in: bar) else { return nil }
            return .setVolume((fraction * 100).rounded() / 100)
        case .fullscreenToggle:
            return .setFullscreen(!snapshot.isFullscreen)
        case .aspect:
            return .setScalingMode(snapshot.scalingMode == .aspectFill ? .aspectFit : .aspectFill)
        case .done:
            return .done
        case .tracks:
            return .toggleTrackMenu
        case .elapsed, .remaining:
            return nil
        }
    }
}
