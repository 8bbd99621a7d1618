/// The playback controls the engine draws over the movie.
extension MoviePlayer {
    /// The controls drawn over the movie (MPMoviePlayerController's `controlStyle`): none, the
    /// embedded set or the fullscreen set. Change it at any time, playing or not.
    ///
    /// Until the app sets it (or ``movieControlMode``), it follows the output: in a window the
    /// player opens itself (a ``WindowSink`` without ``windowHandle``) it is
    /// ``MovieControlStyle/default``, the fullscreen set, as MPMoviePlayerController shows unasked;
    /// in every other output it is ``MovieControlStyle/none``, since there the frames go to
    /// another program (frames, image files, a terminal, a network output) or into an app's
    /// window with controls of its own. Changing the sink or ``windowHandle`` moves the default
    /// along; once the app has set a style, that style stays whatever the output.
    ///
    /// The controls are two translucent bars in the output's own pixels (they scale with the
    /// window or frame size), over every app overlay: play/pause, the elapsed and remaining time,
    /// a scrubber (with the buffered part, for a stream) and a fullscreen toggle; the fullscreen
    /// style adds seek buttons (10 seconds back or forward), a volume slider, an aspect fit/fill
    /// toggle, a track menu and a Done button. While the movie plays they fade out 3 seconds
    /// after the last input and come back on pointer motion, a click or a key in the player's
    /// window (in an app's window: ``sendPointer(x:y:)`` and ``pointerMoved()``); while it does
    /// not play they stay.
    ///
    /// A click on a control does what the matching call does and posts the same events:
    /// ``play()``, ``pause()``, ``seek(to:option:)`` (exact), ``setFullscreen(_:animated:)``
    /// (animated; refused with ``PlayerEvent/fullscreenRefused(_:)`` where the output cannot fill
    /// the screen), ``scalingMode``, ``volume``. Done does what ``doneButtonBehavior`` says. While
    /// paused, the picture is shown again after a click, so the controls over it show the change.
    public var controlStyle: MovieControlStyle {
        get { core.controls.style }
        set {
            let kind = ControlsKind(newValue)
            guard kind != core.controls.kind || !core.controls.isChosen else { return core.controls.noteInput() }
            core.chooseControls(kind)
        }
    }

    /// MPMoviePlayerController's first control setting, for code from iPhone OS 2:
    /// ``MovieControlMode/default`` shows ``MovieControlStyle/default`` (the fullscreen set),
    /// ``MovieControlMode/hidden`` none, and ``MovieControlMode/volumeOnly`` a short bar at the
    /// bottom middle with the speaker and the volume slider alone (no style names it:
    /// ``controlStyle`` then reads ``MovieControlStyle/embedded``). Reads back the mode shown:
    /// ``MovieControlMode/default`` for either style with transport controls.
    public var movieControlMode: MovieControlMode {
        get { core.controls.kind.mode }
        set {
            let kind = ControlsKind(newValue)
            guard kind != core.controls.kind || !core.controls.isChosen else { return core.controls.noteInput() }
            core.chooseControls(kind)
        }
    }

    /// What the fullscreen controls' Done button does (default ``DoneButtonBehavior/exitFullscreen``,
    /// MPMoviePlayerController's: pause and leave fullscreen, no playback finish).
    /// ``DoneButtonBehavior/finishPlayback`` is MPMoviePlayerViewController's: playback stops and
    /// finishes with ``FinishReason/userExited`` (``PlayerEvent/playbackDidFinish(_:_:)`` and the
    /// notification, as `MPMovieFinishReasonUserExited`), and the player's own window closes, as
    /// the view controller is dismissed (the next movie opens a new one). Set it at any time; the
    /// next click on Done follows it.
    public var doneButtonBehavior: DoneButtonBehavior {
        get { core.read { $0.doneButtonBehavior } }
        set { core.apply { $0.setDoneButtonBehavior(newValue) } }
    }

    /// The pointer moved over the output: the controls (``controlStyle``) show again for a few
    /// seconds. The player's own window reports its pointer motion by itself; for a window the
    /// app gave, call this from its motion events.
    public func pointerMoved() {
        core.controls.noteInput()
    }
}
