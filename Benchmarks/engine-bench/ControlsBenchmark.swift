import Foundation
import MediaEngine

/// `controls`: the 1080p movie decoded as fast as possible into the `frames` sink (I420), without
/// controls and with the fullscreen style's two bars in view all along (the scrubber and times
/// redrawn as the movie moves), and with the embedded style's one bar, in the same run. Frames per second; ratio = with / without
/// (goal: at least 0.9).
enum ControlsBenchmark {
    /// Five rounds, the two cases interleaved in each: the ratio is of medians.
    static let rounds = 5

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHD()
        var without: [Double] = []
        var with: [Double] = []
        var embedded: [Double] = []
        for _ in 0..<rounds {
            without.append(try await DecodeBenchmark.engineFramesPerSecond(movie, format: .i420))
            with.append(try await DecodeBenchmark.engineFramesPerSecond(movie, format: .i420, controls: .fullscreen))
            embedded.append(try await DecodeBenchmark.engineFramesPerSecond(movie, format: .i420, controls: .embedded))
        }
        return [
            Measurement("controls", "1080p-no-controls-fps", without.median, "fps"),
            Measurement(
                "controls", "1080p-fullscreen-controls-fps", with.median, "fps", baseline: without.median,
                ratio: with.median / without.median),
            Measurement(
                "controls", "1080p-embedded-controls-fps", embedded.median, "fps", baseline: without.median,
                ratio: embedded.median / without.median),
        ]
    }
}
