/// The playback controls the engine draws over the movie.
extension MoviePlayer {
    /// The controls drawn over the movie (MPMoviePlayerController's `controlStyle`): none (the
    /// default here), the embedded set or the fullscreen set. Change it at any time, playing or
    /// not.
    ///
    /// MPMoviePlayerController shows its default (fullscreen) style unless told otherwise; this
    /// engine draws nothing unasked, because its outputs are as often frames for another program
    /// as a window for a person: a port that relied on the default sets ``MovieControlStyle/default``.
    ///
    /// The controls are two translucent bars in the output's own pixels (they scale with the
    /// window or frame size), over every app overlay: play/pause, the elapsed and remaining time,
    /// a scrubber (with the buffered part, for a stream) and a fullscreen toggle; the fullscreen
    /// style adds seek buttons (10 seconds back or forward), a volume slider, an aspect fit/fill
    /// toggle and a Done button. While the movie plays they fade out 3 seconds after the last
    /// input and come back on pointer motion, a click or a key in the player's window (in an app's
    /// window: ``sendPointer(x:y:)`` and ``pointerMoved()``); while it does not play they stay.
    ///
    /// A click on a control does what the matching call does and posts the same events:
    /// ``play()``, ``pause()``, ``seek(to:option:)`` (exact), ``setFullscreen(_:animated:)``
    /// (animated), ``scalingMode``, ``volume``. Done pauses and leaves fullscreen, without a
    /// ``PlayerEvent/playbackDidFinish(_:_:)`` (as MPMoviePlayerController documents). While
    /// paused, the picture is shown again after a click, so the controls over it show the change.
    public var controlStyle: MovieControlStyle {
        get { core.controls.style }
        set {
            guard newValue != core.controls.style else { return core.controls.noteInput() }
            core.setControlStyle(newValue)
        }
    }

    /// MPMoviePlayerController's first control setting, for code from iPhone OS 2: ``MovieControlMode/default``
    /// is ``MovieControlStyle/default``, ``MovieControlMode/hidden`` is ``MovieControlStyle/none``,
    /// and ``MovieControlMode/volumeOnly``, which the engine has no style for, shows
    /// ``MovieControlStyle/embedded``. Reads back the mode of the current ``controlStyle``.
    public var movieControlMode: MovieControlMode {
        get { MovieControlMode(controlStyle) }
        set { controlStyle = newValue.controlStyle }
    }

    /// The pointer moved over the output: the controls (``controlStyle``) show again for a few
    /// seconds. The player's own window reports its pointer motion by itself; for a window the
    /// app gave, call this from its motion events.
    public func pointerMoved() {
        core.controls.noteInput()
    }
}
