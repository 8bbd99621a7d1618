import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// Progressive HTTP through ``HTTPStreamSource`` against nginx on loopback: playing, seeking
/// into a part not downloaded yet (Range requests), and what a server's refusal becomes.
@Suite("Progressive HTTP")
struct ProgressiveHTTPTests {
    /// A folder with the numbered clip as `movie.mp4`, served by nginx.
    static func servedMovie(bytesPerSecond: Int? = nil) async throws -> (LoopbackHTTPServer, URL) {
        let folder = try TestMedia.scratchDirectory()
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.numbered), to: folder.appendingPathComponent("movie.mp4"))
        return (try await LoopbackHTTPServer(serving: folder, bytesPerSecond: bytesPerSecond), folder)
    }

    @Test("a movie on a web server plays to its end, frame by frame, and is a file source")
    func playsToTheEnd() async throws {
        let (server, folder) = try await Self.servedMovie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("movie.mp4")), videoSink: frames.sink(synchronized: false),
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded && error == nil)
        #expect(frames.records.compactMap(\.number) == Array(0..<60))
        #expect(player.movieSourceType == .file)
        #expect(recorder.events.contains(.sourceTypeAvailable(.file)))
        #expect(player.loadState.contains(.playable))
        _ = server
    }

    @Test("seeking into the part of a slow download not yet received shows the frame asked for")
    func seeksIntoTheUndownloadedPart() async throws {
        // 40 kB/s: the clip (about 100 kB) takes seconds to arrive; a seek to its end needs a
        // Range request.
        let (server, folder) = try await Self.servedMovie(bytesPerSecond: 40_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("movie.mp4")), videoSink: frames.sink(),
            audioOutput: .discard)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        frames.reset()
        try await withDeadline(.seconds(10), "seek") { try await player.seek(to: .milliseconds(1800)) }
        try await frames.waitUntil("frame 54") { $0.contains { $0.number == 54 } }
        player.stop()
        _ = server
    }

    @Test("a 404 is fileNotFound with its status, within a bounded time, with an event")
    func notFound() async throws {
        let (server, folder) = try await Self.servedMovie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("missing.mp4")), videoSink: NullVideoSink(),
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        let error = await #expect(throws: MediaError.self) {
            try await withDeadline(.seconds(5), "prepareToPlay()") { try await player.prepareToPlay() }
        }
        #expect(error?.code == .fileNotFound)
        #expect(error?.httpStatusCode == 404)
        let (reason, finishError) = try await recorder.waitForFinish(within: .seconds(2))
        #expect(reason == .playbackError && finishError?.code == .fileNotFound)
        _ = server
    }

    @Test("a refused port is connectionRefused, a name that does not resolve hostNotFound")
    func connectionFailures() async throws {
        for (url, code) in [
            ("http://127.0.0.1:1/movie.mp4", MediaError.Code.connectionRefused),
            ("http://no-such-host.invalid/movie.mp4", .hostNotFound),
        ] {
            var options = HTTPStreamOptions()
            options.retries = 0
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: url, options: options), videoSink: NullVideoSink(),
                audioOutput: .discard)
            let error = await #expect(throws: MediaError.self) {
                try await withDeadline(.seconds(20), "prepareToPlay() of \(url)") { try await player.prepareToPlay() }
            }
            #expect(error?.code == code, "\(url): \(String(describing: error))")
            #expect(error?.httpStatusCode == nil)
        }
    }

    @Test("a refused connection, when the app asks, is tried again after growing waits, then is connectionRefused")
    func refusedIsRetried() async throws {
        var options = HTTPStreamOptions()
        options.retriesRefusedConnections = true
        options.retries = 2
        options.retryDelay = .milliseconds(100)
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: "http://127.0.0.1:1/movie.mp4", options: options),
            videoSink: NullVideoSink(), audioOutput: .discard)
        let recorder = EventRecorder(player)
        let started = ContinuousClock.now
        let error = await #expect(throws: MediaError.self) {
            try await withDeadline(.seconds(20), "prepareToPlay()") { try await player.prepareToPlay() }
        }
        #expect(error?.code == .connectionRefused, "\(String(describing: error))")
        #expect(ContinuousClock.now - started >= .milliseconds(300), "waits of 0.1 s and 0.2 s")
        let waits = recorder.events.compactMap { event -> Duration? in
            guard case .reconnecting(_, let delay, let error) = event, error.code == .connectionRefused else {
                return nil
            }
            return delay
        }
        #expect(waits == [.milliseconds(100), .milliseconds(200)], "\(recorder.events)")
        #expect(player.errorLog.events.count == 3, "each failure is logged: \(player.errorLog.events)")
        #expect(!recorder.events.contains(.preparedToPlayChanged(true)))
    }

    @Test("curl's --retry and --retry-delay set the retries; bad values are refused")
    func retryFlags() throws {
        var options = HTTPStreamOptions()
        #expect(try options.applyCommandLineFlag("--retry", "5"))
        #expect(try options.applyCommandLineFlag("--retry-delay", "1.5"))
        #expect(options.retries == 5 && options.retryDelay == .milliseconds(1500))
        let policy = try HTTPStreamSource(string: "http://127.0.0.1/m.mp4", options: options).retryPolicy
        #expect(
            policy
                == RetryPolicy(
                    attempts: 5, initialDelay: .milliseconds(1500), maximumDelay: .seconds(8), deadline: .seconds(20)))
        for (flag, value) in [
            ("--retry", "-1"), ("--retry", "many"), ("--retry-delay", "nan"), ("--retry-delay", "-2"),
        ] {
            #expect(throws: MediaError.self, "\(flag) \(value)") { _ = try options.applyCommandLineFlag(flag, value) }
        }
    }

    @Test("user information in a URL becomes the credential and appears in no error")
    func credentialsStayOutOfErrors() async throws {
        let source = try HTTPStreamSource(string: "http://alice:s3cret%21@127.0.0.1:1/movie.mp4")
        #expect(source.uri == "http://127.0.0.1:1/movie.mp4")
        #expect(source.options.credential == HTTPCredential(user: "alice", password: "s3cret!"))
        #expect(!"\(source.options.credential!)".contains("s3cret"))
        let player = MoviePlayer(source: source, videoSink: NullVideoSink(), audioOutput: .discard)
        let recorder = EventRecorder(player)
        let error = await #expect(throws: MediaError.self) {
            try await withDeadline(.seconds(20), "prepareToPlay()") { try await player.prepareToPlay() }
        }
        let everything = "\(String(describing: error)) \(error?.debugDetail ?? "") \(recorder.events)"
        #expect(!everything.contains("s3cret") && !everything.contains("alice"))
    }

    @Test("options the HTTP client would misread are refused before any request")
    func badOptions() throws {
        var options = HTTPStreamOptions()
        options.headers = ["X-Evil": "a\r\nInjected: yes"]
        #expect(throws: MediaError.self) {
            try HTTPStreamSource(string: "http://127.0.0.1/m.mp4", options: options).validate()
        }
        options.headers = ["Bad Name": "x"]
        #expect(throws: MediaError.self) {
            try HTTPStreamSource(string: "http://127.0.0.1/m.mp4", options: options).validate()
        }
        options.headers = [:]
        options.retryDelay = .milliseconds(-1)
        #expect(throws: MediaError.self) {
            try HTTPStreamSource(string: "http://127.0.0.1/m.mp4", options: options).validate()
        }
        #expect(throws: MediaError.self) { try HTTPStreamSource(string: "ftp://127.0.0.1/m.mp4") }
        #expect(throws: MediaError.self) { try HTTPStreamSource(string: "http:///m.mp4") }
    }
}
