import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// A live DASH stream: a dynamic manifest whose segments become available with the wall clock
/// (`availabilityStartTime`), over ``AdaptiveStreamMedia/liveSegments()`` served by nginx.
@Suite("Live DASH")
struct LiveDASHTests {
    /// A dynamic MPD of the live segments (2 s each, numbered from 0) that began `age` ago.
    static func liveManifest(startedAgo age: Duration) -> String {
        let formatter = ISO8601DateFormatter()
        let start = formatter.string(from: Date().addingTimeInterval(-age.inSeconds))
        return """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" \
            type="dynamic" availabilityStartTime="\(start)" publishTime="\(start)" minimumUpdatePeriod="PT2S" \
            timeShiftBufferDepth="PT10S" suggestedPresentationDelay="PT4S" minBufferTime="PT2S">
            <Period id="p0" start="PT0S"><AdaptationSet id="1" contentType="video" mimeType="video/mp2t">
            <Representation id="v" bandwidth="200000" width="160" height="120" codecs="avc1">
            <SegmentTemplate media="seg$Number%03d$.ts" startNumber="0" duration="2" timescale="1"/>
            </Representation></AdaptationSet></Period></MPD>

            """
    }

    @Test("a live DASH stream has no duration, starts near the live edge, and plays on in real time")
    func livePlays() async throws {
        // 13 s since the stream began: the live edge is at 13 s, the oldest segment kept (10 s of
        // time shift) starts at 2 s; a player starts the suggested 4 s before the edge.
        let written = ContinuousClock.now
        let folder = try await AdaptiveStreamMedia.liveSegmentsFolder(
            with: ["live.mpd": Self.liveManifest(startedAgo: .seconds(13))])
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await LoopbackHTTPServer(serving: folder)
        let frames = FrameRecorder()
        let player = MoviePlayer(
            source: try HTTPStreamSource(string: server.url("live.mpd")),
            videoSink: frames.sink(format: .rgba, size: VideoSize(width: 160, height: 120)), audioOutput: .discard)
        let recorder = EventRecorder(player)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        let first = try #require(frames.records.first?.presentationTime)
        // The edge moves on with the wall clock while a busy machine serves and prepares.
        let edge = .seconds(13) + (ContinuousClock.now - written)
        #expect(first >= .seconds(6) && first <= edge, "started at \(first), the edge at \(edge)")
        #expect(player.duration == nil)
        #expect(player.isLiveStream)
        #expect(player.movieSourceType == .streaming)
        let window = try #require(player.seekableRange)
        #expect(window.lowerBound < first && first <= window.upperBound + .seconds(6), "\(window) \(first)")

        // Played for 2 s of wall time, the stream moves on by as much, in order, and keeps going.
        try await withDeadline(.seconds(10), "play()") { try await player.play() }
        let startedAt = player.currentPlaybackTime
        try await Task.sleep(for: .seconds(2))
        let advanced = player.currentPlaybackTime - startedAt
        #expect(advanced > .milliseconds(1500) && advanced < .milliseconds(2600), "\(advanced)")
        #expect(player.playbackState == .playing)
        #expect(!recorder.events.contains { $0.finish != nil })
        let records = frames.records
        let steps = zip(records, records.dropFirst()).compactMap { pair -> Duration? in
            guard let a = pair.0.presentationTime, let b = pair.1.presentationTime else { return nil }
            return b - a
        }
        #expect(steps.allSatisfy { $0.isClose(to: .nanoseconds(33_333_333), within: .milliseconds(3)) })
        player.stop()
        _ = server
    }
}
