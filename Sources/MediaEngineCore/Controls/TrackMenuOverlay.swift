/// The track menu (``TrackMenu``) as an overlay among the controls: shown while it is open and the
/// controls are, drawn again only when its rows change.
final class TrackMenuOverlay: VideoOverlay {
    private struct Drawn {
        let menu: TrackMenu
        let bitmap: OverlayBitmap
    }

    /// The colour of the menu's headings ("Audio", "Subtitles").
    static let headingColor = RGBAColor(red: 170, green: 170, blue: 176)

    private let controls: PlayerControls
    private let drawn = Locked<Drawn?>(nil)
    private let labels = ControlsLabels()

    init(of controls: PlayerControls) {
        self.controls = controls
    }

    var zOrder: Int { Int(Int32.max) }

    var isVisible: Bool { controls.isTrackMenuOpen && controls.opacity > 0 }

    var opacity: Double { controls.opacity }

    var placement: OverlayPlacement {
        let menu = controls.trackMenu()
        return OverlayPlacement(anchor: .topRight, x: .pixels(menu?.right ?? 0), y: .pixels(menu?.top ?? 0), in: .view)
    }

    var hitRegions: [OverlayHitRegion] {
        drawn.withLock {
            $0?.menu.rows.compactMap { row in row.id.map { OverlayHitRegion(id: $0, rect: row.rect) } } ?? []
        }
    }

    func bitmap(for request: OverlayRenderRequest) throws(MediaError) -> OverlayBitmap? {
        let snapshot = controls.snapshot(at: nil)
        let layout = controls.layout(for: request.frameSize, duration: snapshot.duration)
        guard let menu = TrackMenu(layout: layout, snapshot: snapshot) else { return nil }
        if let kept = drawn.withLock({ $0 }), kept.menu == menu { return kept.bitmap }
        var canvas = OverlayCanvas(width: menu.size.width, height: menu.size.height)
        canvas.fillRoundedRect(
            ViewRect(x: 0, y: 0, width: menu.size.width, height: menu.size.height),
            radius: Double(menu.fontPixels) / 2, color: ControlsPainter.bodyColor, replacing: true)
        for row in menu.rows {
            let heading = row.id == nil
            let label = try labels.label(
                row.text, pixels: menu.fontPixels, bold: heading,
                color: heading ? Self.headingColor : ControlsPainter.iconColor)
            let left = row.rect.x + row.rect.height
            if row.isChecked {
                canvas.fillCircle(
                    centerX: Double(row.rect.x) + Double(row.rect.height) * 0.6,
                    centerY: Double(row.rect.y) + Double(row.rect.height) / 2, radius: Double(row.rect.height) / 6,
                    color: ControlsPainter.iconColor)
            }
            canvas.draw(
                label, atX: heading ? row.rect.x + row.rect.height / 3 : left,
                y: row.rect.y + (row.rect.height - label.height) / 2)
        }
        let bitmap = canvas.makeBitmap()
        drawn.withLock { $0 = Drawn(menu: menu, bitmap: bitmap) }
        return bitmap
    }

    /// The action of a click on one of the menu's rows.
    func action(forRegion id: String) -> ControlAction? {
        TrackMenu.action(forRow: id)
    }
}
