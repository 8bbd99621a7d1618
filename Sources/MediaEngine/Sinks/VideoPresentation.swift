/// How the video output presents the movie: turned, scaled into an output size, on a background.
/// The player keeps one and every pipeline it builds follows it, live.
struct VideoPresentation: Sendable, Equatable {
    var orientation = VideoOrientation.automatic
    var scalingMode = ScalingMode.aspectFit
    var background = RGBAColor.black
    /// The view frame: the output size for the scaler, the render rectangle for window sinks.
    var viewFrame: ViewRect?

    /// The size frames leave the scaler at: the view frame's, else the sink's own, else the movie's.
    func outputSize(sinkSize: VideoSize?) -> VideoSize? {
        viewFrame?.size ?? sinkSize
    }

    /// The background as the scaler's ARGB word.
    var backgroundARGB: Int {
        Int(background.alpha) << 24 | Int(background.red) << 16 | Int(background.green) << 8 | Int(background.blue)
    }
}
