import CMediaEngineGlue
import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// MPMoviePlayerController's thumbnail methods on the player.
@Suite("Player thumbnails", .serialized)
struct PlayerThumbnailTests {
    private func time(ofFrame n: Int) -> Duration { .nanoseconds(Int64(n) * 1_000_000_000 / 30) }

    private func thumbnails(in events: [PlayerEvent]) -> [ThumbnailResult] {
        events.compactMap { event in
            if case .thumbnailRequestFinished(let result) = event { return result }
            return nil
        }
    }

    @Test("requestThumbnailImages announces every time once, as an event and a notification with its keys")
    func request() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: NullVideoSink())
        let recorder = EventRecorder(player)
        // Which keys each notification carried: image, error, time.
        let (notified, delivery) = AsyncStream.makeStream(of: (image: Bool, error: Bool, time: Bool).self)
        let observer = NotificationCenter.default.addObserver(
            forName: .moviePlayerThumbnailImageRequestDidFinish, object: player, queue: nil
        ) { notification in
            let info = notification.userInfo ?? [:]
            let keys = (
                image: info[MoviePlayer.thumbnailImageUserInfoKey] is VideoImage,
                // MPMoviePlayerThumbnailErrorKey: an NSError, as the seed's code reads it.
                error: (info[MoviePlayer.thumbnailErrorUserInfoKey] as? NSError)?.domain == MediaError.domain
                    && notification.mediaError != nil,
                // MPMoviePlayerThumbnailTimeKey: an NSNumber of seconds.
                time: info[MoviePlayer.thumbnailTimeUserInfoKey] as? Double != nil
                    && notification.thumbnailTime != nil
            )
            delivery.yield(keys)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let frames = [40, 5, 22, 5]
        player.requestThumbnailImages(at: frames.map { time(ofFrame: $0) } + [.milliseconds(-1)], timeOption: .exact)
        try await recorder.waitUntil("five thumbnails") { self.thumbnails(in: $0).count == 5 }
        let results = thumbnails(in: recorder.events)
        for result in results where result.requestedTime >= .zero {
            let image = try #require(result.image)
            #expect(FrameNumber.read(image).map { time(ofFrame: $0) } == result.requestedTime)
            #expect(result.actualTime == result.requestedTime)
        }
        #expect(results.filter { $0.error?.code == .invalidArgument }.count == 1)
        // The notifications mirror the events (delivered asynchronously).
        let infos = try await withDeadline(.seconds(5), "five notifications") {
            var infos: [(image: Bool, error: Bool, time: Bool)] = []
            for await keys in notified {
                infos.append(keys)
                if infos.count == 5 { break }
            }
            return infos
        }
        #expect(infos.filter(\.image).count == 4)
        #expect(infos.filter(\.error).count == 1)
        #expect(infos.allSatisfy { $0.time })
        #expect(player.playbackState == .stopped, "thumbnails never load or start the player")
    }

    @Test("cancelAllThumbnailImageRequests: every time still announced once, the unfinished ones cancelled")
    func cancelAll() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: NullVideoSink())
        let recorder = EventRecorder(player)
        let times = (0..<50).map { time(ofFrame: ($0 * 13) % 60) + .milliseconds(Int64($0)) }
        player.requestThumbnailImages(at: times, timeOption: .exact)
        try await recorder.waitUntil("three thumbnails") { self.thumbnails(in: $0).count >= 3 }
        player.cancelAllThumbnailImageRequests()
        try await recorder.waitUntil("fifty thumbnails", within: .seconds(5)) { self.thumbnails(in: $0).count >= 50 }
        let results = thumbnails(in: recorder.events)
        #expect(results.count == 50)
        #expect(results.map(\.requestedTime).sorted() == times.sorted())
        #expect(results.filter { $0.error?.code == .cancelled }.count >= 20)
        #expect(results.allSatisfy { $0.image != nil || $0.error?.code == .cancelled })
    }

    @Test("thumbnails made while the movie plays do not move its position or drop its frames")
    func whilePlaying() async throws {
        let frames = FrameRecorder()
        let player = try await MoviePlayer.recording(frames, clip: TestMedia.longBars)
        let recorder = EventRecorder(player)
        try await player.play()
        try await frames.waitForFrames(10)
        let clock = ContinuousClock()
        let start = clock.now
        let positionBefore = player.currentPlaybackTime
        player.requestThumbnailImages(at: (0..<40).map { .milliseconds(Int64($0) * 1400) }, timeOption: .exact)
        try await recorder.waitUntil("forty thumbnails", within: .seconds(30)) { self.thumbnails(in: $0).count == 40 }
        let elapsed = clock.now - start
        let positionAfter = player.currentPlaybackTime
        #expect(thumbnails(in: recorder.events).allSatisfy { $0.image != nil })
        // The position moved on with the clock (no seek, no pause), give or take a busy machine.
        let advance = positionAfter - positionBefore
        #expect(abs((advance - elapsed).inSeconds) < 0.5, "advanced \(advance) in \(elapsed)")
        #expect(player.playbackState == .playing)
        // Every frame in order: bars scrolling 2 pixels a frame, so consecutive presentation times.
        let times = frames.records.compactMap(\.presentationTime)
        let gaps = zip(times, times.dropFirst()).filter { $1 - $0 > .milliseconds(40) || $1 <= $0 }
        #expect(gaps.isEmpty, "frames skipped or repeated: \(gaps.prefix(3))")
        #expect(!recorder.events.contains { if case .seekCompleted = $0 { true } else { false } })
        player.stop()
        await player.shutdown()
    }

    @Test("the synchronous call, from an ordinary thread: an image for a good time, nil for a bad one")
    func synchronous() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: NullVideoSink())
        let (good, negative, keyframe) = try await OwnThread.run {
            (
                player.thumbnailImage(at: .milliseconds(700), timeOption: .exact),
                player.thumbnailImage(at: .milliseconds(-700), timeOption: .exact),
                player.thumbnailImage(at: .milliseconds(700), timeOption: .nearestKeyFrame)
            )
        }
        #expect(good.flatMap(FrameNumber.read) == 21)
        #expect(negative == nil)
        #expect(keyframe.flatMap(FrameNumber.read) == 20)
        let audioOnly = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.audioOnly)), videoSink: NullVideoSink())
        let none = try await OwnThread.run { audioOnly.thumbnailImage(at: .zero, timeOption: .exact) }
        #expect(none == nil)
    }

    @Test("on one of the engine's own threads the synchronous call returns nil at once instead of waiting")
    func engineThread() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: NullVideoSink())
        let image = try await OwnThread.run {
            // What the engine's thumbnail threads are called, set as the engine sets it
            // (Foundation's Thread.name may apply only after the closure has started running).
            me_name_current_thread("me-thumbs")
            return player.thumbnailImage(at: .milliseconds(100), timeOption: .exact)
        }
        #expect(image == nil)
    }
}
