import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// Faults nginx cannot make: a connection reset in the middle of the body, a server that never
/// answers, a body shorter than announced, garbage with status 200, ICY titles.
@Suite("Connection faults")
struct ConnectionFaultTests {
    /// Plays `url` to its end or its error; returns the finish and the frames seen.
    static func play(
        _ url: String, options: HTTPStreamOptions = HTTPStreamOptions(), within limit: Duration = .seconds(15)
    ) async throws -> (FinishReason, MediaError?, [FrameRecorder.Record], MoviePlayer) {
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: url, options: options), videoSink: frames.sink(synchronized: false),
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try? await withDeadline(limit, "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: limit)
        return (reason, error, frames.records, player)
    }

    @Test("a reset in the middle of the body is retried from where it broke: every frame plays")
    func resetOnceRecovers() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let server = try FaultInjectingServer(serving: movie, fault: .resetAfter(bytes: 30_000), faultLimit: 1)
        let (reason, error, frames, _) = try await Self.play(server.url())
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(frames.compactMap(\.number) == Array(0..<60))
        #expect(server.requests.count >= 2)
    }

    @Test("a connection that breaks every time, but further each time, still delivers every frame")
    func resetAlwaysWithProgress() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let server = try FaultInjectingServer(serving: movie, fault: .resetAfter(bytes: 20_000))
        let (reason, error, frames, _) = try await Self.play(server.url())
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(frames.compactMap(\.number) == Array(0..<60))
    }

    @Test("a connection that breaks before any byte ends with an error once the retries are spent")
    func resetAlwaysFails() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let server = try FaultInjectingServer(serving: movie, fault: .resetAfter(bytes: 0))
        var options = HTTPStreamOptions()
        options.retries = 1
        let (reason, error, _, player) = try await Self.play(server.url(), options: options)
        #expect(reason == .playbackError)
        #expect(error?.code == .connectionLost, "\(String(describing: error))")
        #expect(player.errorLog.events.last?.comment.hasPrefix("connectionLost") == true, "\(player.errorLog)")
    }

    @Test("a server that never answers is timedOut within the timeout")
    func neverAnswers() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let server = try FaultInjectingServer(serving: movie, fault: .neverAnswer)
        var options = HTTPStreamOptions()
        options.timeout = .seconds(1)
        options.retries = 0
        let started = ContinuousClock.now
        let (reason, error, _, _) = try await Self.play(server.url(), options: options, within: .seconds(10))
        #expect(reason == .playbackError)
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < Duration.seconds(8).scaled, "a 1 s timeout, then the probe's 1 s wait")
    }

    @Test("a body shorter than its Content-Length is asked for again from where it stopped")
    func shortBodyResumes() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let size = try FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int ?? 0
        let server = try FaultInjectingServer(serving: movie, fault: .shortBody(bytes: size / 3))
        let (reason, error, frames, _) = try await Self.play(server.url())
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(frames.compactMap(\.number) == Array(0..<60))
        #expect(server.requests.contains { $0.value(of: "Range") != nil })
    }

    @Test("a body that always stops short, with no progress, is an error, never a silent success")
    func shortBodyFails() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let server = try FaultInjectingServer(serving: movie, fault: .shortBody(bytes: 0))
        var options = HTTPStreamOptions()
        options.retries = 1
        let (reason, error, _, _) = try await Self.play(server.url(), options: options)
        #expect(reason == .playbackError, "\(String(describing: error))")
        #expect(error != nil)
    }

    @Test("garbage with status 200 is notAMovie")
    func garbage() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let server = try FaultInjectingServer(serving: movie, fault: .garbage)
        let (reason, error, _, _) = try await Self.play(server.url())
        #expect(reason == .playbackError)
        #expect(error?.code == .notAMovie, "\(String(describing: error))")
    }
}

/// Shoutcast/Icecast streams: the titles the server sends in the stream are timed metadata.
@Suite("ICY metadata")
struct ICYMetadataTests {
    @Test("ICY stream titles arrive as StreamTitle items, in order, as the stream plays")
    func streamTitles() async throws {
        let tone = try await TestMedia.url(
            for: TestMedia.Clip(
                fileExtension: "mp3",
                pipeline: """
                    audiotestsrc num-buffers=86 ! audio/x-raw,rate=44100,channels=1 ! audioconvert ! \
                    lamemp3enc bitrate=64 ! filesink location=LOCATION
                    """))
        let server = try FaultInjectingServer(
            serving: tone, contentType: "audio/mpeg", fault: .icy(metaint: 2048, titles: ["First song", "Second song"]))
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("radio.mp3")), videoSink: NullVideoSink(),
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        _ = try await recorder.waitForFinish(within: .seconds(15))
        let titles = recorder.events.compactMap { event -> [String]? in
            guard case .timedMetadataChanged(let items) = event else { return nil }
            return items.filter { $0.key == "StreamTitle" }.compactMap(\.value.text)
        }.flatMap { $0 }
        #expect(titles == ["First song", "Second song"], "\(recorder.events)")
    }
}
