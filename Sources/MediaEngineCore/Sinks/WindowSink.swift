internal import CMediaEngineGlue

/// Shows the video on screen, in an X11 window (`ximagesink`) or on Wayland (`waylandsink`).
///
/// On X11 it needs the engine's X11 window system, which the `MediaEngine` product links and
/// `MediaEngineCore` alone does not: there, ``makeOutput()`` throws.
///
/// By default the player opens a window of its own, sized to the movie, that it can make
/// fullscreen (``MoviePlayer/setFullscreen(_:animated:)``). Give the player a window of yours
/// instead with ``MoviePlayer/windowHandle`` (an X11 window id), and the video is drawn into
/// it, inside ``MoviePlayer/viewFrame`` if set. Either way the frames reach the window at the
/// size they are shown, fitted by ``MoviePlayer/scalingMode``.
public struct WindowSink: VideoSink {
    /// The X11 display to use (for example `":1"`), or nil for `$DISPLAY` (or Wayland's `$WAYLAND_DISPLAY`).
    public let display: String?

    /// Creates the sink.
    /// - Parameter display: The X11 display, or nil for the environment's.
    public init(display: String? = nil) {
        self.display = display
    }

    /// ``VideoSinkCapabilities/window`` and ``VideoSinkCapabilities/fullscreen``.
    public static var capabilities: VideoSinkCapabilities { [.window, .fullscreen] }

    /// `ximagesink` on X11, `waylandsink` on Wayland; none without a display (the output cannot be
    /// made there, see ``makeOutput()``).
    public var requiredElements: [String] {
        switch try? screen() {
        case .x11: ["ximagesink"]
        case .wayland: ["waylandsink"]
        case nil: []
        }
    }

    /// `ximagesink` on X11, `waylandsink` on Wayland.
    /// - Throws: ``MediaError/Code/unsupportedOperation`` when there is no display to show it on.
    public func makeOutput() throws(MediaError) -> VideoOutput {
        switch try screen() {
        case .x11(let display):
            .element(
                ElementDescription(
                    factory: "ximagesink", properties: ["display": .string(display), "handle-events": true]))
        case .wayland:
            .element(ElementDescription(factory: "waylandsink"))
        }
    }

    /// Where the window goes.
    enum Screen {
        /// An X11 display, by name.
        case x11(String)
        /// The Wayland display of `WAYLAND_DISPLAY`.
        case wayland
    }

    /// ``display``, else `DISPLAY`, else `WAYLAND_DISPLAY`: what the registry's `window` factory
    /// checks, and ``makeOutput()`` again.
    /// - Throws: ``MediaError/Code/unsupportedOperation`` when there is none, or when it is an X11
    ///   display and no X11 window system is linked (MediaEngineCore alone).
    func screen() throws(MediaError) -> Screen {
        let environment = ProcessEnvironment.current
        if let x11 = display ?? environment["DISPLAY"], !x11.isEmpty {
            guard me_window_system_available() != 0 else { throw MediaError.noWindowSystem }
            return .x11(x11)
        }
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty { return .wayland }
        throw MediaError(
            .unsupportedOperation, "no display for a window: set DISPLAY (X11) or WAYLAND_DISPLAY, or use another sink")
    }
}

extension MediaError {
    /// An X11 window wanted where no window system is linked: the core alone (MediaEngineCore)
    /// has none; the MediaEngine product links the engine's (CMediaEngineX11Window).
    static var noWindowSystem: MediaError {
        MediaError(
            .unsupportedOperation,
            "X11 windows need the engine's window system, which MediaEngineCore alone does not link: "
                + "depend on the MediaEngine product, or use another sink")
    }
}
