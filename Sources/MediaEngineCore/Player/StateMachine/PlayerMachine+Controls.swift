/// The on-screen controls' own inputs: what their Done button does to playback.
extension PlayerMachine.State {
    var doneButtonBehavior: DoneButtonBehavior { settings.doneButtonBehavior }

    /// The controls' Done button, at `position`: a pause (``DoneButtonBehavior/exitFullscreen``),
    /// or a stop that finishes playback with ``FinishReason/userExited``
    /// (``DoneButtonBehavior/finishPlayback``). Leaving fullscreen is the owner's window work.
    mutating func doneButtonPressed(position: Duration?) -> PlayerMachine.Wait {
        switch settings.doneButtonBehavior {
        case .exitFullscreen:
            return pause(position: position)
        case .finishPlayback:
            stop()
            return .success
        }
    }
}

/// Fullscreen: only the player's own window can fill the screen.
extension PlayerMachine.State {
    /// Why the movie cannot fill the screen with the current output, or nil when it can (a sink
    /// with ``VideoSinkCapabilities/fullscreen`` drawing into a window of the player's own).
    var fullscreenRefusal: MediaError? {
        guard videoSink.capabilities.contains(.fullscreen) else {
            return MediaError(
                .unsupportedOperation,
                "the video sink cannot show fullscreen: only a window sink's own window fills the screen")
        }
        guard presentation.windowHandle == nil else {
            return MediaError(
                .unsupportedOperation,
                "the video is drawn in the app's window (windowHandle), which the engine cannot make fill the "
                    + "screen: the app makes its window fullscreen")
        }
        return nil
    }
}
