import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// Playlists that do not lead to a movie: each a typed error, a finish event with it, within a
/// bounded time, with no crash or hang. One test at a time, beside the suite's timing tests.
@Suite("Bad playlists", .serialized)
struct PlaylistBadInputTests {
    /// Media playlists over `segments` (names in the served folder), with or without an end.
    static func playlist(_ segments: [String]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2"]
        for segment in segments { lines += ["#EXTINF:2.0,", segment] }
        return (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n")
    }

    /// A folder served by nginx with the mid variant's segments and the given files.
    static func served(_ files: [String: Data]) async throws -> (LoopbackHTTPServer, URL) {
        let variants = try await AdaptiveStreamMedia.hlsVariants()
        let folder = try TestMedia.scratchDirectory()
        for index in 0..<3 {
            let name = String(format: "mid%03d.ts", index)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: variants.appendingPathComponent(name))
        }
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        return (try await LoopbackHTTPServer(serving: folder), folder)
    }

    /// Prepares `name` and returns the error it failed with, having checked the finish event.
    static func failure(of name: String, on server: LoopbackHTTPServer, frames: FrameRecorder? = nil) async throws
        -> MediaError?
    {
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url(name)),
            videoSink: frames?.sink(synchronized: false) ?? NullVideoSink(), audioOutput: .discard)
        let recorder = EventRecorder(player)
        let clock = ContinuousClock()
        let start = clock.now
        // play(): a failure during playback (a segment missing in the middle) counts too.
        try? await withDeadline(.seconds(10), "play() of \(name)") { try await player.play() }
        let (reason, error) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackError, "\(name)")
        #expect(clock.now - start < .seconds(10).scaled, "\(name) took \(clock.now - start)")
        #expect(player.playbackState == .stopped)
        return error
    }

    @Test("an empty, malformed, HTML or garbage-segment playlist is invalidPlaylist")
    func invalidPlaylists() async throws {
        let garbage = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let (server, folder) = try await Self.served([
            "empty.m3u8": Data(),
            "malformed.m3u8": Data("#EXTM3U\n#EXT-X-TARGETDURATION:abc\n#EXTINF:xyz\n\n#EXT-X-ENDLIST\n".utf8),
            "html.m3u8": Data(
                "<!DOCTYPE html><html><head><title>Sign in</title></head><body>Sign in</body></html>\n".utf8),
            "garbage.m3u8": Data(Self.playlist(["garbage0.ts", "garbage1.ts"]).utf8),
            "garbage0.ts": garbage, "garbage1.ts": garbage,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withThrowingTaskGroup(of: (String, MediaError?).self) { group in
            for name in ["empty.m3u8", "malformed.m3u8", "html.m3u8", "garbage.m3u8"] {
                group.addTask { (name, try await Self.failure(of: name, on: server)) }
            }
            for try await (name, error) in group {
                #expect(error?.code == .invalidPlaylist, "\(name): \(String(describing: error))")
                #expect(error?.httpStatusCode == nil, "\(name)")
            }
        }
    }

    @Test("a missing playlist, or one whose segments are all missing, is fileNotFound with status 404")
    func missing() async throws {
        let (server, folder) = try await Self.served([
            "gone.m3u8": Data(Self.playlist(["gone0.ts", "gone1.ts"]).utf8)
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["nothere.m3u8", "gone.m3u8"] {
            let error = try await Self.failure(of: name, on: server)
            #expect(error?.code == .fileNotFound, "\(name): \(String(describing: error))")
            #expect(error?.httpStatusCode == 404, "\(name)")
        }
    }

    @Test("a segment missing in the middle stops the stream there, with fileNotFound and its status")
    func holeInTheMiddle() async throws {
        let (server, folder) = try await Self.served([
            "hole.m3u8": Data(Self.playlist(["mid000.ts", "hole.ts", "mid002.ts"]).utf8)
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = FrameRecorder()
        let error = try await Self.failure(of: "hole.m3u8", on: server, frames: frames)
        #expect(error?.code == .fileNotFound, "\(String(describing: error))")
        #expect(error?.httpStatusCode == 404)
        #expect(error?.message.contains("hole.ts") == true, "\(String(describing: error?.message))")
        // The first segment played (but for the frames still queued when the error came: on a busy
        // machine, many); nothing after the hole did.
        let numbers = frames.records.compactMap(\.number)
        #expect(!numbers.isEmpty && numbers == Array(0..<numbers.count) && numbers.count <= 60, "\(frames.records)")
    }
}
