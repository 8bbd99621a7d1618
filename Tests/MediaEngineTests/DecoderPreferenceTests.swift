import FileSource
import Foundation
import MediaTestSupport
import Testing

@_spi(Benchmarks) @testable import MediaEngineCore

/// The engine's decoders in someone else's process: preferred in the engine's own pipelines,
/// not chosen by the app's own playbin unless the app opts in.
@Suite("Decoder preference", .serialized)
struct DecoderPreferenceTests {
    @Test("a plain playbin in the engine's process keeps avdec_h264; the engine's pipelines use meh264dec")
    func onlyInEnginePipelines() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        try GStreamer.initialize()
        #expect(
            try PlaybinBaseline.videoDecoder(uri: movie.absoluteString, preferringEngineDecoders: false) == "avdec_h264"
        )
        #expect(
            try PlaybinBaseline.videoDecoder(uri: movie.absoluteString, preferringEngineDecoders: true) == "meh264dec")
        let player = MoviePlayer(source: FileSource(url: movie), videoSink: NullVideoSink(), audioOutput: .discard)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        #expect(player.videoDecoder == "meh264dec")
        await player.shutdown()
    }

    @Test("an app that opts in gets the engine's decoders in its own pipelines too, and can take it back")
    func everywhere() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        try GStreamer.preferEngineDecodersEverywhere()
        defer { GStreamer.preferEngineDecodersInEnginePipelinesOnly() }
        #expect(
            try PlaybinBaseline.videoDecoder(uri: movie.absoluteString, preferringEngineDecoders: false) == "meh264dec")
        GStreamer.preferEngineDecodersInEnginePipelinesOnly()
        #expect(
            try PlaybinBaseline.videoDecoder(uri: movie.absoluteString, preferringEngineDecoders: false) == "avdec_h264"
        )
    }
}
