/// Where each overlay was drawn on the latest composited frame, topmost last: what hit tests
/// map a point on the output back through.
struct OverlayLayout: Sendable {
    struct Placed: Sendable {
        let id: VideoOverlays.ID
        /// The overlay's rectangle on the output.
        let rect: ViewRect
        /// Its bitmap's own size.
        let bitmapSize: VideoSize
        let regions: [OverlayHitRegion]
    }

    let geometry: OverlayGeometry
    let placed: [Placed]

    /// The region under (`x`, `y`) on the output, topmost overlay first.
    func hitTest(viewX x: Double, y: Double) -> (overlay: VideoOverlays.ID, region: String, point: OverlayPoint)? {
        for overlay in placed.reversed() where !overlay.regions.isEmpty {
            let rect = overlay.rect
            guard x >= Double(rect.x), x < Double(rect.x + rect.width), y >= Double(rect.y),
                y < Double(rect.y + rect.height)
            else { continue }
            let point = OverlayPoint(
                x: (x - Double(rect.x)) * Double(overlay.bitmapSize.width) / Double(rect.width),
                y: (y - Double(rect.y)) * Double(overlay.bitmapSize.height) / Double(rect.height))
            for region in overlay.regions {
                let area = region.rect
                if point.x >= Double(area.x), point.x < Double(area.x + area.width), point.y >= Double(area.y),
                    point.y < Double(area.y + area.height)
                {
                    return (overlay.id, region.id, point)
                }
            }
        }
        return nil
    }
}
