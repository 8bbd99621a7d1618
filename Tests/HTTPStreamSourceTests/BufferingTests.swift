import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Load state, stalls, playable duration and the download-to-file option, against nginx sending
/// slower than the movie plays.
@Suite("Buffering")
struct BufferingTests {
    /// A 4-second, 2 Mbit/s movie (`movie.mp4`) served at `bytesPerSecond`.
    static func heavyMovie(bytesPerSecond: Int?) async throws -> (LoopbackHTTPServer, URL) {
        let folder = try TestMedia.scratchDirectory()
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.heavyNumbered), to: folder.appendingPathComponent("movie.mp4"))
        return (try await LoopbackHTTPServer(serving: folder, bytesPerSecond: bytesPerSecond), folder)
    }

    /// The stalls among `events`: a playback state of `playing`, then `interrupted`.
    static func stalls(in events: [PlayerEvent]) -> Int {
        let states = events.compactMap(\.playbackState)
        return zip(states, states.dropFirst()).filter { $0 == .playing && $1 == .interrupted }.count
    }

    @Test("a stream whose data stops arriving stalls and recovers; each stall is counted, no frame is lost")
    func stallsAreReportedAndRecovered() async throws {
        // The first 40 % of the 4-second movie arrives, then nothing until the player says it
        // stalled, then the rest. (A throttled server made a stall only if playback started
        // early enough: on a busy machine the preparation took long enough to buffer the rest.)
        let movie = try await TestMedia.url(for: TestMedia.heavyNumbered)
        let size = try FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int ?? 0
        let server = try FaultInjectingServer(
            serving: movie, fault: .holdThenContinue(bytes: size * 2 / 5), faultLimit: 1)
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url()), videoSink: frames.sink(), audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(20), "play()") { try await player.play() }
        try await recorder.waitUntil("a stall", within: .seconds(20)) { Self.stalls(in: $0) > 0 }
        // Nothing arrives while the response is held: the buffer's level says how far the wait has got.
        let level = player.bufferingPercent
        #expect(level.map { (0..<100).contains($0) } == true, "\(String(describing: level))")
        server.releaseHeldResponses()
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(20))
        #expect(reason == .playbackEnded && error == nil, "\(recorder.events)")
        let stalls = Self.stalls(in: recorder.events)
        #expect(stalls >= 1, "\(recorder.events)")
        #expect(recorder.events.contains(.loadStateChanged([.playable, .stalled])))
        let log = player.accessLog
        #expect(log.events.count == 1)
        #expect(log.events.first?.numberOfStalls == stalls)
        // Every frame of the 4-second movie, in order, once: a stall loses no position.
        let times = frames.records.compactMap(\.presentationTime)
        #expect(times.count == 120, "\(times.count) frames")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(server.requests.count == 1, "one request: the stall was waited out, not retried")
        #expect(player.bufferingPercent == nil, "the whole movie arrived")
    }

    @Test("the access log of a finished download: address, bytes, watched time, bitrates, requests")
    func accessLog() async throws {
        let (server, folder) = try await Self.heavyMovie(bytesPerSecond: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let size =
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("movie.mp4").path)[
                .size] as? Int ?? 0
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("movie.mp4")), videoSink: NullVideoSink(),
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        _ = try await recorder.waitForFinish(within: .seconds(15))
        #expect(player.loadState == [.playable, .playthroughOK])
        #expect(player.playableDuration == player.duration)
        let entry = try #require(player.accessLog.events.first)
        #expect(entry.uri == server.url("movie.mp4"))
        #expect(entry.serverAddress == "127.0.0.1")
        #expect(entry.bytesTransferred == size)
        #expect(entry.numberOfMediaRequests >= 1)
        #expect(entry.numberOfStalls == 0)
        #expect(entry.playbackStartDate != nil)
        #expect(entry.durationWatched > .seconds(3) && entry.durationWatched < .seconds(8), "\(entry.durationWatched)")
        let indicated = try #require(entry.indicatedBitrate)
        #expect(abs(indicated - Double(size) * 8 / 4) < Double(size) * 8 / 4 * 0.05, "\(indicated)")
        #expect((entry.observedBitrate ?? 0) > indicated, "loopback is faster than the movie")
        #expect(player.errorLog.events.isEmpty)
        #expect(recorder.events.contains(.accessLogChanged))
        let text = player.accessLog.extendedLogFileFormat
        #expect(text.contains("\t127.0.0.1\t\"\(server.url("movie.mp4"))\"\t"))
        _ = server
    }

    @Test("in download mode the playable duration grows as the file arrives, and the file is removed after")
    func downloadToCacheFile() async throws {
        // About 1 MB at 150 kB/s: some seconds to arrive whole.
        let (server, folder) = try await Self.heavyMovie(bytesPerSecond: 150_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        // queue2 downloads into GLib's user cache folder (XDG_CACHE_HOME, else ~/.cache).
        let cache =
            ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
        func cacheFiles() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []) }
        let before = cacheFiles()
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("movie.mp4")), videoSink: NullVideoSink(),
            audioOutput: .discard)
        player.bufferingPolicy = BufferingPolicy(downloadsToCacheFile: true)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        let early = player.playableDuration
        let duration = try #require(player.duration)
        #expect(early < duration, "\(early) of \(duration) playable at once")
        let downloading = cacheFiles().subtracting(before)
        #expect(downloading.count == 1, "the download's file: \(downloading)")
        // No event announces the playable duration (MPMoviePlayerController has none either): poll.
        try await withDeadline(.seconds(10), "half a second more") {
            while player.playableDuration < early + .milliseconds(500) { try await Task.sleep(for: .milliseconds(50)) }
        }
        player.stop()
        await player.shutdown()
        #expect(cacheFiles().isDisjoint(with: downloading), "the download's file is removed")
        _ = server
    }

    /// Where playback was, and how far it could play.
    struct Sample: Sendable, CustomStringConvertible {
        let position: Duration
        let playable: Duration
        var description: String { "\(position.inSeconds)/\(playable.inSeconds)" }
    }

    @Test("with the default buffering, a progressive MP4's playable duration grows ahead of the position as it arrives")
    func playableDurationGrows() async throws {
        // About 1 MB at 200 kB/s: five seconds to arrive whole, a little slower than it plays.
        let (server, folder) = try await Self.heavyMovie(bytesPerSecond: 200_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("movie.mp4")), videoSink: NullVideoSink(),
            audioOutput: .discard)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        let duration = try #require(player.duration)
        // Paused at the start, the download goes on: what can play grows, the position does not.
        let first = player.playableDuration
        #expect(first > .zero && first < duration, "\(first) of \(duration) at once")
        let seen = try await withDeadline(.seconds(10), "a second more") {
            var seen = [first]
            while seen.last! < first + .seconds(1) {
                try await Task.sleep(for: .milliseconds(100))
                seen.append(player.playableDuration)
            }
            return seen
        }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "never back: \(seen)")
        #expect(player.currentPlaybackTime == .zero)
        // Playing, it stays ahead of the position and reaches the duration once the file is in.
        try await player.play()
        let samples = try await withDeadline(.seconds(15), "the whole movie") {
            var samples: [Sample] = []
            while samples.last?.playable != duration {
                try await Task.sleep(for: .milliseconds(100))
                samples.append(Sample(position: player.currentPlaybackTime, playable: player.playableDuration))
            }
            return samples
        }
        #expect(samples.allSatisfy { $0.playable >= $0.position }, "\(samples)")
        #expect(samples.contains { $0.playable > $0.position + .milliseconds(500) }, "ahead: \(samples)")
        await player.shutdown()
        _ = server
    }

    @Test("a 404 adds an error-log entry with its status and an event")
    func errorLog() async throws {
        let (server, folder) = try await Self.heavyMovie(bytesPerSecond: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("nothing.mp4")), videoSink: NullVideoSink(),
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        await #expect(throws: MediaError.self) {
            try await withDeadline(.seconds(5), "prepareToPlay()") { try await player.prepareToPlay() }
        }
        let entries = player.errorLog.events
        #expect(entries.count == 1)
        #expect(entries.first?.statusCode == 404 && entries.first?.uri == server.url("nothing.mp4"))
        #expect(recorder.events.contains { if case .errorLogEntryAdded = $0 { true } else { false } })
        _ = server
    }
}
