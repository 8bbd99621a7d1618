/// Something drawn over the movie: a picture, text, a clock. Implement ``bitmap(for:)``; the
/// other requirements have defaults (always visible, opaque, at the top left, natural size).
///
/// Overlays are composited by GStreamer in one step for all of them (one
/// `GstVideoOverlayComposition` per frame, blended by the video output's scaler after it has
/// scaled the picture), without restarting the pipeline when they are added, changed or removed.
/// The engine's own overlays are ``ImageOverlay``, ``TextOverlay`` and ``DrawingOverlay``.
///
/// Rules an implementation keeps:
/// - ``bitmap(for:)`` runs on the video streaming thread once per frame; return quickly, and
///   return the *same* ``OverlayBitmap`` instance while the picture does not change, so the
///   engine uploads it to GStreamer once rather than every frame.
/// - Properties may change at any time (a class with a lock, say); the engine reads them once
///   per frame.
public protocol VideoOverlay: Sendable {
    /// Higher values are drawn over lower ones; equal values in the order they were added.
    var zOrder: Int { get }
    /// Whether the overlay is drawn at all.
    var isVisible: Bool { get }
    /// Where the overlay goes and how big it is.
    var placement: OverlayPlacement { get }
    /// 0 (invisible) to 1 (as the bitmap's own alpha says).
    var opacity: Double { get }
    /// The part of the movie during which the overlay shows, or nil for all of it.
    var timeRange: Range<Duration>? { get }
    /// Areas that react to clicks and touches, in the bitmap's own pixels (see ``OverlayHitRegion``).
    var hitRegions: [OverlayHitRegion] { get }

    /// The pixels to draw over one frame, or nil to draw nothing this frame.
    /// - Parameter request: The frame's size and position in the movie.
    /// - Returns: The overlay's pixels.
    /// - Throws: ``MediaError`` when the overlay cannot draw; the engine skips it for this frame
    ///   and announces the error once (``PlayerEvent/overlayFailed(_:_:)``); playback goes on.
    func bitmap(for request: OverlayRenderRequest) throws(MediaError) -> OverlayBitmap?
}

extension VideoOverlay {
    /// Zero: over the engine's own layers below the movie, under its controls; among other overlays
    /// that keep the default, drawn in the order they were added.
    public var zOrder: Int { 0 }
    /// Always visible.
    public var isVisible: Bool { true }
    /// The top left corner, natural size.
    public var placement: OverlayPlacement { .absolute(x: 0, y: 0) }
    /// Opaque.
    public var opacity: Double { 1 }
    /// The whole movie.
    public var timeRange: Range<Duration>? { nil }
    /// None.
    public var hitRegions: [OverlayHitRegion] { [] }
}

/// What an overlay is drawn over.
public struct OverlayRenderRequest: Sendable, Hashable {
    /// The size of the area the overlay is placed in, in pixels: the movie's picture for
    /// ``OverlayPlacement/Space/movie`` placements, the output frame for ``OverlayPlacement/Space/view``.
    public let frameSize: VideoSize
    /// The frame's position in the movie, if known.
    public let time: Duration?
    /// Where the movie's picture is on the output frame, in the view's pixels, if known (the
    /// rest of the view is the background the scaling leaves).
    public let pictureRect: ViewRect?

    /// A request.
    /// - Parameters:
    ///   - frameSize: The size of the area the overlay is placed in.
    ///   - time: The frame's position in the movie.
    ///   - pictureRect: Where the picture is on the output frame, if known.
    public init(frameSize: VideoSize, time: Duration?, pictureRect: ViewRect? = nil) {
        self.frameSize = frameSize
        self.time = time
        self.pictureRect = pictureRect
    }
}
