import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Synchronization
import Testing

@Suite("Events")
struct EventTests {
    @Test("every subscriber sees the same events in the same order")
    func severalSubscribers() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)),
            videoSink: NullVideoSink(synchronized: false))
        let recorders = [EventRecorder(player), EventRecorder(player), EventRecorder(player)]
        try await player.play()
        for recorder in recorders { _ = try await recorder.waitForFinish() }
        #expect(recorders[0].events.count >= 10)
        #expect(recorders[1].events == recorders[0].events)
        #expect(recorders[2].events == recorders[0].events)
    }

    @Test("a subscription made later sees only later events; the stream ends with the player")
    func lateSubscriptionEnds() async throws {
        var player: MoviePlayer? = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink())
        player!.shouldAutoplay = false
        try await player!.prepareToPlay()
        let events = player!.events
        player!.stop()
        player = nil
        let seen = try await withDeadline(.seconds(5), "the event stream's end") {
            var collected: [PlayerEvent] = []
            for await event in events { collected.append(event) }
            return collected
        }
        #expect(
            seen == [
                .readyForDisplayChanged(false), .preparedToPlayChanged(false), .loadStateChanged(.unknown),
                .playbackDidFinish(.userExited, nil),
            ])
    }

    @Test("notifications mirror MPMoviePlayerController's, with the player as object and the finish reason")
    func notifications() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)),
            videoSink: NullVideoSink(synchronized: false))
        let received = Mutex<[(Notification.Name, FinishReason?)]>([])
        let finished = AsyncStream<Void>.makeStream()
        let names: [Notification.Name] = [
            .moviePlayerPlaybackStateDidChange, .moviePlayerPlaybackDidFinish, .movieDurationAvailable,
            .movieNaturalSizeAvailable, .movieMediaTypesAvailable, .movieSourceTypeAvailable,
            .moviePlayerReadyForDisplayDidChange, .moviePlayerLoadStateDidChange,
            .mediaPlaybackIsPreparedToPlayDidChange,
        ]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: player, queue: nil) { note in
                let reason = note.userInfo?[MoviePlayer.finishReasonUserInfoKey] as? FinishReason
                received.withLock { $0.append((note.name, reason)) }
                if note.name == .moviePlayerPlaybackDidFinish { finished.continuation.finish() }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try await player.play()
        try await withDeadline(.seconds(10), "the finish notification") {
            for await _ in finished.stream {}
        }
        let seen = received.withLock { $0 }
        #expect(Set(seen.map(\.0.rawValue)) == Set(names.map(\.rawValue)))
        #expect(seen.last?.0 == .moviePlayerPlaybackDidFinish)
        #expect(seen.last?.1 == .playbackEnded)
    }
}
