import Foundation
import MediaEngine

/// `overlays`: the 1080p movie decoded as fast as possible into the `frames` sink (I420) with no
/// overlay, one, and eight, in the same run. Frames per second; ratio = with overlays / without
/// (1.0: overlays are free).
///
/// One overlay: a caption-sized text banner. Eight: four translucent 320x180 pictures, two text
/// overlays (one with a shadow), a 600x40 progress bar redrawn for every frame, and a tab bar
/// across the view.
enum OverlaysBenchmark {
    /// Five rounds, the three sets interleaved in each: the ratio is of medians.
    static let rounds = 5

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHD()
        let sets: [(name: String, overlays: () throws -> [any VideoOverlay])] = [
            ("0", { [] }), ("1", { [try banner()] }), ("8", eight),
        ]
        var fps: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for set in sets {
                fps[set.name, default: []].append(
                    try await DecodeBenchmark.engineFramesPerSecond(movie, format: .i420, overlays: try set.overlays()))
            }
        }
        let none = fps["0"]!.median
        return [
            Measurement("overlays", "1080p-0-overlays-fps", none, "fps"),
            Measurement(
                "overlays", "1080p-1-overlay-fps", fps["1"]!.median, "fps", baseline: none,
                ratio: fps["1"]!.median / none),
            Measurement(
                "overlays", "1080p-8-overlays-fps", fps["8"]!.median, "fps", baseline: none,
                ratio: fps["8"]!.median / none),
        ]
    }

    static func banner() throws -> TextOverlay {
        try TextOverlay(text: "Now playing: SMPTE bars, 1080p", style: TextStyle(font: "Sans Bold 36"))
    }

    static func eight() throws -> [any VideoOverlay] {
        var overlays: [any VideoOverlay] = [try banner()]
        let picture = try OverlayBitmap(
            width: 320, height: 180, color: RGBAColor(red: 255, green: 128, blue: 0, alpha: 160))
        for (index, anchor) in [OverlayPlacement.Anchor.topLeft, .topRight, .bottomLeft, .bottomRight].enumerated() {
            overlays.append(
                ImageOverlay(
                    image: picture, placement: OverlayPlacement(anchor: anchor, x: .pixels(40), y: .pixels(40)),
                    zOrder: index))
        }
        overlays.append(
            try TextOverlay(
                text: "12:00:00", style: TextStyle(font: "Sans 28", shadow: TextStyle.Shadow()),
                placement: OverlayPlacement(anchor: .top, y: .pixels(20))))
        overlays.append(
            try DrawingOverlay(
                size: VideoSize(width: 600, height: 40), redraw: .everyFrame,
                placement: OverlayPlacement(anchor: .bottom, y: .pixels(120))
            ) { canvas, request in
                let done = Int((request.time ?? .zero) / .seconds(10) * 600)
                canvas.clear(to: RGBAColor(red: 0, green: 0, blue: 0, alpha: 120))
                canvas.fill(ViewRect(x: 0, y: 0, width: done, height: 40), with: .white)
            })
        var tabs = OverlayCanvas(width: 960, height: 40)
        tabs.clear(to: RGBAColor(red: 24, green: 24, blue: 28, alpha: 230))
        overlays.append(
            ImageOverlay(
                image: tabs.makeBitmap(), placement: OverlayPlacement(anchor: .bottom, width: .fraction(1), in: .view)))
        return overlays
    }
}
