import Foundation
import MediaEngine

/// `overlays`: the 1080p movie decoded as fast as possible into the `frames` sink (I420) with no
/// overlay, one, and eight, in the same run. Frames per second; ratio = with overlays / without
/// (1.0: overlays are free). Also the process's CPU time per frame, and the CPU time per frame of
/// the thread that composites and delivers the frames: the overlays' own cost, which the
/// decoder's run-to-run spread hides in the other two.
///
/// One overlay: a caption-sized text banner. Eight: four translucent 320x180 pictures, two text
/// overlays (one with a shadow), a 600x40 progress bar redrawn for every frame, and a tab bar
/// across the view.
enum OverlaysBenchmark {
    /// Nine rounds (`ENGINE_BENCH_OVERLAY_ROUNDS=N` for another number), the three sets
    /// interleaved in each: the ratios are of medians.
    static let rounds = ProcessInfo.processInfo.environment["ENGINE_BENCH_OVERLAY_ROUNDS"].flatMap(Int.init) ?? 9

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHD()
        let sets: [(name: String, overlays: () throws -> [any VideoOverlay])] = [
            ("0", { [] }), ("1", { [try banner()] }), ("8", eight),
        ]
        var fps: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]
        var delivery: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for set in sets {
                let playback = try await DecodeBenchmark.enginePlayback(
                    movie, format: .i420, overlays: try set.overlays())
                fps[set.name, default: []].append(playback.framesPerSecond)
                cpu[set.name, default: []].append(playback.cpuMillisecondsPerFrame)
                delivery[set.name, default: []].append(playback.deliveryMillisecondsPerFrame)
            }
        }
        let none = fps["0"]!.median
        let noneCPU = cpu["0"]!.median
        var results = [Measurement("overlays", "1080p-0-overlays-fps", none, "fps")]
        for (name, metric) in [("1", "1080p-1-overlay"), ("8", "1080p-8-overlays")] {
            results.append(
                Measurement(
                    "overlays", "\(metric)-fps", fps[name]!.median, "fps", baseline: none,
                    ratio: fps[name]!.median / none))
        }
        // CPU time per frame: what the overlays cost, less disturbed by the machine's other work
        // than frames per second on two cores. Ratio: without over with (above 1: cheaper).
        results.append(Measurement("overlays", "1080p-0-overlays-cpu", noneCPU, "ms/frame"))
        for (name, metric) in [("1", "1080p-1-overlay-cpu"), ("8", "1080p-8-overlays-cpu")] {
            results.append(
                Measurement(
                    "overlays", metric, cpu[name]!.median, "ms/frame", baseline: noneCPU,
                    ratio: noneCPU / cpu[name]!.median))
        }
        // The delivering thread's CPU per frame: the overlays' own cost (scaler, compositing,
        // blending), without the decoder's, whose run-to-run spread is larger than that cost.
        for name in ["0", "1", "8"] {
            results.append(
                Measurement(
                    "overlays", "1080p-\(name)-overlay\(name == "1" ? "" : "s")-delivery", delivery[name]!.median,
                    "ms/frame"))
        }
        return results
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
