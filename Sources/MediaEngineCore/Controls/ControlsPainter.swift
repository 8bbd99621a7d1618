/// Draws one bar of the controls (``ControlsAppearance``) into a bitmap: a translucent rounded
/// body, white icons drawn as anti-aliased shapes, the times and the Done label in Pango text.
/// Text bitmaps are kept by their string, so a redraw for a moved scrubber renders no text.
final class ControlsPainter: Sendable {
    static let bodyColor = RGBAColor(red: 22, green: 22, blue: 26, alpha: 196)
    static let iconColor = RGBAColor(red: 246, green: 246, blue: 246)
    static let trackColor = RGBAColor(red: 255, green: 255, blue: 255, alpha: 64)
    static let bufferedColor = RGBAColor(red: 255, green: 255, blue: 255, alpha: 120)
    static let playedColor = RGBAColor(red: 246, green: 246, blue: 246)
    static let buttonColor = RGBAColor(red: 255, green: 255, blue: 255, alpha: 46)

    private let labels = ControlsLabels()

    /// The bar's picture.
    func draw(_ appearance: ControlsAppearance) throws(MediaError) -> OverlayBitmap? {
        guard let bar = appearance.bar else { return nil }
        let layout = appearance.layout
        var canvas = OverlayCanvas(width: bar.canvas.width, height: bar.canvas.height)
        canvas.fillRoundedRect(bar.body, radius: Double(layout.barHeight) / 4, color: Self.bodyColor, replacing: true)
        for (element, rect) in bar.elements {
            try draw(element, in: rect, of: appearance, layout: layout, bar: bar, on: &canvas)
        }
        return canvas.makeBitmap()
    }

    private func draw(
        _ element: ControlsLayout.Element, in rect: ViewRect, of look: ControlsAppearance, layout: ControlsLayout,
        bar: ControlsLayout.Bar, on canvas: inout OverlayCanvas
    ) throws(MediaError) {
        let glyph = Double(layout.barHeight) * 0.42
        let cx = Double(rect.x) + Double(rect.width) / 2
        let cy = Double(rect.y) + Double(rect.height) / 2
        let color = Self.iconColor
        switch element {
        case .playPause:
            if look.isPlaying {
                let bar = glyph * 0.3
                for left in [cx - glyph * 0.38, cx + glyph * 0.08] {
                    canvas.fillRoundedRect(
                        ViewRect(
                            x: Int(left.rounded()), y: Int((cy - glyph / 2).rounded()), width: Int(bar.rounded()),
                            height: Int(glyph.rounded())), radius: 1.5, color: color)
                }
            } else {
                canvas.fillPolygon(
                    [(cx - glyph * 0.36, cy - glyph / 2), (cx - glyph * 0.36, cy + glyph / 2), (cx + glyph * 0.5, cy)],
                    color: color)
            }
        case .seekBackward, .seekForward:
            let sign = element == .seekForward ? 1.0 : -1.0
            let half = glyph * 0.42
            for start in [-half, 0] {
                let from = cx + sign * start
                canvas.fillPolygon(
                    [(from, cy - glyph * 0.38), (from, cy + glyph * 0.38), (from + sign * half, cy)], color: color)
            }
        case .elapsed, .remaining:
            guard let text = element == .elapsed ? look.elapsed : look.remaining else { return }
            let label = try labels.label(text, pixels: layout.fontPixels)
            canvas.draw(
                label, atX: rect.x + (rect.width - label.width) / 2, y: rect.y + (rect.height - label.height) / 2)
        case .scrubber:
            guard let track = layout.track(of: .scrubber, in: bar) else { return }
            drawSlider(track, filled: look.played, buffered: look.buffered, knob: true, on: &canvas)
        case .volume:
            guard let track = layout.track(of: .volume, in: bar) else { return }
            let left = Double(rect.x) + Double(layout.barHeight) * 0.18
            let s = glyph * 0.9
            canvas.fillPolygon(
                [
                    (left, cy - s * 0.2), (left + s * 0.28, cy - s * 0.2), (left + s * 0.6, cy - s * 0.5),
                    (left + s * 0.6, cy + s * 0.5), (left + s * 0.28, cy + s * 0.2), (left, cy + s * 0.2),
                ], color: look.isMuted ? Self.bufferedColor : color)
            drawSlider(track, filled: look.volume, buffered: 0, knob: true, on: &canvas)
        case .fullscreenToggle:
            drawCorners(
                cx: cx, cy: cy, glyph: glyph, inward: look.isFullscreen, barHeight: layout.barHeight, on: &canvas)
        case .tracks:
            // A caption box: white, with two dark lines of "text"; lit behind while the menu is open.
            if look.isTrackMenuOpen {
                let inset = rect.height / 8
                canvas.fillRoundedRect(
                    ViewRect(
                        x: rect.x + inset, y: rect.y + inset, width: rect.width - 2 * inset,
                        height: rect.height - 2 * inset), radius: Double(rect.height) / 6, color: Self.buttonColor)
            }
            let width = glyph * 1.3
            let height = glyph * 0.95
            let box = ViewRect(
                x: Int((cx - width / 2).rounded()), y: Int((cy - height / 2).rounded()), width: Int(width.rounded()),
                height: Int(height.rounded()))
            canvas.fillRoundedRect(box, radius: Double(box.height) / 5, color: color)
            let line = max(2, box.height / 7)
            let ink = RGBAColor(red: 22, green: 22, blue: 26)
            canvas.fill(
                ViewRect(
                    x: box.x + box.width / 6, y: box.y + box.height / 2 - line * 3 / 2, width: box.width * 2 / 3,
                    height: line),
                with: ink)
            canvas.fill(
                ViewRect(
                    x: box.x + box.width / 6, y: box.y + box.height / 2 + line / 2, width: box.width / 2, height: line),
                with: ink)
        case .aspect:
            // A frame with the picture inside: filling it (offered when fitting) or with bars
            // above and below (offered when filling).
            let width = glyph * 1.2
            let height = glyph * 0.8
            let frame = ViewRect(
                x: Int((cx - width / 2).rounded()), y: Int((cy - height / 2).rounded()), width: Int(width.rounded()),
                height: Int(height.rounded()))
            let line = max(2, layout.barHeight / 18)
            canvas.blendOutline(frame, color: color, thickness: line)
            let inner =
                look.fills
                ? ViewRect(
                    x: frame.x + line * 2, y: frame.y + frame.height / 4, width: frame.width - line * 4,
                    height: frame.height / 2)
                : ViewRect(
                    x: frame.x + line * 2, y: frame.y + line * 2, width: frame.width - line * 4,
                    height: frame.height - line * 4)
            canvas.blend(inner, color: color)
        case .done:
            let button = ViewRect(
                x: rect.x + rect.width / 10, y: rect.y + rect.height / 6, width: rect.width * 8 / 10,
                height: rect.height * 2 / 3)
            canvas.fillRoundedRect(button, radius: Double(button.height) / 4, color: Self.buttonColor)
            let label = try labels.label("Done", pixels: layout.fontPixels)
            canvas.draw(
                label, atX: button.x + (button.width - label.width) / 2,
                y: button.y + (button.height - label.height) / 2)
        }
    }

    /// A slider: the track, its buffered and filled parts, and a round knob at the filled end.
    private func drawSlider(_ track: ViewRect, filled: Int, buffered: Int, knob: Bool, on canvas: inout OverlayCanvas) {
        let radius = Double(track.height) / 2
        canvas.fillRoundedRect(track, radius: radius, color: Self.trackColor)
        if buffered > 0 {
            canvas.fillRoundedRect(
                ViewRect(x: track.x, y: track.y, width: min(buffered, track.width), height: track.height),
                radius: radius, color: Self.bufferedColor)
        }
        if filled > 0 {
            canvas.fillRoundedRect(
                ViewRect(x: track.x, y: track.y, width: min(filled, track.width), height: track.height),
                radius: radius, color: Self.playedColor)
        }
        if knob {
            canvas.fillCircle(
                centerX: Double(track.x + min(filled, track.width)), centerY: Double(track.y) + radius,
                radius: Double(track.height) * 1.6, color: Self.playedColor)
        }
    }

    /// The fullscreen toggle: four corners at the outside with arms along the edges (enter), or
    /// near the centre with arms pointing out (leave).
    private func drawCorners(
        cx: Double, cy: Double, glyph: Double, inward: Bool, barHeight: Int, on canvas: inout OverlayCanvas
    ) {
        let line = max(2, barHeight / 16)
        let arm = max(line * 2, Int((glyph * 0.34).rounded()))
        let half = Int((glyph / 2).rounded())
        let (x0, y0) = (Int(cx.rounded()), Int(cy.rounded()))
        for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            let reach = inward ? half - arm : half
            let vx = x0 + dx * reach
            let vy = y0 + dy * reach
            // Arms run from the corner's point towards the centre (enter) or away from it (leave).
            let sx = inward ? dx : -dx
            let sy = inward ? dy : -dy
            let horizontal = ViewRect(x: sx > 0 ? vx : vx - arm, y: vy - line / 2, width: arm, height: line)
            let vertical = ViewRect(x: vx - line / 2, y: sy > 0 ? vy : vy - arm, width: line, height: arm)
            canvas.blend(horizontal, color: Self.iconColor)
            canvas.blend(vertical, color: Self.iconColor)
        }
    }
}

extension OverlayCanvas {
    /// Blends the outline of a rectangle, `thickness` pixels wide, inside it.
    mutating func blendOutline(_ rect: ViewRect, color: RGBAColor, thickness: Int) {
        let t = max(1, thickness)
        blend(ViewRect(x: rect.x, y: rect.y, width: rect.width, height: t), color: color)
        blend(ViewRect(x: rect.x, y: rect.y + rect.height - t, width: rect.width, height: t), color: color)
        blend(ViewRect(x: rect.x, y: rect.y + t, width: t, height: rect.height - 2 * t), color: color)
        blend(ViewRect(x: rect.x + rect.width - t, y: rect.y + t, width: t, height: rect.height - 2 * t), color: color)
    }
}
