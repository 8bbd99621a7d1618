/// How the video output presents the movie: turned, scaled into an output size, on a background.
/// The player keeps one and every pipeline it builds follows it, live.
struct VideoPresentation: Sendable, Equatable {
    var orientation = VideoOrientation.automatic
    var scalingMode = ScalingMode.aspectFit
    var background = RGBAColor.black
    /// The view frame: the output size for the scaler, the render rectangle for window sinks.
    var viewFrame: ViewRect?
    /// A window of the app's to draw in (an X11 window id), instead of one of the player's.
    var windowHandle: UInt?
    /// The screen's size while the player's own window is fullscreen.
    var fullscreenSize: VideoSize?
    /// The size of the window a window sink draws in (the whole window is drawn: the picture in
    /// the view frame, the background around it).
    var windowCanvas: VideoSize?
    /// The tile of a video wall the output shows, if it is one (``MoviePlayer/wallTile``).
    var wallTile: VideoWallTile?
    /// A change of scaling mode on its way (``MoviePlayer/scalingModeAnimationDuration``): the
    /// picture part of the way from the old mode's place to ``scalingMode``'s.
    var scalingTransition: ScalingTransition?

    /// A change of scaling mode in progress.
    struct ScalingTransition: Sendable, Equatable {
        /// The mode the picture comes from.
        var from: ScalingMode
        /// How far it has come, 0 to 1.
        var progress: Double
    }

    /// The scaler's output size, and the area in it the picture is fitted into (nil: all of it).
    /// A window sink gets frames the size of its window with the picture in the view frame (in
    /// the whole window while it fills the screen: the view frame is the windowed layout); any
    /// other output gets frames the size of the view frame, or its own size, or the movie's.
    func scalerGeometry(for chain: VideoOutputBin.OutputChain) -> (canvas: VideoSize?, view: ViewRect?) {
        if chain.isWindow, let canvas = windowCanvas { return (canvas, fullscreenSize == nil ? viewFrame : nil) }
        return (viewFrame?.size ?? chain.sinkSize, nil)
    }

    /// The background as the scaler's ARGB word.
    var backgroundARGB: Int {
        Int(background.alpha) << 24 | Int(background.red) << 16 | Int(background.green) << 8 | Int(background.blue)
    }
}
