import Foundation

/// Anti-aliased shapes for the engine's own controls: each pixel's coverage is measured on a 4x4
/// grid of samples and the colour blended over what is there by it, so edges look smooth at
/// every size. Meant for small shapes drawn when the controls change, not for every frame.
extension OverlayCanvas {
    /// Samples per pixel side.
    private static let grid = 4

    /// Blends `color` over the pixel at (`x`, `y`) with a `coverage` of 0 to 1.
    mutating func blend(x: Int, y: Int, color: RGBAColor, coverage: Double) {
        guard x >= 0, x < width, y >= 0, y < height, coverage > 0 else { return }
        let alpha = Double(color.alpha) / 255 * min(1, coverage)
        let index = (y * width + x) * 4
        let below = Double(pixels[index + 3]) / 255
        let outAlpha = alpha + below * (1 - alpha)
        guard outAlpha > 0 else { return }
        let source = [color.red, color.green, color.blue]
        for channel in 0..<3 {
            let mixed =
                (Double(source[channel]) * alpha + Double(pixels[index + channel]) * below * (1 - alpha)) / outAlpha
            pixels[index + channel] = UInt8(min(255, max(0, mixed.rounded())))
        }
        pixels[index + 3] = UInt8(min(255, (outAlpha * 255).rounded()))
    }

    /// Fills the area where `inside` holds for a point, within `bounds`, anti-aliased.
    private mutating func fill(bounds: ViewRect, color: RGBAColor, where inside: (Double, Double) -> Bool) {
        let grid = Self.grid
        let samples = Double(grid * grid)
        for y in stride(from: max(0, bounds.y), to: min(height, bounds.y + bounds.height), by: 1) {
            for x in stride(from: max(0, bounds.x), to: min(width, bounds.x + bounds.width), by: 1) {
                var hits = 0
                for sy in 0..<grid {
                    for sx in 0..<grid {
                        let px = Double(x) + (Double(sx) + 0.5) / Double(grid)
                        let py = Double(y) + (Double(sy) + 0.5) / Double(grid)
                        if inside(px, py) { hits += 1 }
                    }
                }
                if hits > 0 { blend(x: x, y: y, color: color, coverage: Double(hits) / samples) }
            }
        }
    }

    /// Fills a polygon (its corners in order, in pixels; the even-odd rule), anti-aliased.
    mutating func fillPolygon(_ corners: [(x: Double, y: Double)], color: RGBAColor) {
        guard corners.count >= 3 else { return }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let bounds = ViewRect(
            x: Int(xs.min()!.rounded(.down)), y: Int(ys.min()!.rounded(.down)),
            width: Int((xs.max()! - xs.min()!).rounded(.up)) + 2, height: Int((ys.max()! - ys.min()!).rounded(.up)) + 2)
        fill(bounds: bounds, color: color) { px, py in
            var inside = false
            var previous = corners[corners.count - 1]
            for corner in corners {
                if (corner.y > py) != (previous.y > py),
                    px < (previous.x - corner.x) * (py - corner.y) / (previous.y - corner.y) + corner.x
                {
                    inside.toggle()
                }
                previous = corner
            }
            return inside
        }
    }

    /// Fills a rectangle with rounded corners of `radius` pixels, blended over what is there
    /// (`replacing` it instead, faster, on a part of the canvas still transparent). Only the
    /// corners are sampled; the rest is whole pixels.
    mutating func fillRoundedRect(_ rect: ViewRect, radius: Double, color: RGBAColor, replacing: Bool = false) {
        let r = Int(max(0, min(radius, Double(min(rect.width, rect.height)) / 2)).rounded(.up))
        let middle = [
            ViewRect(x: rect.x, y: rect.y + r, width: rect.width, height: rect.height - 2 * r),
            ViewRect(x: rect.x + r, y: rect.y, width: rect.width - 2 * r, height: r),
            ViewRect(x: rect.x + r, y: rect.y + rect.height - r, width: rect.width - 2 * r, height: r),
        ]
        for part in middle where part.width > 0 && part.height > 0 {
            if replacing {
                fill(part, with: color)
            } else {
                blend(part, color: color)
            }
        }
        guard r > 0 else { return }
        let radius = Double(r)
        let left = Double(rect.x)
        let top = Double(rect.y)
        let right = left + Double(rect.width)
        let bottom = top + Double(rect.height)
        let corners = [
            ViewRect(x: rect.x, y: rect.y, width: r, height: r),
            ViewRect(x: rect.x + rect.width - r, y: rect.y, width: r, height: r),
            ViewRect(x: rect.x, y: rect.y + rect.height - r, width: r, height: r),
            ViewRect(x: rect.x + rect.width - r, y: rect.y + rect.height - r, width: r, height: r),
        ]
        for corner in corners {
            fill(bounds: corner, color: color) { px, py in
                let dx = px - min(max(px, left + radius), right - radius)
                let dy = py - min(max(py, top + radius), bottom - radius)
                return dx * dx + dy * dy <= radius * radius
            }
        }
    }

    /// Blends `color` over every pixel of `rect` (clipped to the canvas).
    mutating func blend(_ rect: ViewRect, color: RGBAColor) {
        for y in stride(from: max(0, rect.y), to: min(height, rect.y + rect.height), by: 1) {
            for x in stride(from: max(0, rect.x), to: min(width, rect.x + rect.width), by: 1) {
                blend(x: x, y: y, color: color, coverage: 1)
            }
        }
    }

    /// Fills a circle, anti-aliased.
    mutating func fillCircle(centerX: Double, centerY: Double, radius: Double, color: RGBAColor) {
        fillArc(
            centerX: centerX, centerY: centerY, innerRadius: 0, outerRadius: radius, from: -.pi, to: .pi, color: color)
    }

    /// Fills the part of a ring (between `innerRadius` and `outerRadius` round a centre) from
    /// angle `from` to `to`, in radians (0 points right, angles grow downwards), anti-aliased.
    mutating func fillArc(
        centerX: Double, centerY: Double, innerRadius: Double, outerRadius: Double, from: Double, to: Double,
        color: RGBAColor
    ) {
        let bounds = ViewRect(
            x: Int((centerX - outerRadius).rounded(.down)), y: Int((centerY - outerRadius).rounded(.down)),
            width: Int((2 * outerRadius).rounded(.up)) + 2, height: Int((2 * outerRadius).rounded(.up)) + 2)
        fill(bounds: bounds, color: color) { px, py in
            let dx = px - centerX
            let dy = py - centerY
            let squared = dx * dx + dy * dy
            guard squared >= innerRadius * innerRadius, squared <= outerRadius * outerRadius else { return false }
            let angle = atan2(dy, dx)
            return angle >= from && angle <= to
        }
    }
}
