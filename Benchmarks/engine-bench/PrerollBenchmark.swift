import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import PrerollAdSource
import Synchronization

/// `preroll`: a VAST pre-roll ad over nginx on loopback, 7 runs, medians.
///
/// - Start: from `playPrerollAd` (fetching and resolving the VAST tag, choosing the media file)
///   to the ad's first frame at the sink, against the same ad file played as content from
///   `play()` to its first frame, over the same server, alternating. Ratio = content / ad
///   (goal >= 0.8: VAST adds little).
/// - Hand-over: the step in the frames' running time from the ad's last frame to the content's
///   first, against one frame interval (ratio = interval / step: 1 is gapless, below 1 a gap).
///   The ad is a 2-second 720p movie without B-frames (``BenchmarkMedia/hd720SilentNoBFrames()``),
///   the content a 320x240 one: the size tells them apart. Then again with sound in both (the
///   ad's ending before its picture, ``BenchmarkMedia/hd720WithShortSoundNoBFrames()``).
enum PrerollBenchmark {
    static let runs = 7

    /// A frame as the sink saw it.
    struct Seen: Sendable {
        let width: Int
        let runningTime: Duration?
        let arrival: ContinuousClock.Instant
    }

    static func run() async throws -> [Measurement] {
        let ad = try BenchmarkMedia.hd720SilentNoBFrames()
        let content = try BenchmarkMedia.smallSilent()
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("ad.mp4"), withDestinationURL: ad.standardizedFileURL.absoluteURL)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("ad-sound.mp4"),
            withDestinationURL: try BenchmarkMedia.hd720WithShortSoundNoBFrames().standardizedFileURL.absoluteURL)
        let server = try await LoopbackHTTPServer(
            serving: folder, serverDirectives: "location /beacon/ { return 204; }")
        let vast = """
            <VAST version="3.0"><Ad id="bench"><InLine><AdSystem>engine-bench</AdSystem><AdTitle>Bench</AdTitle>
            <Impression><![CDATA[\(server.url("beacon/impression"))]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:02</Duration>
            <TrackingEvents><Tracking event="start"><![CDATA[\(server.url("beacon/start"))]]></Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="1280" height="720">
            <![CDATA[\(server.url("ad.mp4"))]]></MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        try Data(vast.utf8).write(to: folder.appendingPathComponent("vast.xml"))
        try Data(vast.replacingOccurrences(of: "ad.mp4", with: "ad-sound.mp4").utf8).write(
            to: folder.appendingPathComponent("vast-sound.xml"))
        let tag = URL(string: server.url("vast.xml"))!
        let soundTag = URL(string: server.url("vast-sound.xml"))!
        let contentWithSound = try BenchmarkMedia.smallWithSound()

        // One of each first: plugin loading and first-use costs are not what is measured.
        _ = try await adRun(tag: tag, content: content)
        _ = try await contentStart(URISource(uri: server.url("ad.mp4")))
        var adStarts: [Double] = []
        var contentStarts: [Double] = []
        var steps: [Double] = []
        var soundSteps: [Double] = []
        var interval = 0.0
        for _ in 0..<runs {
            soundSteps.append(try await adRun(tag: soundTag, content: contentWithSound).1)
            let (start, step, frameInterval) = try await adRun(tag: tag, content: content)
            adStarts.append(start)
            steps.append(step)
            interval = frameInterval
            contentStarts.append(try await contentStart(URISource(uri: server.url("ad.mp4"))))
        }
        return [
            Measurement(
                "preroll", "ad-first-frame-p50", adStarts.median, "ms", baseline: contentStarts.median,
                ratio: contentStarts.median / adStarts.median),
            Measurement(
                "preroll", "handover-step-max", steps.max()!, "ms", baseline: interval, ratio: interval / steps.max()!),
            Measurement(
                "preroll", "handover-step-p50", steps.median, "ms", baseline: interval, ratio: interval / steps.median),
            Measurement(
                "preroll", "with-sound-handover-step-max", soundSteps.max()!, "ms", baseline: interval,
                ratio: interval / soundSteps.max()!),
        ]
    }

    /// One pre-roll: the time to the ad's first frame, the running-time step at the hand-over and
    /// the content's frame interval, in milliseconds.
    static func adRun(tag: URL, content: URL) async throws -> (Double, Double, Double) {
        let seen = Mutex<[Seen]>([])
        let sink = FrameSink(synchronized: true, dropsLateFrames: false) { frame in
            let record = Seen(width: frame.width, runningTime: frame.runningTime, arrival: .now)
            seen.withLock { $0.append(record) }
        }
        let player = MoviePlayer(source: FileSource(url: content), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        let events = player.events
        let asked = ContinuousClock.now
        try await player.playPrerollAd(PrerollAdRequest(adTag: tag))
        for await event in events {
            if case .playbackDidFinish = event { break }
        }
        await player.shutdown()
        let frames = seen.withLock { $0 }
        let adFrames = frames.prefix { $0.width == 1280 }
        let contentFrames = frames.dropFirst(adFrames.count)
        guard let firstAd = adFrames.first, let lastAd = adFrames.last, contentFrames.count >= 2,
            let lastAdTime = lastAd.runningTime, let firstContentTime = contentFrames.first?.runningTime,
            let secondContentTime = contentFrames.dropFirst().first?.runningTime
        else { throw BenchmarkError("the ad or the content showed no frames") }
        return (
            (firstAd.arrival - asked).milliseconds, (firstContentTime - lastAdTime).milliseconds,
            (secondContentTime - firstContentTime).milliseconds
        )
    }

    /// The ad file played as content: from `play()` to its first frame, in milliseconds.
    static func contentStart(_ source: URISource) async throws -> Double {
        let first = Mutex<ContinuousClock.Instant?>(nil)
        let sink = FrameSink(synchronized: true) { _ in
            first.withLock { if $0 == nil { $0 = .now } }
        }
        let player = MoviePlayer(source: source, videoSink: sink, audioOutput: .discard)
        let events = player.events
        let asked = ContinuousClock.now
        try await player.play()
        for await event in events {
            if case .readyForDisplayChanged(true) = event { break }
        }
        let arrival = first.withLock { $0 } ?? .now
        await player.shutdown()
        return (arrival - asked).milliseconds
    }
}
