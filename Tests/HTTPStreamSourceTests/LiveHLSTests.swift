import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// A live HLS stream: a playlist without `EXT-X-ENDLIST` that the test rewrites while the player
/// runs (a sliding window of two-second segments), served by nginx.
@Suite("Live HLS")
struct LiveHLSTests {
    @Test("a live stream has no duration, starts near the live edge, and follows its playlist as it slides")
    func livePlaylist() async throws {
        let folder = try await AdaptiveStreamMedia.liveSegmentsFolder(
            with: ["live.m3u8": AdaptiveStreamMedia.livePlaylist(0..<6)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("live.m3u8")
        let server = try await LoopbackHTTPServer(serving: folder)
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("live.m3u8")),
            videoSink: frames.sink(format: .rgba, size: VideoSize(width: 320, height: 240)), audioOutput: .discard)
        let recorder = EventRecorder(player)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }

        // Six segments (12 s) listed: the demuxer starts near the live edge (segment 2, at 4 s:
        // hlsdemux keeps three target durations before the last segment's end), not at the oldest.
        let first = try #require(frames.records.first?.presentationTime)
        #expect(first >= .seconds(4) && first < .seconds(6), "started at \(first)")
        #expect(player.duration == nil)
        #expect(player.isLiveStream)
        #expect(player.movieSourceType == .streaming)
        let window = try #require(player.seekableRange)
        #expect(window.contains(player.currentPlaybackTime), "\(window) \(player.currentPlaybackTime)")

        // The playlist slides while the stream plays (two segments more, the two oldest gone);
        // the demuxer reloads it every target duration and the window follows.
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        try AdaptiveStreamMedia.livePlaylist(2..<8).write(to: playlist, atomically: true, encoding: .utf8)
        try await frames.waitUntil("the window to move", within: .seconds(6)) { _ in
            (player.seekableRange?.lowerBound ?? .zero) > window.lowerBound
        }
        let moved = try #require(player.seekableRange)
        #expect(moved.upperBound > window.upperBound, "\(window) -> \(moved)")
        // GStreamer's live window ends three target durations before the live edge (seeks never
        // go nearer than that); playback runs on towards the edge, so the position is in the
        // window or at most that far past it.
        let position = player.currentPlaybackTime
        #expect(position >= moved.lowerBound && position <= moved.upperBound + .seconds(6), "\(moved) \(position)")
        #expect(player.duration == nil)
        #expect(player.playbackState == .playing)
        #expect(!recorder.events.contains { $0.finish != nil })
        // Frames in order, none lost, from where the stream started: one frame interval apart, and
        // each readable number (frames 1-9 of every 80, scaled up from 160 pixels, blur the bars'
        // seam at the edge) one more than the frame before's.
        let records = frames.records
        let steps = zip(records, records.dropFirst()).compactMap { pair -> Duration? in
            guard let a = pair.0.presentationTime, let b = pair.1.presentationTime else { return nil }
            return b - a
        }
        #expect(steps.count == records.count - 1)
        #expect(steps.allSatisfy { $0.isClose(to: .nanoseconds(33_333_333), within: .milliseconds(3)) }, "\(steps)")
        let start = try #require(records.first?.number)
        let misread = records.enumerated().filter { index, record in
            record.number.map { $0 != (start + index) % 80 } ?? false
        }
        #expect(misread.isEmpty, "\(misread.prefix(5))")
        player.stop()
        _ = server
    }
}
