import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The thumbnail generator on clips whose frames carry their numbers in their pixels.
@Suite("Thumbnail generator")
struct ThumbnailGeneratorTests {
    /// The time of frame `n` of a 30 fps clip, plus `offset` milliseconds.
    private func time(ofFrame n: Int, plus offset: Int = 0) -> Duration {
        .nanoseconds(Int64(n) * 1_000_000_000 / 30) + .milliseconds(offset)
    }

    private func generator(_ clip: TestMedia.Clip, maximumSize: VideoSize? = nil) async throws -> ThumbnailGenerator {
        ThumbnailGenerator(source: FileSource(url: try await TestMedia.url(for: clip)), maximumSize: maximumSize)
    }

    @Test("an exact thumbnail shows the frame on screen at the time asked for", arguments: [0, 1, 9, 10, 17, 33, 59])
    func exactFrame(frame: Int) async throws {
        let generator = try await generator(TestMedia.numbered)
        for offset in [0, 20] {
            let image = try await generator.image(at: time(ofFrame: frame, plus: offset), option: .exact)
            #expect(FrameNumber.read(image) == frame, "frame \(frame) + \(offset) ms")
            #expect(image.presentationTime == time(ofFrame: frame), "frame \(frame) + \(offset) ms")
            #expect(image.format == .rgba && image.width == 320 && image.height == 240)
        }
        await generator.shutdown()
    }

    @Test("a keyframe thumbnail shows the keyframe at or before the time, and its time", arguments: [0, 9, 10, 27, 59])
    func keyframe(frame: Int) async throws {
        let generator = try await generator(TestMedia.numbered)
        let image = try await generator.image(at: time(ofFrame: frame, plus: 5), option: .nearestKeyFrame)
        let keyframe = frame / 10 * 10  // the clip has a keyframe every 10 frames
        #expect(FrameNumber.read(image) == keyframe)
        #expect(image.presentationTime == time(ofFrame: keyframe))
        await generator.shutdown()
    }

    @Test("with sound in the file, a keyframe thumbnail still lands on the video keyframe")
    func keyframeWithAudio() async throws {
        let generator = try await generator(TestMedia.numberedWithAudio)
        for frame in [15, 27, 44] {
            let image = try await generator.image(at: time(ofFrame: frame, plus: 5), option: .nearestKeyFrame)
            #expect(FrameNumber.read(image) == frame / 10 * 10, "frame \(frame)")
            #expect(image.presentationTime == time(ofFrame: frame / 10 * 10), "frame \(frame)")
        }
        await generator.shutdown()
    }
}
