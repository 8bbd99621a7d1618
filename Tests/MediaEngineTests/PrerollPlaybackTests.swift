import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Pre-rolls through a real pipeline: the ad's frames, then the content's, through the same
/// frames sink; nothing about the ad reported as the content's.
@Suite("Pre-roll playback")
struct PrerollPlaybackTests {
    /// One frame as the sink saw it: its width tells the ad (328) from the content (320).
    struct Seen: Sendable {
        let width: Int
        let height: Int
        let number: Int?
        let runningTime: Duration?
        let arrival: ContinuousClock.Instant
    }

    /// Every frame the sink saw, and a way to wait for more.
    final class Frames: Sendable {
        private let seen = Locked<[Seen]>([])
        private let waitlist = Waitlist()

        var all: [Seen] { seen.withLock { $0 } }

        func append(_ record: Seen) {
            seen.withLock { $0.append(record) }
            waitlist.recheck()
        }

        func wait(_ what: String, until condition: @escaping @Sendable ([Seen]) -> Bool) async throws {
            try await withDeadline(.seconds(10), what) { [self] in await waitlist.wait { condition(self.all) } }
        }
    }

    /// A player on the numbered clip, its frames recorded in `seen`.
    static func player(_ seen: Frames) async throws -> MoviePlayer {
        let sink = FrameSink(format: .i420, dropsLateFrames: false) { frame in
            seen.append(
                Seen(
                    width: frame.width, height: frame.height, number: FrameNumber.read(frame),
                    runningTime: frame.runningTime, arrival: .now)
            )
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        player.shouldAutoplay = false
        return player
    }

    static func ad(_ clip: TestMedia.Clip = TestMedia.ballWithBFrames) async throws -> URISource {
        URISource(uri: try await TestMedia.url(for: clip).absoluteString)
    }

    @Test("the ad plays first through the content's sink, then the content without a gap; ad time is not content time")
    func adThenContent() async throws {
        let seen = Frames()
        let player = try await Self.player(seen)
        let recorder = EventRecorder(player)
        let reports = Locked<[PrerollReport]>([])
        let during = Locked<[(Duration, Duration?)]>([])
        let end = try await player.playPreroll([try await Self.ad()], playsContentAfter: true, timeout: .seconds(10)) {
            _, report in
            reports.withLock { $0.append(report) }
            if case .position = report { during.withLock { $0.append((player.currentPlaybackTime, player.duration)) } }
        }
        #expect(end == .completed)
        let heard = reports.withLock { $0 }
        guard case .started(let duration) = heard.first else {
            Issue.record("the first report is \(String(describing: heard.first))")
            return
        }
        #expect(
            duration.map { $0 >= .milliseconds(1400) && $0 <= .milliseconds(1600) } ?? false,
            "\(String(describing: duration))")
        let positions = heard.compactMap { if case .position(let p) = $0 { p } else { nil } }
        #expect(positions.count >= 5 && positions == positions.sorted(), "\(positions)")
        #expect(during.withLock { $0 }.allSatisfy { $0.0 == .zero && $0.1 == nil }, "the content's time during the ad")

        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        let frames = seen.all
        let adFrames = frames.prefix { $0.width == 328 }
        let contentFrames = frames.dropFirst(adFrames.count)
        #expect(adFrames.count == 45, "every frame of the ad")
        #expect(
            contentFrames.map(\.number) == Array(0..<60).map { Optional($0) }, "every frame of the content, in order")
        if let lastAd = adFrames.last, let firstContent = contentFrames.first {
            // Gapless: the content's first frame is due one frame interval (1/30 s) after the
            // ad's last on the pipeline's clock, with no reload between (which would start the
            // running time again from zero).
            let step = (firstContent.runningTime ?? .zero) - (lastAd.runningTime ?? .zero)
            #expect(step >= .milliseconds(32) && step <= .milliseconds(35), "running-time step \(step)")
        }
        // The content's events come after the ad, and only the content's.
        let durations = recorder.events.compactMap { if case .durationAvailable(let d) = $0 { d } else { nil } }
        #expect(durations == [.seconds(2)])
        let sizes = recorder.events.compactMap { if case .naturalSizeAvailable(let s) = $0 { s } else { nil } }
        #expect(sizes == [VideoSize(width: 320, height: 240)])
    }

    /// Starts a 60-second ad on `player` and returns, once its first frame shows, the task that
    /// waits for its end.
    static func startLongAd(on player: MoviePlayer) async throws -> Task<PrerollEnd, any Error> {
        let started = AsyncStream<Void>.makeStream()
        let ad = Task {
            try await player.playPreroll(
                [try await Self.ad(TestMedia.longBars)], playsContentAfter: true, timeout: .seconds(10)
            ) {
                if case .started = $1 { started.continuation.yield() }
            }
        }
        for await _ in started.stream { break }
        return ad
    }

    @Test("play() during the ad stops it at once and plays the content from its initial playback time")
    func playDuringAd() async throws {
        let seen = Frames()
        let player = try await Self.player(seen)
        try player.setPlaybackRange(initial: .seconds(1), end: nil)
        let ad = try await Self.startLongAd(on: player)
        #expect(player.isPlayingPreroll)
        let recorder = EventRecorder(player)
        try await player.play()
        #expect(try await ad.value == .contentStarted)
        // The content's second of movie may be over by now on a busy machine: its events say it
        // played. They reach the recorder on a task of its own, maybe after play() returned.
        try await recorder.waitFor("the content's first state") { $0.playbackState != nil }
        #expect(recorder.events.first { $0.playbackState != nil } == .playbackStateChanged(.playing))
        #expect(
            player.playbackState == .playing || recorder.events.contains(.playbackDidFinish(.playbackEnded, nil)),
            "\(recorder.events)")
        try await seen.wait("the content's first frame") { $0.last?.width == 320 }
        let first = seen.all.first { $0.width == 320 }
        #expect(first?.number == 30, "the content starts at its initial playback time (frame 30 at 1 s)")
        // The 60-second ad stopped there: none of its frames after the content's first.
        let frames = seen.all
        #expect(frames.drop { $0.width != 320 }.allSatisfy { $0.width == 320 })
        #expect(frames.prefix { $0.width != 320 }.count < 300, "the ad did not play on")
    }

    @Test("an ad that cannot be played fails; the content waits, prepared, and plays when asked")
    func failedAd() async throws {
        let seen = Frames()
        let player = try await Self.player(seen)
        let end = try await player.playPreroll(
            [URISource(uri: "file:///nonexistent/ad.mp4")], playsContentAfter: true, timeout: .seconds(10)
        ) { _, _ in }
        guard case .failed(let error) = end else {
            Issue.record("expected a failure, got \(end)")
            return
        }
        #expect(error.code == .fileNotFound, "\(error)")
        #expect(player.playbackState == .stopped)
        try await player.play()
        let recorder = EventRecorder(player)
        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(seen.all.map(\.number) == Array(0..<60).map { Optional($0) })
    }

    @Test("refused while the content plays; stop() during the ad ends both")
    func refusedAndStopped() async throws {
        let seen = Frames()
        let player = try await Self.player(seen)
        try await player.play()
        await #expect(throws: MediaError.self) {
            try await player.playPreroll([try await Self.ad()], playsContentAfter: true, timeout: .seconds(10)) {
                _, _ in
            }
        }
        player.stop()
        let ad = try await Self.startLongAd(on: player)
        player.stop()
        #expect(try await ad.value == .stopped)
        #expect(!player.isPlayingPreroll && player.playbackState == .stopped && !player.isPreparedToPlay)
    }

    @Test("two ads, then the content: each follows the one before without a gap, each reported in turn")
    func pod() async throws {
        let seen = Frames()
        let player = try await Self.player(seen)
        let reports = Locked<[String]>([])
        let end = try await player.playPreroll(
            [try await Self.ad(), try await Self.ad(TestMedia.wideBars)], playsContentAfter: true,
            timeout: .seconds(10)
        ) { item, report in
            if case .position = report { return }
            let name = "\(report)".split(separator: " at ").first.map(String.init) ?? ""
            reports.withLock { $0.append("\(item) \(name.hasSuffix(")") ? name : name + ")")") }
        }
        #expect(end == .completed)
        try await seen.wait("the content's 60 frames") { $0.filter { $0.height == 240 }.count == 60 }
        let frames = seen.all
        let runs = frames.reduce(into: [(height: Int, count: Int)]()) { runs, frame in
            if runs.last?.height == frame.height {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((frame.height, 1))
            }
        }
        #expect(runs.map(\.height) == [184, 180, 240] && runs.map(\.count) == [45, 30, 60], "\(runs)")
        for boundary in [45, 75] {
            let step = (frames[boundary].runningTime ?? .zero) - (frames[boundary - 1].runningTime ?? .zero)
            #expect(step >= .milliseconds(32) && step <= .milliseconds(35), "step \(step) at frame \(boundary)")
        }
        let heard = reports.withLock { $0 }
        #expect(heard.count == 4 && heard[1] == "0 ended(completed)" && heard[3] == "1 ended(completed)", "\(heard)")
        #expect(heard[0].hasPrefix("0 started") && heard[2].hasPrefix("1 started"))
    }
}

extension PrerollPlaybackTests {
    @Test("an ad with sound, then content with sound: the content follows the ad without a gap, every frame shown")
    func adWithSound() async throws {
        let seen = Frames()
        let sink = FrameSink(format: .i420, dropsLateFrames: false) { frame in
            seen.append(
                Seen(
                    width: frame.width, height: frame.height, number: FrameNumber.read(frame),
                    runningTime: frame.runningTime, arrival: .now))
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numberedWithAudio)), videoSink: sink,
            audioOutput: .discard)
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        let end = try await player.playPreroll(
            [try await Self.ad(TestMedia.barsWithShortSoundWebM)], playsContentAfter: true, timeout: .seconds(10)
        ) { _, _ in }
        #expect(end == .completed)
        let (reason, _) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        let frames = seen.all
        #expect(frames.count == 120, "the ad's 60 frames and the content's 60")
        #expect(frames.compactMap(\.number).suffix(60) == Array(0..<60).map { Optional($0) }.compactMap { $0 })
        // The ad's sound ends before its picture: the content's first frame comes one frame
        // interval after the ad's last.
        if frames.count > 60 {
            let step = (frames[60].runningTime ?? .zero) - (frames[59].runningTime ?? .zero)
            #expect(step >= .milliseconds(32) && step <= .milliseconds(35), "step \(step)")
        }
    }
}
