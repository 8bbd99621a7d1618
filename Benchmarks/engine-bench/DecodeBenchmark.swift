import FileSource
import Foundation
import MediaEngine
import Synchronization

/// `decode`: a 1080p H.264 movie decoded as fast as possible into the `frames` sink (I420 and
/// RGBA), and the same in H.265 (I420), against `gst-launch-1.0 filesrc ! decodebin [! videoconvert
/// ! RGBA] ! fakesink sync=false` in the same run. Frames per second; ratio = ours / gst-launch's.
/// RGBA is measured against two peers: videoconvert at its default `n-threads=1`, and with
/// `n-threads` = the cores (`1080p-rgba-threads-fps`), as the engine's own videoconvert runs.
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
            // A converting peer also with videoconvert given every core, as the engine's own
            // videoconvert is (its default, n-threads=1, is the first peer).
            var threadedPeer: [Double] = []
            for _ in 0..<rounds {
                ours.append(try await engineFramesPerSecond(item.movie, format: item.format))
                peer.append(try gstLaunchFramesPerSecond(item.movie, format: item.format, startup: startup))
                if item.format != .i420 {
                    threadedPeer.append(
                        try gstLaunchFramesPerSecond(
                            item.movie, format: item.format, startup: startup, convertThreads: cores))
                }
            }
            let value = ours.median
            let baseline = peer.median
            results.append(Measurement("decode", item.name, value, "fps", baseline: baseline, ratio: value / baseline))
            if !threadedPeer.isEmpty {
                let threaded = threadedPeer.median
                results.append(
                    Measurement(
                        "decode", item.name.replacingOccurrences(of: "-fps", with: "-threads-fps"), value, "fps",
                        baseline: threaded, ratio: value / threaded))
            }
        }
        return results
    }

    /// The cores this process may use (videoconvert's `n-threads` for the threaded peer).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Plays the movie to the end into a frames sink that does not wait for the clock.
    static func engineFramesPerSecond(
        _ movie: URL, format: PixelFormat, overlays: [any VideoOverlay] = [], controls: MovieControlStyle = .none
    ) async throws -> Double {
        try await enginePlayback(movie, format: format, overlays: overlays, controls: controls, timesDelivery: false)
            .framesPerSecond
    }

    /// One flat-out playback: frames per second, and the process's CPU time per frame delivered
    /// (user and system, all threads, from `play()` to the finish event).
    struct Playback {
        let framesPerSecond: Double
        let cpuMillisecondsPerFrame: Double
        /// The CPU time of the thread that delivers the frames (after the decoder's queue: the
        /// scaler, the overlays, the sink) per frame, from the first frame to the last.
        let deliveryMillisecondsPerFrame: Double
    }

    /// The delivering thread's CPU clock at the first and the last frame, and the frames between.
    final class DeliveryClock: Sendable {
        private let state = Mutex<(first: Double?, last: Double, frames: Int)>((nil, 0, 0))

        func tick() {
            let now = ProcessCPUTime.currentThread()
            state.withLock { state in
                if state.first == nil { state.first = now } else { state.frames += 1 }
                state.last = now
            }
        }

        var millisecondsPerFrame: Double {
            state.withLock { state in
                guard let first = state.first, state.frames > 0 else { return .nan }
                return (state.last - first) * 1000 / Double(state.frames)
            }
        }
    }

    /// Plays the movie to the end into a frames sink that does not wait for the clock. With
    /// `timesDelivery`, a frame callback reads the delivering thread's CPU clock (a lock and a
    /// clock read per frame, which the other benchmarks do not pay); without, that figure is NaN.
    static func enginePlayback(
        _ movie: URL, format: PixelFormat, overlays: [any VideoOverlay] = [], controls: MovieControlStyle = .none,
        timesDelivery: Bool = true
    ) async throws -> Playback {
        let delivery = DeliveryClock()
        let sink =
            timesDelivery
            ? FrameSink(format: format, synchronized: false) { _ in delivery.tick() }
            : FrameSink(format: format, synchronized: false)
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
        let cpuStart = ProcessCPUTime.now()
        try await player.play()
        for await event in events {
            if case .overlayFailed(_, let error) = event { throw BenchmarkError("an overlay failed: \(error)") }
            guard case .playbackDidFinish(let reason, let error) = event else { continue }
            guard reason == .playbackEnded else { throw BenchmarkError("decode failed: \(String(describing: error))") }
            break
        }
        let elapsed = clock.now - start
        let cpu = ProcessCPUTime.now() - cpuStart
        let frames = Double(sink.framesDelivered)
        return Playback(
            framesPerSecond: frames / elapsed.seconds, cpuMillisecondsPerFrame: cpu * 1000 / frames,
            deliveryMillisecondsPerFrame: delivery.millisecondsPerFrame)
    }

    /// The same work in gst-launch-1.0; its process start-up (measured alone) is not counted.
    /// `convertThreads`: videoconvert's `n-threads` (its default is 1).
    static func gstLaunchFramesPerSecond(_ movie: URL, format: PixelFormat, startup: Double, convertThreads: Int = 1)
        throws -> Double
    {
        var pipeline = ["-q", "filesrc", "location=\(movie.path)", "!", "decodebin", "!"]
        if format != .i420 {
            pipeline += [
                "videoconvert", "n-threads=\(convertThreads)", "!", "video/x-raw,format=\(format.rawValue)", "!",
            ]
        }
        pipeline += ["fakesink", "sync=false"]
        let elapsed = try Command.time("gst-launch-1.0", pipeline).seconds - startup
        return 300 / elapsed
    }
}
