import FileSource
import Foundation
import MediaEngine

/// `decode`: a 1080p H.264 movie decoded as fast as possible into the `frames` sink (I420 and
/// RGBA), and the same in H.265 (I420), against `gst-launch-1.0 filesrc ! decodebin [! videoconvert
/// ! RGBA] ! fakesink sync=false` in the same run. Frames per second; ratio = ours / gst-launch's.
enum DecodeBenchmark {
    static let rounds = 3

    static func run() async throws -> [Measurement] {
        let h264 = try BenchmarkMedia.fullHD()
        let h265 = try BenchmarkMedia.fullHDHEVC()
        let startup = try (0..<rounds).map { _ in
            try Command.time("gst-launch-1.0", ["-q", "fakesrc", "num-buffers=1", "!", "fakesink"]).seconds
        }.median
        let cases: [(movie: URL, format: PixelFormat, name: String)] = [
            (h264, .i420, "1080p-i420-fps"), (h264, .rgba, "1080p-rgba-fps"), (h265, .i420, "1080p-h265-i420-fps"),
        ]
        var results: [Measurement] = []
        for item in cases {
            var ours: [Double] = []
            var peer: [Double] = []
            for _ in 0..<rounds {
                ours.append(try await engineFramesPerSecond(item.movie, format: item.format))
                peer.append(try gstLaunchFramesPerSecond(item.movie, format: item.format, startup: startup))
            }
            let value = ours.median
            let baseline = peer.median
            results.append(Measurement("decode", item.name, value, "fps", baseline: baseline, ratio: value / baseline))
        }
        return results
    }

    /// Plays the movie to the end into a frames sink that does not wait for the clock.
    static func engineFramesPerSecond(
        _ movie: URL, format: PixelFormat, overlays: [any VideoOverlay] = [], controls: MovieControlStyle = .none
    ) async throws -> Double {
        let sink = FrameSink(format: format, synchronized: false)
        let player = MoviePlayer(source: FileSource(url: movie), videoSink: sink, audioOutput: .discard)
        for overlay in overlays { player.overlays.add(overlay) }
        player.controlStyle = controls
        // The controls stay in view all along: the pointer "moves" every half second.
        let pointer = Task {
            while controls != .none && !Task.isCancelled {
                player.pointerMoved()
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        defer { pointer.cancel() }
        let events = player.events
        let clock = ContinuousClock()
        let start = clock.now
        try await player.play()
        for await event in events {
            if case .overlayFailed(_, let error) = event { throw BenchmarkError("an overlay failed: \(error)") }
            guard case .playbackDidFinish(let reason, let error) = event else { continue }
            guard reason == .playbackEnded else { throw BenchmarkError("decode failed: \(String(describing: error))") }
            break
        }
        let elapsed = clock.now - start
        return Double(sink.framesDelivered) / elapsed.seconds
    }

    /// The same work in gst-launch-1.0; its process start-up (measured alone) is not counted.
    static func gstLaunchFramesPerSecond(_ movie: URL, format: PixelFormat, startup: Double) throws -> Double {
        var pipeline = ["-q", "filesrc", "location=\(movie.path)", "!", "decodebin", "!"]
        if format != .i420 {
            pipeline += ["videoconvert", "!", "video/x-raw,format=\(format.rawValue)", "!"]
        }
        pipeline += ["fakesink", "sync=false"]
        let elapsed = try Command.time("gst-launch-1.0", pipeline).seconds - startup
        return 300 / elapsed
    }
}
