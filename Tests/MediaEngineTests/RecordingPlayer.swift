import FileSource
import MediaEngine
import MediaTestSupport

extension MoviePlayer {
    /// A player on a test clip (the numbered one unless told otherwise) whose frames `frames`
    /// records, with sound discarded; it waits to be told to play unless `autoplay` is set.
    static func recording(
        _ frames: FrameRecorder, clip: TestMedia.Clip = TestMedia.numbered, synchronized: Bool = true,
        autoplay: Bool = false
    ) async throws -> MoviePlayer {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: clip)),
            videoSink: frames.sink(synchronized: synchronized), audioOutput: .discard)
        player.shouldAutoplay = autoplay
        return player
    }
}
