import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Synchronization

/// `stalls`: a 60-second movie with sound over loopback HTTP, from nginx sending at 0.8x its
/// bitrate, played in real time to the end. The stalls the player reports (playing, then
/// interrupted; the access log's count) against the stalls seen at the sink (a gap of more than
/// 300 ms between two frames' arrivals, at 30 fps, the wait after the prerolled first frame
/// excepted); ratio = seen / reported, 1 when they agree.
/// And no position lost: the frames' times step by one frame interval throughout (a skipped or
/// repeated frame counts).
enum StallsBenchmark {
    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.make(
            "360p-60s-h264-aac.mp4",
            """
            videotestsrc num-buffers=1800 pattern=smpte horizontal-speed=4 ! \
            video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=60 bitrate=800 option-string=scenecut=0 ! h264parse ! \
            mp4mux name=mux faststart=true ! filesink location=OUT audiotestsrc num-buffers=2584 ! \
            audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)
        let size = try FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int ?? 0
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bench-stalls-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("movie.mp4"), withDestinationURL: movie.absoluteURL)
        let rate = size / 60 * 8 / 10  // bytes a second: 0.8x the movie's
        let server = try await LoopbackHTTPServer(serving: folder, bytesPerSecond: rate)

        let arrivals = Mutex<[(arrival: ContinuousClock.Instant, pts: Duration)]>([])
        let sink = FrameSink { frame in
            guard let pts = frame.presentationTime else { return }
            arrivals.withLock { $0.append((.now, pts)) }
        }
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("movie.mp4")), videoSink: sink, audioOutput: .discard)
        let events = player.events
        try await player.play()
        var states: [PlaybackState] = []
        for await event in events {
            if case .playbackStateChanged(let state) = event { states.append(state) }
            if case .playbackDidFinish(let reason, let error) = event {
                guard reason == .playbackEnded else {
                    throw BenchmarkError("playback failed: \(String(describing: error))")
                }
                break
            }
        }
        let logged = player.accessLog.events.first?.numberOfStalls ?? -1
        player.stop()
        await player.shutdown()
        _ = server

        let reported = zip(states, states.dropFirst()).filter { $0 == .playing && $1 == .interrupted }.count
        guard logged == reported else {
            throw BenchmarkError("the access log counts \(logged) stalls, the events \(reported)")
        }
        let frames = arrivals.withLock { $0 }
        let interval = Duration.milliseconds(1000) / 30
        var seen = 0
        var skipped = 0
        for (index, (previous, next)) in zip(frames, frames.dropFirst()).enumerated() {
            // The prerolled first frame waits for playback to start (after `startAfter` is
            // buffered): that wait is the start, not a stall.
            if index > 0, next.arrival - previous.arrival > .milliseconds(300) { seen += 1 }
            let step = next.pts - previous.pts
            if step <= .zero || step > interval * 3 / 2 { skipped += 1 }
        }
        return [
            Measurement(
                "stalls", "stalls-reported", Double(reported), "stalls", baseline: Double(seen),
                ratio: reported > 0 ? Double(seen) / Double(reported) : (seen == 0 ? 1 : 0)),
            Measurement("stalls", "frames-skipped-or-repeated", Double(skipped), "frames", baseline: 0, ratio: nil),
            Measurement("stalls", "frames-shown", Double(frames.count), "frames", baseline: 1800, ratio: nil),
        ]
    }
}
