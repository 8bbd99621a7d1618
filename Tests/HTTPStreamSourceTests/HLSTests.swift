import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// HLS (and DASH) through ``HTTPStreamSource`` against nginx on loopback: streams made with
/// `hlssink2` and `dashsink` (``AdaptiveStreamMedia``), played to the end frame by frame, sought,
/// started at a segment boundary, and switching variants. One test at a time: each decodes a
/// 6-second stream flat out, and all at once they delayed the frames of the suite's timing tests
/// (output swaps) on the 2-core box.
@Suite("HLS and DASH", .serialized)
struct HLSTests {
    /// The bars' frame numbers as a stream of `count` frames shows them (they wrap at 80).
    static func numbers(_ range: Range<Int>) -> [Int] { range.map { $0 % 80 } }

    /// A player of `path` on `server`, its frames recorded at 320x240 whatever the variant's size.
    static func player(
        _ server: LoopbackHTTPServer, _ path: String, options: HTTPStreamOptions = HTTPStreamOptions(),
        frames: FrameRecorder, synchronized: Bool = false
    ) throws -> MoviePlayer {
        MoviePlayer(
            source: try HTTPStreamSource(string: server.url(path), options: options),
            videoSink: frames.sink(
                format: .rgba, size: VideoSize(width: 320, height: 240), synchronized: synchronized),
            audioOutput: .discard)
    }

    /// Options that keep a stream on its 320x240 variant (650 kbit/s fits in 700 kbit/s).
    static var midVariantOnly: HTTPStreamOptions {
        var options = HTTPStreamOptions()
        options.adaptive = AdaptiveStreamingOptions(fixedBandwidth: 1_000_000)
        return options
    }

    @Test("an HLS stream plays to its end, every frame in order; a stream of known duration")
    func vodPlaysToTheEnd() async throws {
        let server = try await LoopbackHTTPServer(serving: try await AdaptiveStreamMedia.hlsVariants())
        let frames = FrameRecorder()
        let player = try Self.player(server, "master.m3u8", options: Self.midVariantOnly, frames: frames)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(frames.records.compactMap(\.number) == Self.numbers(0..<180))
        #expect(player.movieSourceType == .streaming)
        #expect(recorder.events.contains(.sourceTypeAvailable(.streaming)))
        #expect(player.duration?.isClose(to: .milliseconds(5967), within: .milliseconds(100)) == true)
        #expect(player.naturalSize == VideoSize(width: 320, height: 240))
        #expect(!recorder.events.contains { if case .variantSwitched = $0 { true } else { false } })
    }

    @Test("seeking in an HLS stream shows the frame asked for, in another segment")
    func vodSeeks() async throws {
        let server = try await LoopbackHTTPServer(serving: try await AdaptiveStreamMedia.hlsVariants())
        let frames = FrameRecorder()
        let player = try Self.player(server, "mid.m3u8", frames: frames, synchronized: true)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        // hlssink2's segments carry the encoder's 125 ms delay: frame N shows from start + N/30 s.
        let start = try #require(frames.records.first?.presentationTime)
        #expect(player.seekableRange.map { $0.lowerBound == .zero && $0.upperBound > .seconds(5) } == true)
        #expect(!player.isLiveStream)
        for time in [Duration.milliseconds(4500), .milliseconds(1000)] {
            let frame = Int(((time - start).inSeconds * Double(AdaptiveStreamMedia.framesPerSecond)).rounded(.down))
            frames.reset()
            try await withDeadline(.seconds(10), "seek to \(time)") { try await player.seek(to: time) }
            try await frames.waitUntil("frame \(frame % 80)", within: .seconds(3)) {
                $0.contains { $0.number == frame % 80 }
            }
            #expect(frames.records.first?.number == frame % 80, "\(frames.records.prefix(3))")
            #expect(player.currentPlaybackTime.isClose(to: time, within: .milliseconds(40)))
        }
        player.stop()
    }

    @Test("a stream starts on its lowest variant, climbs as the bandwidth allows, and says so")
    func variantSwitching() async throws {
        let server = try await LoopbackHTTPServer(serving: try await AdaptiveStreamMedia.hlsVariants())
        let frames = FrameRecorder()
        let player = try Self.player(server, "master.m3u8", frames: frames)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        _ = try await recorder.waitForFinish(within: .seconds(10))
        let events = recorder.events
        let switches = events.compactMap { event -> VariantSwitch? in
            if case .variantSwitched(let change) = event { return change }
            return nil
        }
        let sizes = events.compactMap { event -> VideoSize? in
            if case .naturalSizeAvailable(let size) = event { return size }
            return nil
        }
        // Loopback is fast: after the first (lowest) segment the demuxer measures and moves up.
        #expect(sizes.first == VideoSize(width: 160, height: 120), "\(sizes)")
        #expect(sizes.last == VideoSize(width: 640, height: 480), "\(sizes)")
        #expect(switches.last?.indicatedBitrate == 1_800_000, "\(switches)")
        #expect(switches.last?.uri.hasSuffix("/high.m3u8") == true)
        // The access log: an entry per variant played, with its bitrate and its segments.
        let log = player.accessLog.events
        #expect(log.count >= 2, "\(log)")
        #expect(log.last?.indicatedBitrate == 1_800_000 && log.last?.uri.hasSuffix("/high.m3u8") == true)
        #expect(log.reduce(0) { $0 + $1.segmentsDownloaded } >= 3, "\(log)")
        #expect(log.allSatisfy { $0.playbackSessionID == log[0].playbackSessionID })
        // The picture goes on across the switches: every frame of the movie, in order (the
        // 640x480 frames scaled to 320x240 blur the bars' seam near the right edge: frames 1-9
        // of every 80 cannot be read there).
        let records = frames.records
        #expect(records.count == 180)
        let misread = records.enumerated().filter { index, record in record.number.map { $0 != index % 80 } ?? false }
        #expect(misread.isEmpty, "\(misread.prefix(5))")
        #expect(records.compactMap(\.number).count >= 150)
        #expect(player.naturalSize == VideoSize(width: 640, height: 480))
    }

    @Test("while a stream prepares its demuxer reads no further than its first segment; then it reads ahead")
    func noReadAheadWhilePreparing() async throws {
        let folder = try await AdaptiveStreamMedia.liveSegmentsFolder(
            with: ["vod.m3u8": AdaptiveStreamMedia.livePlaylist(0..<10) + "#EXT-X-ENDLIST\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await StreamingTestServer(serving: folder)
        @Sendable func segmentsRequested() throws -> Int {
            try server.accessLog().filter { $0.uri.hasSuffix(".ts") }.count
        }
        // The first frame is held in the sink for 400 ms, and preparation with it: a demuxer free to
        // read ahead fetches the next segments of this 20-second stream over loopback meanwhile.
        let requestedWhilePreparing = Locked<Int?>(nil)
        let sink = FrameSink { _ in
            guard requestedWhilePreparing.withLock({ $0 == nil }) else { return }
            usleep(400_000)
            let count = (try? segmentsRequested()) ?? -1
            requestedWhilePreparing.withLock { $0 = count }
        }
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("vod.m3u8")), videoSink: sink, audioOutput: .discard)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        // The first segment, and at most the request for the second (its download waits).
        let whilePreparing = try #require(requestedWhilePreparing.withLock { $0 })
        #expect((1...2).contains(whilePreparing), "\(whilePreparing) segments requested while preparing")
        // Prepared, the demuxer reads ahead again (a buffer's worth, not one segment at a time):
        // the playlist and at least four segments.
        let requests = try await server.accessLog(atLeast: 5)
        #expect(requests.filter { $0.uri.hasSuffix(".ts") }.count >= 4, "\(requests.map(\.uri))")
        player.stop()
    }

    @Test("a stream stopped while its demuxer holds its second segment back stops at once, and plays again")
    func stopWhileHoldingBack() async throws {
        let folder = try await AdaptiveStreamMedia.liveSegmentsFolder(
            with: ["vod.m3u8": AdaptiveStreamMedia.livePlaylist(0..<10) + "#EXT-X-ENDLIST\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await StreamingTestServer(serving: folder)
        // The first frame is held in the sink (preparation with it) until the test has stopped
        // the player; meanwhile the demuxer's second segment waits at its gate.
        let held = Locked(0)
        let (frameHeld, heldContinuation) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let sink = FrameSink { _ in
            guard
                held.withLock({ count in
                    defer { count += 1 }
                    return count == 0
                })
            else { return }
            heldContinuation.yield()
            _ = release.wait(timeout: .now() + 5)
        }
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("vod.m3u8")), videoSink: sink, audioOutput: .discard)
        let preparation = Task { try await player.prepareToPlay() }
        try await withDeadline(.seconds(5), "the first frame") {
            for await _ in frameHeld { break }
        }
        // The playlist, the first segment and the second, which the gate holds.
        _ = try await server.accessLog(atLeast: 3)
        player.stop()
        release.signal()
        _ = await preparation.result
        try await withDeadline(.seconds(5), "shutdown()") { await player.shutdown() }
        // The same player plays the stream again.
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        #expect(player.playbackState == .playing)
        #expect(!recorder.events.contains { $0.finish.map { $0.1 != nil } ?? false })
        try await withDeadline(.seconds(5), "shutdown()") { await player.shutdown() }
    }

    @Test("initialPlaybackTime starts a stream at the segment boundary before it; endPlaybackTime is ignored")
    func playbackRangeOnAStream() async throws {
        let server = try await LoopbackHTTPServer(serving: try await AdaptiveStreamMedia.hlsVariants())
        let frames = FrameRecorder()
        let player = try Self.player(server, "mid.m3u8", frames: frames)
        try player.setPlaybackRange(initial: .milliseconds(3100), end: .milliseconds(4000))
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        // 3.1 s is in the second segment (2-4 s): playback starts at 2 s and runs to the end.
        #expect(frames.records.compactMap(\.number) == Self.numbers(60..<180))
        #expect(player.endPlaybackTime == .milliseconds(4000))
    }

    @Test("the source's headers, cookies and user agent reach every segment's download")
    func optionsReachSegments() async throws {
        // Segments are refused (403) without the header, the cookie and the user agent.
        let server = try await LoopbackHTTPServer(
            serving: try await AdaptiveStreamMedia.hlsVariants(),
            serverDirectives: """
                location ~ \\.ts$ {
                    set $ok "";
                    if ($http_x_token = "abc") { set $ok "${ok}h"; }
                    if ($cookie_session = "s1") { set $ok "${ok}c"; }
                    if ($http_user_agent = "engine-tests") { set $ok "${ok}u"; }
                    if ($ok != "hcu") { return 403; }
                }
                """)
        var options = Self.midVariantOnly
        options.headers = ["X-Token": "abc"]
        options.cookies = ["session=s1"]
        options.userAgent = "engine-tests"
        let frames = FrameRecorder()
        let player = try Self.player(server, "master.m3u8", options: options, frames: frames)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(frames.records.count == 180)

        let refused = try Self.player(server, "master.m3u8", options: Self.midVariantOnly, frames: FrameRecorder())
        let refusal = await #expect(throws: MediaError.self) {
            try await withDeadline(.seconds(10), "prepareToPlay()") { try await refused.prepareToPlay() }
        }
        #expect(refusal?.code == .forbidden && refusal?.httpStatusCode == 403, "\(String(describing: refusal))")
    }

    @Test("the source's credential answers a challenge for the segments; without it they are unauthorized")
    func credentialsReachSegments() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "viewer:{PLAIN}s3cret\n".write(
            to: folder.appendingPathComponent("users"), atomically: true, encoding: .utf8)
        // The playlists are open; the segments want Basic credentials.
        let server = try await LoopbackHTTPServer(
            serving: try await AdaptiveStreamMedia.hlsVariants(),
            serverDirectives: """
                location ~ \\.ts$ {
                    auth_basic "segments";
                    auth_basic_user_file \(folder.path)/users;
                }
                """)
        var options = Self.midVariantOnly
        options.credential = HTTPCredential(user: "viewer", password: "s3cret")
        options.credentialStore = nil
        let frames = FrameRecorder()
        let player = try Self.player(server, "mid.m3u8", options: options, frames: frames)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(frames.records.count == 180)

        options.credential = nil
        let refused = try Self.player(server, "mid.m3u8", options: options, frames: FrameRecorder())
        let refusal = await #expect(throws: MediaError.self) {
            try await withDeadline(.seconds(10), "prepareToPlay()") { try await refused.prepareToPlay() }
        }
        #expect(refusal?.code == .unauthorized && refusal?.httpStatusCode == 401, "\(String(describing: refusal))")
        let reported = "\(String(describing: refusal)) \(refusal?.debugDetail ?? "")"
        #expect(!reported.contains("s3cret"))
    }

    @Test("adaptive options out of range are refused before any request")
    func badAdaptiveOptions() throws {
        for adaptive in [
            AdaptiveStreamingOptions(startBitrate: 0), AdaptiveStreamingOptions(fixedBandwidth: -1),
            AdaptiveStreamingOptions(bandwidthFraction: 0), AdaptiveStreamingOptions(bandwidthFraction: 1.5),
        ] {
            var options = HTTPStreamOptions()
            options.adaptive = adaptive
            #expect(throws: MediaError.self) {
                try HTTPStreamSource(string: "http://127.0.0.1/a.m3u8", options: options).validate()
            }
        }
    }

    @Test("a DASH stream plays to its end, every frame in order")
    func dashPlays() async throws {
        let server = try await LoopbackHTTPServer(serving: try await AdaptiveStreamMedia.dash())
        let frames = FrameRecorder()
        let player = try Self.player(server, "manifest.mpd", frames: frames)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(frames.records.compactMap(\.number) == Self.numbers(0..<180))
        #expect(player.movieSourceType == .streaming)
        #expect(player.duration?.isClose(to: .milliseconds(5967), within: .milliseconds(100)) == true)
    }

    @Test("a DASH stream starts on its lowest representation, climbs, and says so (dashdemux does not)")
    func dashVariantSwitching() async throws {
        let folder = try await AdaptiveStreamMedia.dashLadderFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await LoopbackHTTPServer(serving: folder)
        let frames = FrameRecorder()
        let player = try Self.player(server, "ladder.mpd", frames: frames)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        let switches = recorder.events.compactMap { event -> VariantSwitch? in
            if case .variantSwitched(let change) = event { return change }
            return nil
        }
        #expect(switches.last == VariantSwitch(uri: server.url("ladder.mpd") + "#high", indicatedBitrate: 1_800_000))
        #expect(player.naturalSize == VideoSize(width: 640, height: 480))
        let log = player.accessLog.events
        #expect(log.count == switches.count + 1, "\(log)")
        #expect(log.last?.indicatedBitrate == 1_800_000)
        #expect(frames.records.count == 180)
    }
}
