import FileSource
import Foundation
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// What a window shows for a movie without video: the background (colour or image) and, in its
/// middle, a speaker that says the movie is sound, on a virtual X server, by screenshots.
@Suite("Sound-only indicator", .serialized)
struct SoundOnlyIndicatorTests {
    /// Five seconds of a tone, AAC in MP4: an audio-only movie as a phone or a shop gives one.
    static let toneM4A = TestMedia.Clip(
        fileExtension: "m4a",
        pipeline: """
            audiotestsrc num-buffers=216 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! \
            mp4mux ! filesink location=LOCATION
            """)

    static func brightness(_ color: RGBAColor) -> Int { (Int(color.red) + Int(color.green) + Int(color.blue)) / 3 }

    /// A point on the speaker's cone and one on the disc beside it, for a view of `size`.
    static func points(in size: VideoSize) -> (glyph: (x: Int, y: Int), disc: (x: Int, y: Int)) {
        let side = Double(SoundOnlyIndicator.side(for: size))
        let (cx, cy) = (size.width / 2, size.height / 2)
        return ((cx - Int(side * 0.045), cy), (cx, cy - Int(side * 0.4)))
    }

    /// Waits until a screenshot satisfies `condition`.
    static func waitForScreen(
        _ display: VirtualDisplay, _ what: String, _ condition: @escaping @Sendable (Screenshot) -> Bool
    ) async throws {
        try await WindowControlsTests.waitForScreen(display, what, condition)
    }

    @Test("an AAC movie in the player's window: the background colour, a white speaker on a dark disc in the middle")
    func overTheBackgroundColour() async throws {
        let display = try await VirtualDisplay()
        let player = try await WindowSinkTests.orangeWindowPlayer(Self.toneM4A, on: display)
        try await withShutdown(of: player) {
            // As a person sees it: with the controls a window of the player's own shows unasked.
            player.controlStyle = .default
            let recorder = EventRecorder(player)
            try await player.play()
            #expect(player.movieMediaTypes == [.audio])
            // The window a movie without a size opens at: 320x240.
            let size = VideoSize(width: 320, height: 240)
            let (glyph, disc) = Self.points(in: size)
            try await Self.waitForScreen(display, "the speaker") { shot in
                Self.brightness(shot.color(atX: glyph.x, y: glyph.y)) > 220
            }
            let shot = try await display.screenshot()
            try shot.pngData().write(to: URL(fileURLWithPath: "/tmp/sound-only-window.png"))
            let beside = shot.color(atX: disc.x, y: disc.y)
            #expect(
                beside.red > 110 && beside.red < 200 && beside.blue < 30 && beside.green < beside.red,
                "the disc darkens the orange: \(beside)")
            #expect(shot.color(atX: 30, y: 120).isClose(to: WindowSinkTests.orange, tolerance: 30), "the background")
            #expect(shot.color(atX: 400, y: 300).isClose(to: .black, tolerance: 10), "outside the window")
            player.stop()
            try await recorder.waitFor { $0 == .playbackDidFinish(.userExited, nil) }

            // A movie with video in the same window: no speaker over it.
            player.controlStyle = .none
            player.source = FileSource(url: try await TestMedia.url(for: TestMedia.bars))
            try await player.prepareToPlay()
            try await Self.waitForScreen(display, "the green bar in the middle") { shot in
                shot.color(atX: glyph.x, y: glyph.y).isClose(to: RGBAColor(red: 0, green: 255, blue: 0), tolerance: 60)
            }
        }
        withExtendedLifetime(display) {}
    }

    @Test("with a background image, the speaker is drawn over the picture, which fills the window")
    func overTheBackgroundImage() async throws {
        let display = try await VirtualDisplay(width: 800, height: 600)
        let player = try await WindowControlsTests.player(of: Self.toneM4A, on: display)
        try await withShutdown(of: player) {
            player.backgroundImage = try BackgroundImageTests.halves()
            let view = WindowControlsTests.window
            try await player.play()
            let (glyph, disc) = Self.points(in: view)
            try await Self.waitForScreen(display, "the speaker over the picture") { shot in
                Self.brightness(shot.color(atX: glyph.x, y: glyph.y)) > 220
                    && shot.color(atX: 60, y: 180).isClose(to: .red, tolerance: 40)
            }
            let shot = try await display.screenshot()
            try shot.pngData().write(to: URL(fileURLWithPath: "/tmp/sound-only-background-image.png"))
            #expect(shot.color(atX: 580, y: 180).isClose(to: .green, tolerance: 40), "the picture's right half")
            let onDisc = shot.color(atX: disc.x + 10, y: disc.y)
            #expect(onDisc.green > 60 && onDisc.green < 180 && onDisc.red < 40, "the disc darkens the green: \(onDisc)")
            player.stop()
        }
        withExtendedLifetime(display) {}
    }

    @Test("the speaker's picture: a dark translucent disc with a white glyph in its middle, clear at its corners")
    func picture() throws {
        let bitmap = SoundOnlyIndicator.draw(side: 100)
        func pixel(_ x: Int, _ y: Int) -> (rgb: Int, alpha: UInt8) {
            let index = (y * 100 + x) * 4
            return (
                (Int(bitmap.pixels[index]) + Int(bitmap.pixels[index + 1]) + Int(bitmap.pixels[index + 2])) / 3,
                bitmap.pixels[index + 3]
            )
        }
        #expect(pixel(1, 1).alpha == 0, "outside the disc")
        #expect(pixel(50, 10).rgb < 10 && pixel(50, 10).alpha == SoundOnlyIndicator.discColor.alpha, "the disc")
        #expect(pixel(45, 50).rgb > 240 && pixel(45, 50).alpha > 240, "the cone")
        #expect(pixel(72, 50).rgb > 240, "the outer wave")
        // Left and right of the middle alike: the glyph is centred within a few pixels.
        let columns = (0..<100).filter { x in (0..<100).contains { pixel(x, $0).rgb > 200 } }
        let (left, right) = (columns.first ?? 0, 99 - (columns.last ?? 99))
        #expect(abs(left - right) <= 3, "\(left) px left, \(right) px right")
    }
}
