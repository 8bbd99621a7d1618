import FileSource
import Foundation
import MediaTestSupport
import Testing

@_spi(Benchmarks) @testable import MediaEngineCore

/// The engine's decoders in someone else's process: preferred in the engine's own pipelines,
/// not chosen by the app's own playbin unless the app opts in.
@Suite("Decoder preference", .serialized)
struct DecoderPreferenceTests {
    /// The video decoder a bare playbin picks for `movie`, on a thread of its own: the playbin
    /// waits for its preroll, which must not hold one of Swift's cooperative threads.
    private func decoder(of movie: URL, preferringEngineDecoders: Bool) async throws -> String? {
        try await OwnThread.run {
            try PlaybinBaseline.videoDecoder(
                uri: movie.absoluteString, preferringEngineDecoders: preferringEngineDecoders)
        }
    }

    @Test("a plain playbin in the engine's process keeps avdec_h264; the engine's pipelines use meh264dec")
    func onlyInEnginePipelines() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        try GStreamer.initialize()
        #expect(
            try await decoder(of: movie, preferringEngineDecoders: false) == "avdec_h264"
        )
        #expect(
            try await decoder(of: movie, preferringEngineDecoders: true) == "meh264dec")
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
            try await decoder(of: movie, preferringEngineDecoders: false) == "meh264dec")
        GStreamer.preferEngineDecodersInEnginePipelinesOnly()
        #expect(
            try await decoder(of: movie, preferringEngineDecoders: false) == "avdec_h264"
        )
    }

    /// playbin lists its candidates once (while the registry's cookie stands, which a change of
    /// rank does not move) and sorts them by the ranks of the moment at each pad. A pipeline that
    /// listed them while the engine's decoders were ranked, and decodes after they went back to
    /// NONE, holds meh264dec at the end of its list: the engine must still put it first. (In the
    /// parallel suites this was a rare LibavDecoderTests failure: an engine pipeline that started
    /// while `everywhere()` had the decoders ranked chose avdec_h264.)
    @Test("an engine pipeline that listed its decoders while they were ranked everywhere still uses meh264dec after")
    func rankTakenBackUnderAPipeline() async throws {
        let first = try await TestMedia.url(for: TestMedia.numbered)
        let second = try await TestMedia.url(for: TestMedia.ballWithBFrames)
        try GStreamer.preferEngineDecodersEverywhere()
        defer { GStreamer.preferEngineDecodersInEnginePipelinesOnly() }
        let player = MoviePlayer(source: FileSource(url: first), videoSink: NullVideoSink(), audioOutput: .discard)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        #expect(player.videoDecoder == "meh264dec")
        GStreamer.preferEngineDecodersInEnginePipelinesOnly()
        // The next movie loads in the same pipeline, with the list playbin made for the first.
        player.source = FileSource(url: second)
        try await player.prepareToPlay()
        #expect(player.videoDecoder == "meh264dec")
        await player.shutdown()
    }
}
