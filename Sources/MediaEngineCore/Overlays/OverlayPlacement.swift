/// Where an overlay goes on the frame and how big it is: an anchor (a corner, an edge's middle
/// or the centre), an inward offset from it, and a size, each in pixels or as a fraction of the frame,
/// in the movie's pixels (the overlay scales and moves with the picture) or the view's.
public struct OverlayPlacement: Sendable, Hashable {
    /// What an overlay's pixels and fractions are measured against.
    public enum Space: Sendable, Hashable, CaseIterable {
        /// The movie's picture, as decoded (and turned): the overlay stays on the movie through
        /// every scaling mode and output size, scaled and cropped with it.
        case movie
        /// The output frame (a window, a frames sink's size): the overlay stays where it is on
        /// the view, bars included, whatever the movie does.
        case view
    }

    /// The point of the frame the overlay is attached to; the overlay's matching point sits there.
    public enum Anchor: Sendable, Hashable, CaseIterable {
        /// The top left corner.
        case topLeft
        /// The middle of the top edge.
        case top
        /// The top right corner.
        case topRight
        /// The middle of the left edge.
        case left
        /// The centre of the frame; offsets move the overlay right and down from there.
        case center
        /// The middle of the right edge.
        case right
        /// The bottom left corner.
        case bottomLeft
        /// The middle of the bottom edge.
        case bottom
        /// The bottom right corner.
        case bottomRight
    }

    /// A length in pixels, or as a fraction of the frame's width (for x and width) or height (for y and height).
    public enum Length: Sendable, Hashable {
        /// A number of pixels of the placement's ``OverlayPlacement/Space``.
        case pixels(Int)
        /// A share of the frame's side: 0.5 is half its width (or height). Not clamped: values
        /// below 0 or above 1 place the overlay partly or wholly outside the frame.
        case fraction(Double)

        func resolve(against total: Int) -> Int {
            switch self {
            case .pixels(let pixels): pixels
            case .fraction(let fraction): Int(saturating: fraction * Double(total))
            }
        }
    }

    /// The anchor.
    public var anchor: Anchor
    /// The horizontal offset from the anchor, inward (to the left for right anchors).
    public var x: Length
    /// The vertical offset from the anchor, inward (upward for bottom anchors).
    public var y: Length
    /// The width, or nil for the bitmap's own (scaled with the height if only that is given).
    public var width: Length?
    /// The height, or nil for the bitmap's own (scaled with the width if only that is given).
    public var height: Length?
    /// What the lengths are measured against.
    public var space: Space

    /// Creates a placement.
    /// - Parameters:
    ///   - anchor: The point of the frame the overlay is attached to.
    ///   - x: Horizontal offset from the anchor, inward.
    ///   - y: Vertical offset from the anchor, inward.
    ///   - width: Width, or nil for natural.
    ///   - height: Height, or nil for natural.
    ///   - space: The movie's pixels (the default) or the view's.
    public init(
        anchor: Anchor, x: Length = .pixels(0), y: Length = .pixels(0), width: Length? = nil, height: Length? = nil,
        in space: Space = .movie
    ) {
        self.anchor = anchor
        self.space = space
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// At (`x`, `y`) pixels from the frame's top left corner.
    /// - Parameters:
    ///   - x: Pixels from the left edge.
    ///   - y: Pixels from the top edge.
    ///   - width: Width in pixels, or nil for natural.
    ///   - height: Height in pixels, or nil for natural.
    ///   - space: The movie's pixels (the default) or the view's.
    /// - Returns: The placement.
    public static func absolute(
        x: Int, y: Int, width: Int? = nil, height: Int? = nil, in space: Space = .movie
    ) -> OverlayPlacement {
        OverlayPlacement(
            anchor: .topLeft, x: .pixels(x), y: .pixels(y), width: width.map(Length.pixels),
            height: height.map(Length.pixels), in: space)
    }

    /// The rectangle the overlay covers on a frame.
    /// - Parameters:
    ///   - frame: The frame's size.
    ///   - natural: The bitmap's own size.
    /// - Returns: Origin and size in the frame's pixels.
    public func rectangle(in frame: VideoSize, natural: VideoSize) -> (x: Int, y: Int, width: Int, height: Int) {
        var width = self.width?.resolve(against: frame.width)
        var height = self.height?.resolve(against: frame.height)
        switch (width, height) {
        case (nil, nil):
            width = natural.width
            height = natural.height
        case (let given?, nil):
            height = natural.width > 0 ? given * natural.height / natural.width : natural.height
        case (nil, let given?):
            width = natural.height > 0 ? given * natural.width / natural.height : natural.width
        default:
            break
        }
        let w = max(1, width!)
        let h = max(1, height!)
        let dx = x.resolve(against: frame.width)
        let dy = y.resolve(against: frame.height)
        let left: Int
        let top: Int
        switch anchor {
        case .topLeft, .left, .bottomLeft: left = dx
        case .top, .center, .bottom: left = (frame.width - w) / 2 + dx
        case .topRight, .right, .bottomRight: left = frame.width - w - dx
        }
        switch anchor {
        case .topLeft, .top, .topRight: top = dy
        case .left, .center, .right: top = (frame.height - h) / 2 + dy
        case .bottomLeft, .bottom, .bottomRight: top = frame.height - h - dy
        }
        return (left, top, w, h)
    }
}
