import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
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

    @Test("the NotificationCenter mirror does not keep a released player alive, even one let go of while it posts")
    func notificationsDoNotExtendLifetime() async throws {
        // The owner's only reference is in `owner`; an observer drops it from inside the mirror's
        // post. The player must then go (its event streams end, which only its release does)
        // once that post returns: the mirror holds it weakly, and strongly only for the post
        // itself, where the notification's `object` is the player.
        let owner = Locked<MoviePlayer?>(nil)
        let events: PlayerEvents
        let observer: any NSObjectProtocol
        do {
            let player = MoviePlayer(
                source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink())
            events = player.events
            owner.withLock { $0 = player }
            // `object: nil`: an observer registered for one object keeps that object alive.
            observer = NotificationCenter.default.addObserver(
                forName: .moviePlayerScalingModeDidChange, object: nil, queue: nil
            ) { _ in
                owner.withLock { $0 = nil }
            }
            player.scalingMode = .fill
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let seen = try await withDeadline(.seconds(5), "the released player's event stream to end") {
            var collected: [PlayerEvent] = []
            for await event in events { collected.append(event) }
            return collected
        }
        #expect(seen.first == .scalingModeChanged(.fill), "\(seen)")
        #expect(owner.withLock { $0 == nil })
    }

    @Test("notifications mirror MPMoviePlayerController's, with the player as object and the finish reason")
    func notifications() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)),
            videoSink: NullVideoSink(synchronized: false))
        let received = Locked<[(Notification.Name, FinishReason?)]>([])
        let finished = AsyncStream<Void>.makeStream()
        let names: [Notification.Name] = [
            .moviePlayerPlaybackStateDidChange, .moviePlayerPlaybackDidFinish, .movieDurationAvailable,
            .movieNaturalSizeAvailable, .movieMediaTypesAvailable, .movieSourceTypeAvailable,
            .moviePlayerReadyForDisplayDidChange, .moviePlayerLoadStateDidChange,
            .mediaPlaybackIsPreparedToPlayDidChange,
        ]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: player, queue: nil) { note in
                let reason = note.finishReason
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

    @Test("a subscriber that does not read keeps the newest 1024 events, in order, and loses the older ones")
    func slowSubscriberKeepsTheNewest() async throws {
        #expect(PlayerEvents.bufferLimit == 1024)
        // Scaling-mode changes are announced without loading anything: 3000 cheap events.
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink())
        let total = 3000
        let slow = player.events
        var late: PlayerEvents?
        for index in 0..<(total - 1) {
            // The second subscription starts exactly 1024 events before the end: it misses nothing.
            if index == total - PlayerEvents.bufferLimit { late = player.events }
            player.scalingMode = index.isMultiple(of: 2) ? .fill : .aspectFill
        }
        player.scalingMode = .none  // the last event, 3000th
        func read(_ events: PlayerEvents) async throws -> [PlayerEvent] {
            try await withDeadline(.seconds(5), "the last scaling-mode event") {
                var seen: [PlayerEvent] = []
                for await event in events {
                    seen.append(event)
                    if event == .scalingModeChanged(.none) { break }
                }
                return seen
            }
        }
        let kept = try await read(slow)
        let complete = try await read(try #require(late))
        #expect(complete.count == PlayerEvents.bufferLimit)
        #expect(kept == complete)
        // Event 1976 (counting from 0) is the oldest kept: an even index, so `.fill`.
        #expect(kept.first == .scalingModeChanged(.fill))
        #expect(
            kept.dropLast().allSatisfy { $0 == .scalingModeChanged(.fill) || $0 == .scalingModeChanged(.aspectFill) })
    }
}
