import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// MPMoviePlayerController's `contentURL`, for ported code.
@Suite("contentURL")
struct ContentURLTests {
    @Test("contentURL reads the source's URL; setting it while playing pauses the movie and plays the new one")
    func replaceWhilePlaying() async throws {
        let first = try await TestMedia.url(for: TestMedia.numbered)
        let second = try await TestMedia.url(for: TestMedia.wideBars)
        let heights = Locked<[Int]>([])
        let player = MoviePlayer(
            source: FileSource(url: first),
            videoSink: FrameSink(dropsLateFrames: false) { frame in
                let height = frame.height
                heights.withLock { $0.append(height) }
            }, audioOutput: .discard)
        player.shouldAutoplay = false
        #expect(player.contentURL?.standardizedFileURL == first.standardizedFileURL)
        let recorder = EventRecorder(player)
        _ = try player.addBoundaryTimeObserver(at: [.milliseconds(500)])
        let events = player.events
        try await player.play()
        for await event in events {
            if case .boundaryTimeReached = event { break }
        }
        player.contentURL = second
        #expect(player.contentURL?.standardizedFileURL == second.standardizedFileURL)
        #expect(player.source is FileSource)
        try await recorder.waitFor("the new movie's end") { $0 == .playbackDidFinish(.playbackEnded, nil) }
        let recorded = recorder.events
        guard let change = recorded.firstIndex(of: .nowPlayingMovieChanged) else {
            Issue.record("no nowPlayingMovieChanged in \(recorded)")
            return
        }
        #expect(recorded[..<change].contains(.playbackStateChanged(.paused)), "the old movie pauses first")
        #expect(!recorded.contains(.playbackDidFinish(.userExited, nil)), "no finish for the movie replaced")
        #expect(recorded[change...].contains(.playbackStateChanged(.playing)), "the new movie plays")
        #expect(recorded[change...].contains(.durationAvailable(.seconds(1))))
        let shown = heights.withLock { $0 }
        #expect(shown.prefix { $0 == 240 }.count >= 5 && shown.drop { $0 == 240 }.allSatisfy { $0 == 180 })
        #expect(shown.filter { $0 == 180 }.count == 30, "every frame of the new movie")
    }

    @Test("file URLs and paths without a scheme get FileSource, through the source registry")
    func files() throws {
        let player = MoviePlayer(contentURL: URL(fileURLWithPath: "/nonexistent/movie.mp4"))
        #expect((player.source as? FileSource)?.path == "/nonexistent/movie.mp4")
        player.contentURL = URL(string: "relative/movie.mp4")
        let relative = try #require(player.source as? FileSource)
        #expect(relative.path == FileManager.default.currentDirectoryPath + "/relative/movie.mp4")
    }
}
