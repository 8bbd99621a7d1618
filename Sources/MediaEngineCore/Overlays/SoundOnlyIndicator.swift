/// What a window shows in its middle for a movie without video, over the background colour or
/// the background image (as MPMoviePlayerController shows its background for sound alone): a
/// speaker with two sound waves, white on a translucent dark disc, so that it reads on any
/// background, sized from the view (a little over a quarter of its shorter side).
///
/// One of the engine's own overlays, among a player's while its output is a window (the window
/// sink's backdrop gives a movie without video frames to draw on); drawn only while the prepared
/// movie has no video, just above the background image and under everything else.
final class SoundOnlyIndicator: VideoOverlay {
    static let discColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 110)
    static let glyphColor = RGBAColor(red: 250, green: 250, blue: 250, alpha: 240)

    private let soundOnly: @Sendable () -> Bool
    private let drawn = Locked<(side: Int, bitmap: OverlayBitmap)?>(nil)

    /// The indicator, shown while `soundOnly` says the prepared movie has no video.
    init(soundOnly: @escaping @Sendable () -> Bool) {
        self.soundOnly = soundOnly
    }

    /// Above the background image (the lowest), under the app's overlays and the controls.
    var zOrder: Int { Int(Int32.min) + 1 }

    var isVisible: Bool { soundOnly() }

    var placement: OverlayPlacement { OverlayPlacement(anchor: .center, in: .view) }

    /// The disc's diameter for a view of `size`.
    static func side(for size: VideoSize) -> Int {
        max(24, min(size.width, size.height) * 28 / 100)
    }

    func bitmap(for request: OverlayRenderRequest) throws(MediaError) -> OverlayBitmap? {
        let side = Self.side(for: request.frameSize)
        if let kept = drawn.withLock({ $0 }), kept.side == side { return kept.bitmap }
        let bitmap = Self.draw(side: side)
        drawn.withLock { $0 = (side, bitmap) }
        return bitmap
    }

    /// The disc and the speaker, `side` pixels square.
    static func draw(side: Int) -> OverlayBitmap {
        var canvas = OverlayCanvas(width: side, height: side)
        let s = Double(side)
        let middle = s / 2
        canvas.fillCircle(centerX: middle, centerY: middle, radius: s / 2 - 1, color: discColor)
        // The speaker and its waves reach from 0.30 of the side left of `cx` to 0.19 right of it:
        // with `cx` right of the middle by half the difference, the whole sits in the middle.
        let cx = middle + s * 0.055
        let body = ViewRect(
            x: Int((cx - s * 0.30).rounded()), y: Int((middle - s * 0.09).rounded()), width: Int((s * 0.14).rounded()),
            height: Int((s * 0.18).rounded()))
        canvas.fillRoundedRect(body, radius: s * 0.015, color: glyphColor)
        canvas.fillPolygon(
            [
                (cx - s * 0.17, middle - s * 0.09), (cx - s * 0.02, middle - s * 0.22),
                (cx - s * 0.02, middle + s * 0.22), (cx - s * 0.17, middle + s * 0.09),
            ], color: glyphColor)
        let spread = 0.9  // radians each side of the horizontal
        for (inner, outer) in [(0.08, 0.125), (0.165, 0.21)] {
            canvas.fillArc(
                centerX: cx - s * 0.02, centerY: middle, innerRadius: s * inner, outerRadius: s * outer, from: -spread,
                to: spread, color: glyphColor)
        }
        return canvas.makeBitmap()
    }
}
