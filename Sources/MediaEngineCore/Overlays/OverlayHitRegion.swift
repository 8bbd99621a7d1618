/// An area of an overlay that reacts to pointer clicks and touches: a rectangle in the overlay
/// bitmap's own pixels (so it moves and scales with the overlay) and a name for it.
///
/// A click on a window output, or a point given to ``MoviePlayer/sendPointer(x:y:)``, is mapped
/// back through the scaling mode and the overlay's placement; when it lands in a region,
/// the player announces ``PlayerEvent/overlayRegionActivated(overlay:region:point:)``.
public struct OverlayHitRegion: Sendable, Hashable {
    /// The region's name, reported in the event ("home", "tab-2").
    public var id: String
    /// The region in the bitmap's pixels.
    public var rect: ViewRect

    /// A region.
    /// - Parameters:
    ///   - id: Its name.
    ///   - rect: The area, in the overlay bitmap's own pixels.
    public init(id: String, rect: ViewRect) {
        self.id = id
        self.rect = rect
    }
}

/// A point in an overlay bitmap's own pixels.
public struct OverlayPoint: Sendable, Hashable, CustomStringConvertible {
    /// Pixels from the bitmap's left edge.
    public var x: Double
    /// Pixels from the bitmap's top edge.
    public var y: Double

    /// A point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}
