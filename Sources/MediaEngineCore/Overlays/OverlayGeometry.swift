internal import CMediaEngineElements

/// Where the movie's picture sits in an output frame (the "view"), after the scaling mode, the
/// output size and the view frame have had their say: the part of the movie that is shown, and
/// the rectangle of the output it fills. Overlays placed in ``OverlayPlacement/Space/movie``
/// space are mapped through it, and so are points on the view back to the movie.
public struct OverlayGeometry: Sendable, Hashable {
    /// The output frame's size.
    public let viewSize: VideoSize
    /// The movie's picture size, as shown (after orientation).
    public let movieSize: VideoSize
    /// The part of the movie that is shown (all of it, except for aspect fill and none).
    public let visibleMovieRect: ViewRect
    /// Where that part is in the output.
    public let pictureRect: ViewRect
    /// The frame's position in the movie, if known.
    public let time: Duration?

    /// A geometry; the movie fills the view when `pictureRect` and `visibleMovieRect` are nil.
    /// - Parameters:
    ///   - viewSize: The output frame's size.
    ///   - movieSize: The movie's size.
    ///   - visibleMovieRect: The part of the movie shown, or nil for all of it.
    ///   - pictureRect: Where it is in the output, or nil for all of it.
    ///   - time: The frame's position in the movie.
    public init(
        viewSize: VideoSize, movieSize: VideoSize, visibleMovieRect: ViewRect? = nil, pictureRect: ViewRect? = nil,
        time: Duration? = nil
    ) {
        self.viewSize = viewSize
        self.movieSize = movieSize
        self.visibleMovieRect =
            visibleMovieRect ?? ViewRect(x: 0, y: 0, width: movieSize.width, height: movieSize.height)
        self.pictureRect = pictureRect ?? ViewRect(x: 0, y: 0, width: viewSize.width, height: viewSize.height)
        self.time = time
    }

    init(_ raw: MeScalerGeometry) {
        self.init(
            viewSize: VideoSize(width: Int(raw.canvas_width), height: Int(raw.canvas_height)),
            movieSize: VideoSize(width: Int(raw.input_width), height: Int(raw.input_height)),
            visibleMovieRect: ViewRect(
                x: Int(raw.source_x), y: Int(raw.source_y), width: Int(raw.source_width),
                height: Int(raw.source_height)),
            pictureRect: ViewRect(
                x: Int(raw.picture_x), y: Int(raw.picture_y), width: Int(raw.picture_width),
                height: Int(raw.picture_height)),
            time: Duration(clockTime: raw.stream_time))
    }

    /// The size an overlay in `space` is placed against.
    public func size(of space: OverlayPlacement.Space) -> VideoSize {
        space == .movie ? movieSize : viewSize
    }

    private var scaleX: Double { Double(pictureRect.width) / Double(max(1, visibleMovieRect.width)) }
    private var scaleY: Double { Double(pictureRect.height) / Double(max(1, visibleMovieRect.height)) }

    /// A rectangle placed in `space`, in the output's pixels.
    /// - Parameters:
    ///   - rect: Origin and size in `space`'s pixels.
    ///   - space: The space `rect` is in.
    /// - Returns: The rectangle on the output (it may reach past its edges; blending clips it).
    public func viewRect(for rect: (x: Int, y: Int, width: Int, height: Int), in space: OverlayPlacement.Space)
        -> ViewRect
    {
        guard space == .movie else { return ViewRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height) }
        let left = Double(pictureRect.x) + Double(rect.x - visibleMovieRect.x) * scaleX
        let top = Double(pictureRect.y) + Double(rect.y - visibleMovieRect.y) * scaleY
        let right = Double(pictureRect.x) + Double(rect.x + rect.width - visibleMovieRect.x) * scaleX
        let bottom = Double(pictureRect.y) + Double(rect.y + rect.height - visibleMovieRect.y) * scaleY
        let x = Int(saturating: left)
        let y = Int(saturating: top)
        let width = Int(saturating: right).subtractingReportingOverflow(x)
        let height = Int(saturating: bottom).subtractingReportingOverflow(y)
        return ViewRect(
            x: x, y: y, width: width.overflow ? 0 : width.partialValue,
            height: height.overflow ? 0 : height.partialValue)
    }

    /// A point on the output in `space`'s pixels, or nil when it falls on a bar beside the movie
    /// (for ``OverlayPlacement/Space/movie``).
    /// - Parameters:
    ///   - x: Pixels from the output's left edge.
    ///   - y: Pixels from the output's top edge.
    ///   - space: The space wanted.
    /// - Returns: The point in that space.
    public func point(fromViewX x: Double, y: Double, in space: OverlayPlacement.Space) -> (x: Double, y: Double)? {
        guard space == .movie else { return (x, y) }
        guard x >= Double(pictureRect.x), x < Double(pictureRect.x + pictureRect.width), y >= Double(pictureRect.y),
            y < Double(pictureRect.y + pictureRect.height)
        else { return nil }
        return (
            Double(visibleMovieRect.x) + (x - Double(pictureRect.x)) / scaleX,
            Double(visibleMovieRect.y) + (y - Double(pictureRect.y)) / scaleY
        )
    }
}
