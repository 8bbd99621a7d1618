import FileSource
import Foundation
import MediaEngine

/// `decode`: a 1080p H.264 movie decoded as fast as possible into the `frames` sink (I420 and
/// RGBA), against `gst-launch-1.0 filesrc ! decodebin [! videoconvert ! RGBA] ! fakesink sync=false`
/// in the same run. Frames per second; ratio = ours / gst-launch's.
enum DecodeBenchmark {
    static let rounds = 3

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHD()
        let startup = try (0..<rounds).map { _ in
            try Command.time("gst-launch-1.0", ["-q", "fakesrc", "num-buffers=1", "!", "fakesink"]).seconds
        }.median
        var results: [Measurement] = []
        for format in [PixelFormat.i420, .rgba] {
            var ours: [Double] = []
            var peer: [Double] = []
            for _ in 0..<rounds {
                ours.append(try await engineFramesPerSecond(movie, format: format))
                peer.append(try gstLaunchFramesPerSecond(movie, format: format, startup: startup))
            }
            let value = ours.median
            let baseline = peer.median
            results.append(
                Measurement(
                    "decode", "1080p-\(format.rawValue.lowercased())-fps", value, "fps", baseline: baseline,
                    ratio: value / baseline))
        }
        return results
    }

    /// Plays the movie to the end into a frames sink that does not wait for the clock.
    static func engineFramesPerSecond(
        _ movie: URL, format: PixelFormat, overlays: [any VideoOverlay] = []
    ) async throws -> Double {
        let sink = FrameSink(format: format, synchronized: false)
        let player = MoviePlayer(source: FileSource(url: movie), videoSink: sink, audioOutput: .discard)
        for overlay in overlays { player.overlays.add(overlay) }
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
