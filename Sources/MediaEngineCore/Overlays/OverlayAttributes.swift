/// What every overlay has besides its pixels (``VideoOverlay``'s properties), for overlays
/// whose properties change while they are shown.
struct OverlayAttributes: Sendable {
    var placement: OverlayPlacement
    var zOrder: Int
    var isVisible = true
    var opacity: Double
    var timeRange: Range<Duration>?
    var hitRegions: [OverlayHitRegion]
}

/// ``OverlayAttributes`` under a lock: the app sets them from any thread, the video thread reads
/// them for every frame. Used by ``TextOverlay`` and ``DrawingOverlay``.
final class LiveOverlayAttributes: Sendable {
    private let attributes: Locked<OverlayAttributes>

    init(_ attributes: OverlayAttributes) {
        self.attributes = Locked(attributes)
    }

    subscript<Value: Sendable>(_ key: WritableKeyPath<OverlayAttributes, Value>) -> Value {
        get { attributes.withLock { $0[keyPath: key] } }
        set { attributes.withLock { $0[keyPath: key] = newValue } }
    }
}
