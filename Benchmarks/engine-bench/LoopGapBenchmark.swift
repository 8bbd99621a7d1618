import FileSource
import Foundation
import MediaEngine
import Synchronization

/// `loop-gap`: a 2-second 720p movie in repeat mode for 20 passes; at each pass boundary, the
/// step in the frames' running time from the last frame of a pass to the first of the next. A
/// gapless loop steps exactly one frame interval, as between any two frames; the baseline is that
/// interval (ratio = interval / step: 1 is perfect, below 1 a gap). The movie has no sound: a
/// loop lasts the movie's whole duration, so where a sound track outlasts the pictures the last
/// frame stays up for the difference.
enum LoopGapBenchmark {
    static let passes = 20

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.hd720Silent()
        let frames = Mutex<[(pts: Duration, running: Duration)]>([])
        let sink = FrameSink(synchronized: false) { frame in
            guard let pts = frame.presentationTime, let running = frame.runningTime else { return }
            frames.withLock { $0.append((pts, running)) }
        }
        let player = MoviePlayer(source: FileSource(url: movie), videoSink: sink, audioOutput: .discard)
        player.repeatMode = .one
        let events = player.events
        try await player.play()
        for await event in events {
            if case .didLoop(let count) = event, count >= passes { break }
        }
        player.stop()
        let recorded = frames.withLock { $0 }
        var steps: [Double] = []
        var interval = 0.0
        for index in 1..<recorded.count {
            let step = (recorded[index].running - recorded[index - 1].running).milliseconds
            if recorded[index].pts < recorded[index - 1].pts {
                steps.append(step)  // a pass boundary
            } else if interval == 0 {
                interval = step
            }
        }
        guard steps.count >= passes - 1, interval > 0 else { throw BenchmarkError("too few loops recorded") }
        let worst = steps.max()!
        return [
            Measurement("loop-gap", "boundary-step-max", worst, "ms", baseline: interval, ratio: interval / worst),
            Measurement(
                "loop-gap", "boundary-step-p50", steps.median, "ms", baseline: interval, ratio: interval / steps.median),
        ]
    }
}
