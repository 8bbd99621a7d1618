import FileSource
import Foundation
import MediaEngine

/// `queue-gap`: a queue of 21 half-second movies (720p and 320x240 alternating, H.264) through
/// one frames sink, silent and then with sound (AAC, ending before the picture): at each of the 20
/// hand-overs, the step in the frames' running time from one movie's last frame to the next
/// one's first, against one frame interval (ratio = interval / step: 1 is gapless, below 1 a gap).
enum QueueGapBenchmark {
    static let transitions = 20

    static func run() async throws -> [Measurement] {
        var measurements: [Measurement] = []
        for withSound in [false, true] {
            let sound =
                withSound
                ? " audiotestsrc num-buffers=20 ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux."
                : ""
            let suffix = withSound ? "-sound" : ""
            let large = try BenchmarkMedia.make(
                "queue-720p\(suffix).mp4",
                """
                videotestsrc num-buffers=15 pattern=smpte ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
                x264enc speed-preset=veryfast bframes=0 key-int-max=15 ! h264parse ! mp4mux name=mux faststart=true ! \
                filesink location=OUT\(sound)
                """)
            let small = try BenchmarkMedia.make(
                "queue-240p\(suffix).mp4",
                """
                videotestsrc num-buffers=15 pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
                x264enc speed-preset=veryfast bframes=0 key-int-max=15 ! h264parse ! mp4mux name=mux faststart=true ! \
                filesink location=OUT\(sound)
                """)
            measurements += try await measure(large: large, small: small, label: withSound ? "with-sound-" : "")
        }
        return measurements
    }

    static func measure(large: URL, small: URL, label: String) async throws -> [Measurement] {
        let frames = Locked<[(height: Int, running: Duration)]>([])
        let sink = FrameSink(synchronized: true, dropsLateFrames: false) { frame in
            guard let running = frame.runningTime else { return }
            let height = frame.height
            frames.withLock { $0.append((height, running)) }
        }
        let player = MoviePlayer(source: FileSource(url: large), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        try player.setQueue((0...transitions).map { FileSource(url: $0 % 2 == 0 ? large : small) })
        let events = player.events
        try await player.play()
        for await event in events {
            if case .playbackDidFinish = event { break }
        }
        await player.shutdown()
        let recorded = frames.withLock { $0 }
        var steps: [Double] = []
        for index in 1..<recorded.count where recorded[index].height != recorded[index - 1].height {
            steps.append((recorded[index].running - recorded[index - 1].running).milliseconds)
        }
        guard steps.count == transitions, let worst = steps.max() else {
            throw BenchmarkError("\(steps.count) hand-overs recorded, not \(transitions)")
        }
        let interval = 1000.0 / 30
        return [
            Measurement(
                "queue-gap", "\(label)handover-step-max", worst, "ms", baseline: interval, ratio: interval / worst),
            Measurement(
                "queue-gap", "\(label)handover-step-p50", steps.median, "ms", baseline: interval,
                ratio: interval / steps.median),
        ]
    }
}
