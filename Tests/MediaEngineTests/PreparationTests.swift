import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

@Suite("Preparing a movie")
struct PreparationTests {
    @Test("prepareToPlay reports duration, size, media types and source type, in a fixed order")
    func prepareReportsMovieFacts() async throws {
        let url = try await TestMedia.url(for: TestMedia.bars)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink())
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)

        try await player.prepareToPlay()

        #expect(player.isPreparedToPlay)
        #expect(player.duration == .seconds(2))
        #expect(player.naturalSize == VideoSize(width: 320, height: 240))
        #expect(player.movieMediaTypes == .video)
        #expect(player.movieSourceType == .file)
        #expect(player.readyForDisplay)
        #expect(player.playbackState == .stopped)
        #expect(player.loadState == [.playable, .playthroughOK])
        #expect(player.currentPlaybackTime == .zero)
        try await recorder.waitFor { $0 == .preparedToPlayChanged(true) }
        #expect(
            recorder.events.filter { if case .metadataAvailable = $0 { false } else { true } } == [
                .sourceTypeAvailable(.file),
                .naturalSizeAvailable(VideoSize(width: 320, height: 240)),
                .readyForDisplayChanged(true),
                .durationAvailable(.seconds(2)),
                .mediaTypesAvailable(.video),
                .loadStateChanged([.playable, .playthroughOK]),
                .preparedToPlayChanged(true),
            ])
    }

    @Test("a movie with sound reports both media types")
    func audioAndVideo() async throws {
        let url = try await TestMedia.url(for: TestMedia.barsWithAudio)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink(), audioOutput: .discard)
        try await player.prepareToPlay()
        #expect(player.movieMediaTypes == [.video, .audio])
        let duration = try #require(player.duration)
        #expect(duration >= .milliseconds(1950) && duration <= .milliseconds(2100))
    }

    @Test("an audio-only file has no video and is never ready for display")
    func audioOnly() async throws {
        let url = try await TestMedia.url(for: TestMedia.audioOnly)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink(), audioOutput: .discard)
        try await player.prepareToPlay()
        #expect(player.movieMediaTypes == .audio)
        #expect(player.naturalSize == .zero)
        #expect(!player.readyForDisplay)
    }

    @Test("the natural size applies the pixel aspect ratio")
    func anamorphic() async throws {
        let url = try await TestMedia.url(for: TestMedia.anamorphic)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink())
        try await player.prepareToPlay()
        #expect(player.naturalSize == VideoSize(width: 400, height: 100))
    }

    @Test("metadata carries the container's tags")
    func metadata() async throws {
        let url = try await TestMedia.url(for: TestMedia.bars)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink())
        try await player.prepareToPlay()
        #expect(player.metadata["video-codec"]?.contains("H.264") == true)
    }

    @Test("movieMetadata types the title, artist, album, codecs, container and bitrate, and keeps every tag")
    func typedMetadata() async throws {
        let url = try await TestMedia.url(for: TestMedia.taggedBarsWithAudio)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink())
        #expect(player.movieMetadata == MovieMetadata(tags: [:]))
        try await player.prepareToPlay()
        let metadata = player.movieMetadata
        #expect(metadata.title == "Bars")
        #expect(metadata.artist == "Engine")
        #expect(metadata.album == "Tests")
        #expect(metadata.videoCodec?.contains("H.264") == true)
        #expect(metadata.audioCodec?.contains("AAC") == true)
        #expect(metadata.containerFormat?.contains("MP4") == true)
        #expect((metadata.bitrate ?? 0) > 0)
        // Not compared with a second read of `player.metadata`: parsers may still report bitrates.
        #expect(metadata.raw["video-codec"] == metadata.videoCodec)
        #expect(metadata.raw["title"] == "Bars")
    }

    @Test("MovieMetadata reads the nominal bitrate when no bitrate was reported, and nothing from a non-number")
    func typedMetadataBitrate() {
        #expect(MovieMetadata(tags: ["nominal-bitrate": "128000"]).bitrate == 128_000)
        #expect(MovieMetadata(tags: ["bitrate": "96000", "nominal-bitrate": "128000"]).bitrate == 96_000)
        #expect(MovieMetadata(tags: ["bitrate": "fast"]).bitrate == nil)
        #expect(MovieMetadata(tags: [:]).title == nil)
    }

    @Test("preparing twice at once joins the same preparation")
    func concurrentPrepare() async throws {
        let url = try await TestMedia.url(for: TestMedia.bars)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink())
        let recorder = EventRecorder(player)
        async let first: Void = player.prepareToPlay()
        async let second: Void = player.prepareToPlay()
        _ = try await (first, second)
        try await recorder.waitFor { $0 == .preparedToPlayChanged(true) }
        #expect(recorder.events.filter { $0 == .preparedToPlayChanged(true) }.count == 1)
    }
}
