import FileSource
import MediaEngine
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// Overlays blended into the decoder's own picture once the decoder has let it go (a B-picture
/// nothing refers to, a reference that later pictures have replaced), instead of into a copy.
/// Writing into a picture the decoder still reads would put the overlay into the pictures
/// predicted from it: here every frame of a movie with B-frames is compared with the same frame
/// without the overlay, sample by sample.
@Suite("Overlays blended into pictures the decoder let go")
struct OverlayInPlaceTests {
    /// A bitmap at a place, as in the sample-by-sample blend tests.
    typealias Picture = OverlayBlendExactnessTests.Picture

    /// Copies of every frame delivered, in order.
    final class Frames: Sendable {
        let images = Locked<[VideoImage]>([])
    }

    /// The frames of the ball with B-frames (45), as fast as they decode, and the scaler's counts
    /// of read-only frames copied and claimed.
    static func play(overlay: Picture?) async throws -> (frames: [VideoImage], copied: Int, claimed: Int) {
        let frames = Frames()
        let sink = FrameSink(format: .i420, synchronized: false) { frame in
            let image = frame.makeImage()
            frames.images.withLock { $0.append(image) }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.ballWithBFrames)), videoSink: sink,
            audioOutput: .discard)
        if let overlay { player.overlays.add(overlay) }
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded, "\(String(describing: error))")
        let scaler = player.core.state.withLock { $0.session?.videoOutput.scaler }
        let counts = (scaler?.int("frames-copied") ?? -1, scaler?.int("frames-claimed") ?? -1)
        await player.shutdown()
        return (frames.images.withLock { $0 }, counts.0, counts.1)
    }

    @Test("every frame is the movie's outside the overlay and the blend's inside it, copied or claimed")
    func inPlace() async throws {
        // Over the black the ball crosses: blocks there are predicted from the same place in the
        // reference, so a reference written into would show the overlay twice in later frames.
        let (x, y, width, height) = (40, 30, 90, 60)
        let color = RGBAColor(red: 255, green: 128, blue: 0)
        let overlay = Picture(
            bitmap: try OverlayBitmap(width: width, height: height, color: color),
            placement: .absolute(x: x, y: y), opacity: 0.6, zOrder: 0)
        let movie = try await Self.play(overlay: nil)
        let blended = try await Self.play(overlay: overlay)
        #expect(movie.frames.count == 45 && blended.frames.count == 45)
        let covers = { (plane: Int, column: Int, row: Int) -> Bool in
            let scale = plane == 0 ? 1 : 2
            return (x / scale..<(x + width) / scale).contains(column)
                && (y / scale..<(y + height) / scale).contains(row)
        }
        // Black, limited range: where the movie is black, the blend is the same in every frame.
        let black = [16, 128, 128]
        // The blend over black, from the first frame where a covered sample is black.
        var overBlack: [Int?] = [nil, nil, nil]
        let (plain0, over0) = (movie.frames[0], blended.frames[0])
        for plane in 0..<3 {
            let rows = plane == 0 ? plain0.height : (plain0.height + 1) / 2
            let columns = plane == 0 ? plain0.width : (plain0.width + 1) / 2
            search: for row in 0..<rows {
                for column in 0..<columns where covers(plane, column, row) {
                    if Int(plain0.planes[plane][row * plain0.strides[plane] + column]) == black[plane] {
                        overBlack[plane] = Int(over0.planes[plane][row * over0.strides[plane] + column])
                        break search
                    }
                }
            }
        }
        #expect(overBlack.allSatisfy { $0 != nil }, "no black under the overlay in the first frame")
        var mismatches: [String] = []
        var outside = 0
        var insideOverBlack = 0
        for (index, (plain, over)) in zip(movie.frames, blended.frames).enumerated() {
            for plane in 0..<3 {
                let rows = plane == 0 ? plain.height : (plain.height + 1) / 2
                let columns = plane == 0 ? plain.width : (plain.width + 1) / 2
                for row in 0..<rows {
                    for column in 0..<columns {
                        let want = Int(plain.planes[plane][row * plain.strides[plane] + column])
                        let got = Int(over.planes[plane][row * over.strides[plane] + column])
                        if !covers(plane, column, row) {
                            outside += 1
                            if got != want && mismatches.count < 20 {
                                mismatches.append(
                                    "frame \(index) plane \(plane) (\(column), \(row)) outside: \(got), the movie's \(want)"
                                )
                            }
                        } else if want == black[plane], let expected = overBlack[plane] {
                            // Blended twice (into a reference, then again) would differ.
                            insideOverBlack += 1
                            if abs(got - expected) > 1 && mismatches.count < 20 {
                                mismatches.append(
                                    "frame \(index) plane \(plane) (\(column), \(row)): \(got), not \(expected)")
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(insideOverBlack > 45 * 1000 && outside > 0, "\(insideOverBlack) samples over black")
        // The overlay is there, and it is not the movie's black.
        let first = blended.frames[0]
        #expect(
            first.color(atX: x + width / 2, y: y + height / 2).isClose(
                to: RGBAColor(red: 153, green: 77, blue: 0), tolerance: 30))
        // Every frame either copied or claimed. How many are claimed depends on libav's frame
        // threads' timing: 14 to 30 of 45 on an idle machine or with one core busy, 2 to 4 in
        // make stress (the whole suite beside it). The rules themselves: ReleasedPictureTests.
        #expect(blended.copied + blended.claimed == 45, "copied \(blended.copied), claimed \(blended.claimed)")
        #expect(movie.copied == 0 && movie.claimed == 0, "without overlays the scaler passes frames through")
    }
}
