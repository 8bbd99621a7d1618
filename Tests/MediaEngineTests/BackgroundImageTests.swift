import FileSource
import Foundation
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The picture behind the movie (`backgroundImage`): in the bars of the scaling, and over the
/// whole window for a movie without video.
@Suite("Background image", .serialized)
struct BackgroundImageTests {
    /// 200x100: its left half red, its right half green.
    static func halves() throws -> OverlayBitmap {
        var canvas = OverlayCanvas(width: 200, height: 100)
        canvas.fill(ViewRect(x: 0, y: 0, width: 100, height: 100), with: .red)
        canvas.fill(ViewRect(x: 100, y: 0, width: 100, height: 100), with: .green)
        return canvas.makeBitmap()
    }

    @Test("the 4:3 movie in a 16:9 frame: the picture's left in the left bar, its right in the right one")
    func pillarbox() async throws {
        let sink = FrameSink(format: .rgba, size: VideoSize(width: 640, height: 360))
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)), videoSink: sink,
            audioOutput: .discard)
        player.shouldAutoplay = false
        player.backgroundImage = try Self.halves()
        #expect(player.backgroundImage != nil && player.overlays.all.count == 2)
        try await player.prepareToPlay()
        let frame = try #require(sink.latestFrame())
        try frame.pngData().write(to: URL(fileURLWithPath: "/tmp/background-image.png"))
        // The 480x360 picture sits at x 80-560; the image, scaled to 720x360, is cut 40 px each side.
        #expect(frame.color(atX: 40, y: 180).isClose(to: .red, tolerance: 30), "\(frame.color(atX: 40, y: 180))")
        #expect(frame.color(atX: 600, y: 180).isClose(to: .green, tolerance: 30), "\(frame.color(atX: 600, y: 180))")
        #expect(frame.color(atX: 100, y: 60).isClose(to: .white, tolerance: 40), "the movie's white bar")
        player.backgroundImage = nil
        #expect(player.overlays.all.isEmpty)
    }

    @Test("a movie without video shows the picture over the whole window")
    func audioOnly() async throws {
        let display = try await VirtualDisplay()
        let player = try await WindowSinkTests.orangeWindowPlayer(WindowSinkTests.fiveSecondsOfSound, on: display)
        try await withShutdown(of: player) {
            player.backgroundImage = try Self.halves()
            try await player.play()
            #expect(player.movieMediaTypes == [.audio])
            try await Task.sleep(for: .milliseconds(400))
            let shot = try await display.screenshot()
            // The 320x240 window: the 200x100 image scaled to 480x240, its middle 320 columns shown.
            #expect(shot.color(atX: 40, y: 120).isClose(to: .red, tolerance: 40), "\(shot.color(atX: 40, y: 120))")
            #expect(shot.color(atX: 280, y: 120).isClose(to: .green, tolerance: 40), "\(shot.color(atX: 280, y: 120))")
            player.stop()
        }
        withExtendedLifetime(display) {}
    }
}

/// Where the picture behind the movie goes, without GStreamer.
@Suite("Background image: the bars")
struct BackgroundImageBarsTests {
    typealias Layer = BackgroundImageLayer

    @Test("pillar box, letter box, all four sides, none, and no video")
    func bars() {
        let view = VideoSize(width: 640, height: 360)
        let pillar = Layer.bars(view: view, picture: ViewRect(x: 80, y: 0, width: 480, height: 360), hasVideo: true)
        #expect(pillar.leading == ViewRect(x: 0, y: 0, width: 80, height: 360))
        #expect(pillar.trailing == ViewRect(x: 560, y: 0, width: 80, height: 360) && pillar.hole == nil)
        let letter = Layer.bars(view: view, picture: ViewRect(x: 0, y: 30, width: 640, height: 300), hasVideo: true)
        #expect(letter.leading == ViewRect(x: 0, y: 0, width: 640, height: 30))
        #expect(letter.trailing == ViewRect(x: 0, y: 330, width: 640, height: 30))
        let framed = Layer.bars(view: view, picture: ViewRect(x: 10, y: 10, width: 300, height: 200), hasVideo: true)
        #expect(framed.leading == ViewRect(x: 0, y: 0, width: 640, height: 360) && framed.trailing == nil)
        #expect(framed.hole == ViewRect(x: 10, y: 10, width: 300, height: 200))
        let full = Layer.bars(view: view, picture: ViewRect(x: 0, y: 0, width: 640, height: 360), hasVideo: true)
        #expect(full.leading == nil && full.trailing == nil)
        let sound = Layer.bars(view: view, picture: ViewRect(x: 0, y: 0, width: 640, height: 360), hasVideo: false)
        #expect(sound.leading == ViewRect(x: 0, y: 0, width: 640, height: 360) && sound.hole == nil)
    }
}
