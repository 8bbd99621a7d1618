import FileSource
import Foundation
import MediaEngine
import Synchronization

/// `swap`: the 720p movie plays (repeating, at normal speed) while its video moves between two
/// frames sinks 20 times, every 5 frames. Reports the longest wait between the last frame the
/// old sink delivered and the first the new one delivered (baseline: one frame interval; ratio =
/// interval / wait), and how many frames were lost or delivered twice across all swaps (goal 0).
/// The new sink delivers its first frame as soon as it has it (a preroll), up to one interval
/// before that frame is due, which is why the wait can be shorter than an interval.
enum SwapBenchmark {
    static let swaps = 20

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.hd720Silent()
        let frames = Mutex<[(sink: Int, running: Duration, arrival: ContinuousClock.Instant)]>([])
        let (counts, counter) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        func sink(_ label: Int) -> FrameSink {
            FrameSink { frame in
                guard let running = frame.runningTime else { return }
                let count = frames.withLock { frames in
                    frames.append((label, running, .now))
                    return frames.count
                }
                counter.yield(count)
            }
        }
        let sinks = [sink(0), sink(1)]
        let player = MoviePlayer(source: FileSource(url: movie), videoSink: sinks[0], audioOutput: .discard)
        player.repeatMode = .one
        try await player.play()
        var progress = counts.makeAsyncIterator()
        for swap in 1...swaps {
            while let count = await progress.next(), count < swap * 5 {}
            try await player.setVideoSink(sinks[swap % 2])
        }
        player.stop()
        counter.finish()
        let recorded = frames.withLock { $0 }.sorted { $0.running < $1.running }
        let interval = Duration.microseconds(33_333)
        var lost = 0
        var repeated = 0
        var longestSwapWait = Duration.zero
        for (previous, next) in zip(recorded, recorded.dropFirst()) {
            let step = next.running - previous.running
            if step < interval / 2 { repeated += 1 }
            if step > interval * 3 / 2 { lost += Int((step / interval).rounded()) - 1 }
            if next.sink != previous.sink { longestSwapWait = max(longestSwapWait, next.arrival - previous.arrival) }
        }
        let wait = longestSwapWait.milliseconds
        return [
            Measurement(
                "swap", "pause-max", wait, "ms", baseline: interval.milliseconds, ratio: interval.milliseconds / wait),
            Measurement("swap", "frames-lost", Double(lost), "frames"),
            Measurement("swap", "frames-repeated", Double(repeated), "frames"),
        ]
    }
}
