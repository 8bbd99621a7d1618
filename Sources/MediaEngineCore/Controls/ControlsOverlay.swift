import Dispatch

/// One bar of the engine's controls as an overlay among the player's: drawn at the output's own
/// size (its placement is in the view's pixels), again only when what it shows changes, and at
/// most ``progressInterval`` apart when only the scrubber and the times move while playing.
final class ControlsOverlay: VideoOverlay {
    /// How often the scrubber and the times may be drawn again while playing.
    static let progressInterval = Duration.milliseconds(100)

    private struct Drawn {
        let appearance: ControlsAppearance
        let bitmap: OverlayBitmap
        let at: DispatchTime
        let regions: [OverlayHitRegion]
    }

    let position: ControlsAppearance.Position
    private let controls: PlayerControls
    private let painter = ControlsPainter()
    private let drawn = Locked<Drawn?>(nil)

    init(_ position: ControlsAppearance.Position, of controls: PlayerControls) {
        self.position = position
        self.controls = controls
    }

    /// Over every overlay an app adds at the usual z-orders.
    var zOrder: Int { Int(Int32.max) }

    var isVisible: Bool { controls.opacity > 0 }

    var opacity: Double { controls.opacity }

    var placement: OverlayPlacement {
        switch position {
        case .bottom: OverlayPlacement(anchor: .bottom, in: .view)
        case .topLeading: OverlayPlacement(anchor: .topLeft, in: .view)
        case .topTrailing: OverlayPlacement(anchor: .topRight, in: .view)
        }
    }

    var hitRegions: [OverlayHitRegion] { drawn.withLock { $0?.regions ?? [] } }

    func bitmap(for request: OverlayRenderRequest) throws(MediaError) -> OverlayBitmap? {
        let snapshot = controls.snapshot(at: request.time)
        let layout = controls.layout(for: request.frameSize, duration: snapshot.duration)
        let appearance = ControlsAppearance(layout: layout, position: position, snapshot: snapshot)
        guard let bar = appearance.bar else { return nil }
        let now = DispatchTime.now()
        if let kept = drawn.withLock({ $0 }) {
            if kept.appearance == appearance { return kept.bitmap }
            let age = Duration.nanoseconds(Int64(clamping: now.uptimeNanoseconds &- kept.at.uptimeNanoseconds))
            // Only while playing: a paused frame drawn again (``PlayerCore/repaintIfPaused()``)
            // must show what changed at once.
            if appearance.isPlaying, kept.appearance.differsOnlyInProgress(from: appearance),
                age < Self.progressInterval
            {
                return kept.bitmap
            }
        }
        guard let bitmap = try painter.draw(appearance) else { return nil }
        let regions = layout.hitRegions(of: bar)
        drawn.withLock { $0 = Drawn(appearance: appearance, bitmap: bitmap, at: now, regions: regions) }
        return bitmap
    }

    /// A click on region `id` at `point` (the bitmap's pixels): the action it asks for, as the
    /// bar was last drawn.
    func action(forRegion id: String, at point: OverlayPoint) -> ControlAction? {
        guard let element = ControlsLayout.Element(rawValue: id), let look = drawn.withLock({ $0?.appearance }),
            let bar = look.bar
        else { return nil }
        return ControlAction.of(
            element, atX: point.x, in: bar, layout: look.layout, snapshot: controls.snapshot(at: nil))
    }
}
