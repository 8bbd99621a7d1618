/// An overlay drawn by a Swift closure into an ``OverlayCanvas``: clocks, progress bars,
/// watermarks, anything computed.
///
/// With ``Redraw-swift.enum/everyFrame`` the closure runs for every frame (on the video thread:
/// keep it quick); with ``Redraw-swift.enum/whenInvalidated`` it runs once, and again after each
/// ``invalidate()``. A closure that throws skips the overlay (the player announces
/// ``PlayerEvent/overlayFailed(_:_:)`` once) and playback goes on; the next successful drawing
/// brings it back.
public final class DrawingOverlay: VideoOverlay {
    /// When the closure runs.
    public enum Redraw: Sendable, Hashable {
        /// For every frame.
        case everyFrame
        /// Once, and after each ``DrawingOverlay/invalidate()``.
        case whenInvalidated
    }

    /// Draws one picture.
    /// - Parameters:
    ///   - canvas: Cleared to transparent; draw into it.
    ///   - request: The frame's size and position in the movie.
    public typealias Draw = @Sendable (_ canvas: inout OverlayCanvas, _ request: OverlayRenderRequest) throws -> Void

    /// The canvas size.
    public let size: VideoSize
    /// When the closure runs.
    public let redraw: Redraw
    private let draw: Draw
    private let attributes: LiveOverlayAttributes
    /// The latest drawing, for ``Redraw-swift.enum/whenInvalidated``; nil after ``invalidate()``.
    private let drawn = Locked<OverlayBitmap?>(nil)

    /// A drawn overlay.
    /// - Parameters:
    ///   - size: The canvas size in pixels (the placement may scale it).
    ///   - redraw: For every frame, or only when invalidated.
    ///   - placement: Where it goes.
    ///   - zOrder: Higher draws over lower.
    ///   - opacity: 0 to 1.
    ///   - timeRange: When it shows, or nil for always.
    ///   - hitRegions: Areas that react to clicks, in the canvas's pixels.
    ///   - draw: The closure.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty size.
    public init(
        size: VideoSize, redraw: Redraw = .whenInvalidated, placement: OverlayPlacement = .absolute(x: 0, y: 0),
        zOrder: Int = 0, opacity: Double = 1, timeRange: Range<Duration>? = nil, hitRegions: [OverlayHitRegion] = [],
        draw: @escaping Draw
    ) throws(MediaError) {
        guard size.width > 0, size.height > 0, size.width * size.height <= 8192 * 8192 else {
            throw MediaError(.invalidArgument, "a drawing overlay needs a positive size, not \(size)")
        }
        self.size = size
        self.redraw = redraw
        self.draw = draw
        attributes = LiveOverlayAttributes(
            OverlayAttributes(
                placement: placement, zOrder: zOrder, opacity: opacity, timeRange: timeRange, hitRegions: hitRegions))
    }

    /// Makes the closure run again before the next frame (for ``Redraw-swift.enum/whenInvalidated``).
    public func invalidate() {
        drawn.withLock { $0 = nil }
    }

    /// Where the overlay goes and how big it is.
    public var placement: OverlayPlacement {
        get { attributes[\.placement] }
        set { attributes[\.placement] = newValue }
    }

    /// Higher values draw over lower ones.
    public var zOrder: Int {
        get { attributes[\.zOrder] }
        set { attributes[\.zOrder] = newValue }
    }

    /// Whether the overlay is drawn.
    public var isVisible: Bool {
        get { attributes[\.isVisible] }
        set { attributes[\.isVisible] = newValue }
    }

    /// 0 (invisible) to 1 (as the pixels' own alpha says).
    public var opacity: Double {
        get { attributes[\.opacity] }
        set { attributes[\.opacity] = newValue }
    }

    /// When the overlay shows, or nil for the whole movie.
    public var timeRange: Range<Duration>? {
        get { attributes[\.timeRange] }
        set { attributes[\.timeRange] = newValue }
    }

    /// Areas that react to clicks, in the bitmap's pixels.
    public var hitRegions: [OverlayHitRegion] {
        get { attributes[\.hitRegions] }
        set { attributes[\.hitRegions] = newValue }
    }

    /// The pixels for one frame (see ``VideoOverlay/bitmap(for:)``).
    public func bitmap(for request: OverlayRenderRequest) throws(MediaError) -> OverlayBitmap? {
        if redraw == .whenInvalidated, let drawn = drawn.withLock({ $0 }) { return drawn }
        var canvas = OverlayCanvas(width: size.width, height: size.height)
        do {
            try draw(&canvas, request)
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(.overlayFailed, "the drawing closure threw: \(error)")
        }
        let bitmap = try OverlayBitmap(width: size.width, height: size.height, rgba: canvas.pixels)
        if redraw == .whenInvalidated { drawn.withLock { $0 = bitmap } }
        return bitmap
    }
}
