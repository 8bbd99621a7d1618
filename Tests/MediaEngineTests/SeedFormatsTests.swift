import FileSource
import Foundation
import MediaTestSupport
import Synchronization
import Testing

@testable import MediaEngineCore

/// The formats MPMoviePlayerController names (H.264, MPEG-4 Part 2, AAC, MP3 in .mov, .mp4,
/// .mpv, .3gp and audio files), each made in test setup, prepared and played to its end: the
/// media types, duration and size it reports, and every frame.
@Suite("The seed's formats")
struct SeedFormatsTests {
    struct Format: Sendable, CustomTestStringConvertible {
        let name: String
        let clip: TestMedia.Clip
        let types: MovieMediaTypes
        /// nil: the container states none (an elementary stream).
        let duration: Duration?
        let size: VideoSize
        let frames: Int
        var testDescription: String { name }
    }

    static let formats: [Format] = [
        Format(
            name: "MPEG-4 Part 2 and AAC in .mp4", clip: TestMedia.mpeg4Part2, types: [.video, .audio],
            duration: .seconds(2), size: VideoSize(width: 320, height: 240), frames: 30),
        Format(
            name: "MPEG-4 Part 2 and AAC in .3gp", clip: TestMedia.mpeg4Part2ThreeGPP, types: [.video, .audio],
            duration: .seconds(2), size: VideoSize(width: 176, height: 144), frames: 30),
        Format(
            name: "MPEG-2 video in .mpv", clip: TestMedia.mpeg2Elementary, types: [.video], duration: nil,
            size: VideoSize(width: 320, height: 240), frames: 50),
        Format(
            name: "H.264 and AAC in .mov", clip: TestMedia.quickTimeMovie, types: [.video, .audio],
            duration: .seconds(2), size: VideoSize(width: 320, height: 240), frames: 60),
        Format(
            name: "MP3 in .mp3", clip: TestMedia.mp3Tone, types: [.audio], duration: .seconds(2), size: .zero, frames: 0
        ),
        Format(
            name: "AAC in .m4a", clip: TestMedia.m4aTone, types: [.audio], duration: .seconds(2), size: .zero, frames: 0
        ),
    ]

    @Test("each probes and plays to its end with its media types, duration, size and every frame", arguments: formats)
    func plays(_ format: Format) async throws {
        let url = try await TestMedia.url(for: format.clip)
        let frames = Atomic<Int>(0)
        let player = MoviePlayer(
            contentURL: url,
            videoSink: FrameSink(dropsLateFrames: false) { _ in frames.add(1, ordering: .relaxed) },
            registry: .shared)
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        try await withShutdown(of: player) {
            try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
            #expect(player.source is FileSource)
            #expect(player.movieMediaTypes == format.types)
            #expect(player.naturalSize == format.size)
            if let expected = format.duration {
                let duration = try #require(player.duration)
                #expect(abs((duration - expected).inSeconds) < 0.1, "\(duration)")
            } else {
                #expect(player.duration == nil, "an elementary stream states no duration")
            }
            try await player.play()
            let (reason, error) = try await recorder.waitForFinish()
            #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
            #expect(frames.load(ordering: .relaxed) == format.frames)
        }
    }
}
