import Foundation
import MediaEngine

/// `rgba`: the 1080p movie decoded to RGBA frames delivered to Swift, against
/// `ffmpeg -i F -map 0:v:0 -vf format=rgba -f null -` in the same run (ffmpeg's start-up, timed
/// alone on an empty input, is not counted). Frames per second; ratio = ours / ffmpeg's.
enum RGBABenchmark {
    static let rounds = 3

    static func run() async throws -> [Measurement] {
        guard Command.exists("ffmpeg") else {
            throw BenchmarkError("ffmpeg is not installed: run `make bench`, which installs it")
        }
        let movie = try BenchmarkMedia.fullHD()
        let startup = try (0..<rounds).map { _ in
            try Command.time(
                "ffmpeg",
                ["-v", "error", "-f", "lavfi", "-i", "color=size=16x16:rate=1", "-frames:v", "1", "-f", "null", "-"]
            ).seconds
        }.median
        var ours: [Double] = []
        var peer: [Double] = []
        for _ in 0..<rounds {
            ours.append(try await DecodeBenchmark.engineFramesPerSecond(movie, format: .rgba))
            let elapsed = try Command.time(
                "ffmpeg", ["-v", "error", "-i", movie.path, "-map", "0:v:0", "-vf", "format=rgba", "-f", "null", "-"]
            ).seconds
            peer.append(300 / (elapsed - startup))
        }
        return [
            Measurement(
                "rgba", "1080p-rgba-fps", ours.median, "fps", baseline: peer.median, ratio: ours.median / peer.median)
        ]
    }
}
