/// Where each control goes for a style and an output size: pure geometry, tested without
/// GStreamer. The controls sit in one or two bars, each drawn as its own overlay in the output's
/// pixels: the bottom bar (both styles) and, in the fullscreen style, a top bar with Done and the
/// aspect toggle; the volume-only set is a short bottom bar in the middle with the volume slider. Everything scales with the output's height, so the controls keep their look
/// from a 320x180 frame to a 4K screen; elements that do not fit a narrow output are left out
/// (the volume slider first, then the times).
struct ControlsLayout: Sendable, Hashable {
    /// One control; its raw value is its hit region's id.
    enum Element: String, Sendable, Hashable, CaseIterable {
        case playPause = "play-pause"
        case seekBackward = "seek-backward"
        case seekForward = "seek-forward"
        case elapsed
        case scrubber
        case remaining
        case volume
        case fullscreenToggle = "fullscreen"
        case done
        case tracks
        case aspect
    }

    /// A bar: the strip of the output its overlay covers (the whole width, the bar and a margin
    /// round it), the bar's body in that strip, and its controls.
    struct Bar: Sendable, Hashable {
        /// The overlay's strip, in the output frame's pixels.
        let canvas: ViewRect
        /// The bar's rounded body, in the strip's (the overlay bitmap's) pixels.
        let body: ViewRect
        /// Each control's rectangle, in the strip's pixels.
        let elements: [Element: ViewRect]
    }

    let kind: ControlsKind
    let viewSize: VideoSize
    /// The height of a bar and the side of a button.
    let barHeight: Int
    /// The time labels' text size, in pixels.
    let fontPixels: Int
    let bottom: Bar?
    /// The fullscreen style's Done button, at the top left.
    let topLeading: Bar?
    /// The fullscreen style's tracks and aspect buttons, at the top right.
    let topTrailing: Bar?

    /// The width reserved for a time label of `characters` characters.
    static func labelWidth(characters: Int, fontPixels: Int) -> Int {
        // Sans digits are about 0.6 of the pixel size wide; a little room each side.
        Int((Double(characters) * 0.62 + 0.8) * Double(fontPixels))
    }

    /// The layout of `style` over an output of `viewSize`, with time labels of up to
    /// `timeCharacters` characters ("1:23:45" is 7, "-1:23:45" 8).
    init(style: MovieControlStyle, viewSize: VideoSize, timeCharacters: Int = 6) {
        self.init(kind: ControlsKind(style), viewSize: viewSize, timeCharacters: timeCharacters)
    }

    /// The layout of the controls of `kind` over an output of `viewSize`, with time labels of up
    /// to `timeCharacters` characters.
    init(kind: ControlsKind, viewSize: VideoSize, timeCharacters: Int = 6) {
        self.kind = kind
        self.viewSize = viewSize
        let height = max(viewSize.height, 1)
        barHeight = min(72, max(24, height / 10))
        fontPixels = max(10, barHeight * 2 / 5)
        guard kind != .none, viewSize.width >= barHeight * 4, viewSize.height >= barHeight * 2 else {
            bottom = nil
            topLeading = nil
            topTrailing = nil
            return
        }
        // Each overlay covers its bar and the margin between it and the output's edges, no more:
        // every pixel of an overlay is blended into every frame, transparent or not.
        let margin = max(4, barHeight / 4)
        let side = barHeight
        let stripHeight = barHeight + margin
        if kind == .volumeOnly {
            // Room for the speaker and a slider of about four buttons, never wider than the view.
            let width = min(viewSize.width - 2 * margin, barHeight * 5)
            let body = ViewRect(x: 0, y: 0, width: width, height: barHeight)
            // The speaker keeps clear of the body's rounded left end.
            let inset = barHeight / 4
            let volume = ViewRect(x: inset, y: 0, width: width - inset, height: barHeight)
            // The overlay is centred by its placement (anchor bottom): the same rounding here.
            bottom = Bar(
                canvas: ViewRect(
                    x: (viewSize.width - width) / 2, y: viewSize.height - stripHeight, width: width,
                    height: stripHeight),
                body: body, elements: [.volume: volume])
            topLeading = nil
            topTrailing = nil
            return
        }
        bottom = Self.bottomBar(
            style: kind.style,
            canvas: ViewRect(x: 0, y: viewSize.height - stripHeight, width: viewSize.width, height: stripHeight),
            body: ViewRect(x: margin, y: 0, width: viewSize.width - 2 * margin, height: barHeight),
            labelWidth: Self.labelWidth(characters: timeCharacters, fontPixels: fontPixels))
        if kind == .fullscreen {
            let done = ViewRect(x: margin, y: margin, width: side * 2, height: side)
            topLeading = Bar(
                canvas: ViewRect(x: 0, y: 0, width: margin + done.width, height: stripHeight), body: done,
                elements: [.done: done])
            let body = ViewRect(x: 0, y: margin, width: side * 2, height: side)
            topTrailing = Bar(
                canvas: ViewRect(
                    x: viewSize.width - margin - body.width, y: 0, width: margin + body.width, height: stripHeight),
                body: body,
                elements: [
                    .tracks: ViewRect(x: 0, y: margin, width: side, height: side),
                    .aspect: ViewRect(x: side, y: margin, width: side, height: side),
                ])
        } else {
            topLeading = nil
            topTrailing = nil
        }
    }

    /// Every bar of the layout.
    var bars: [Bar] { [topLeading, topTrailing, bottom].compactMap { $0 } }

    /// The bottom bar's controls, left to right: the transport buttons, the elapsed time, the
    /// scrubber (whatever width is left), the remaining time, the volume slider (fullscreen
    /// style), the fullscreen toggle.
    private static func bottomBar(style: MovieControlStyle, canvas: ViewRect, body: ViewRect, labelWidth: Int) -> Bar {
        let side = body.height
        let left: [Element] = style == .fullscreen ? [.seekBackward, .playPause, .seekForward] : [.playPause]
        var volumeWidth = style == .fullscreen ? side * 3 : 0
        var labels = labelWidth
        let fixed = { left.count * side + 2 * labels + volumeWidth + side }
        // The scrubber keeps at least two buttons' width: the volume goes first, then the times.
        if body.width - fixed() < side * 2 { volumeWidth = 0 }
        if body.width - fixed() < side * 2 { labels = 0 }
        var elements: [Element: ViewRect] = [:]
        var x = body.x
        let y = body.y
        for element in left {
            elements[element] = ViewRect(x: x, y: y, width: side, height: side)
            x += side
        }
        let scrubberWidth = max(side / 2, body.width - fixed())
        if labels > 0 { elements[.elapsed] = ViewRect(x: x, y: y, width: labels, height: side) }
        x += labels
        elements[.scrubber] = ViewRect(x: x, y: y, width: scrubberWidth, height: side)
        x += scrubberWidth
        if labels > 0 { elements[.remaining] = ViewRect(x: x, y: y, width: labels, height: side) }
        x += labels
        if volumeWidth > 0 {
            elements[.volume] = ViewRect(x: x, y: y, width: volumeWidth, height: side)
            x += volumeWidth
        }
        elements[.fullscreenToggle] = ViewRect(x: x, y: y, width: side, height: side)
        return Bar(canvas: canvas, body: body, elements: elements)
    }

    /// The track of a slider (the scrubber, the volume) inside its element: inset from the ends
    /// so its knob never leaves the element.
    func track(of element: Element, in bar: Bar) -> ViewRect? {
        guard let rect = bar.elements[element] else { return nil }
        let inset = barHeight / 3
        let start = element == .volume ? rect.x + barHeight * 3 / 4 : rect.x + inset
        let end = rect.x + rect.width - inset
        let thickness = max(3, barHeight / 9)
        return ViewRect(
            x: start, y: rect.y + (rect.height - thickness) / 2, width: max(1, end - start), height: thickness)
    }

    /// The fraction of a slider's track at `x` (in the strip's pixels), from 0 to 1.
    func fraction(of element: Element, atX x: Double, in bar: Bar) -> Double? {
        guard let track = track(of: element, in: bar), track.width > 0 else { return nil }
        return min(1, max(0, (x - Double(track.x)) / Double(track.width)))
    }

    /// The hit regions of a bar (its elements, the labels left out: they do nothing).
    func hitRegions(of bar: Bar) -> [OverlayHitRegion] {
        Element.allCases.compactMap { element in
            guard element != .elapsed, element != .remaining, let rect = bar.elements[element] else { return nil }
            return OverlayHitRegion(id: element.rawValue, rect: rect)
        }
    }
}
