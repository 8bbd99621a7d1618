import FileSource
import Foundation
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// Which source plays a URL (``MediaSourceRegistry``): a third party's scheme, GStreamer's own
/// schemes, and a scheme nothing plays, typed and named.
@Suite("Source registry")
struct SourceRegistryTests {
    /// A scheme of the test's own: `clip:NAME` plays the test clip of that name.
    struct ClipSource: MediaSource {
        let file: URL
        var uri: String { file.absoluteString }
        var sourceType: MovieSourceType { .file }
    }

    @Test("a third party's scheme plays through MoviePlayer(contentURL:)")
    func thirdParty() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let registry = MediaSourceRegistry()
        try registry.register(scheme: "clip", provider: "the tests") { url in
            ClipSource(file: clip.deletingLastPathComponent().appendingPathComponent(url.path(percentEncoded: false)))
        }
        let url = try #require(URL(string: "clip:\(clip.lastPathComponent)"))
        let player = MoviePlayer(contentURL: url, videoSink: NullVideoSink(), registry: registry)
        #expect(player.source is ClipSource)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        #expect(player.duration != nil && player.naturalSize != .zero)
        await player.shutdown()
        #expect(throws: MediaError.self) {
            try registry.register(scheme: "CLIP", provider: "another") { _ in ClipSource(file: clip) }
        }
        #expect(registry.unregister(scheme: "clip"))
    }

    @Test("an entry for a path extension comes before its scheme's")
    func pathExtensions() throws {
        let registry = MediaSourceRegistry()
        try registry.register(scheme: "demo", provider: "any") { url in URISource(uri: "any:" + url.path) }
        try registry.register(scheme: "demo", pathExtensions: ["m3u8"], provider: "playlists") { url in
            URISource(uri: "playlist:" + url.path)
        }
        #expect(try registry.source(for: #require(URL(string: "demo:/a/b.M3U8"))).uri == "playlist:/a/b.M3U8")
        #expect(try registry.source(for: #require(URL(string: "demo:/a/b.mp4"))).uri == "any:/a/b.mp4")
        #expect(throws: MediaError.self) {
            try registry.register(scheme: "no/scheme", provider: "x") { _ in URISource(uri: "") }
        }
    }

    @Test("a scheme nothing plays fails preparation with unsupportedScheme, naming the scheme and the product")
    func unsupported() async throws {
        let registry = MediaSourceRegistry()
        let https = MoviePlayer(
            contentURL: try #require(URL(string: "https://example.invalid/movie.mp4")), videoSink: NullVideoSink(),
            registry: registry)
        let recorder = EventRecorder(https)
        do {
            try await https.prepareToPlay()
            Issue.record("an https URL with no HTTP source prepared")
        } catch {
            #expect(error.code == .unsupportedScheme)
            #expect(error.message.contains("'https:'") && error.message.contains("HTTPStreamSource"))
        }
        try await recorder.waitUntil("the finish") {
            $0.contains { if case .playbackDidFinish = $0 { true } else { false } }
        }
        #expect(https.contentURL?.absoluteString == "https://example.invalid/movie.mp4")
        let gopher = try #require(URL(string: "gopher://example.invalid/movie"))
        #expect(throws: MediaError.self) { try registry.source(for: gopher) }
        do {
            _ = try registry.source(for: gopher)
        } catch {
            #expect(error.code == .unsupportedScheme && error.message.contains("'gopher:'"))
        }
    }

    @Test("a scheme GStreamer reads (udp, rtsp) is played by GStreamer's own source")
    func gstreamerSchemes() throws {
        let registry = MediaSourceRegistry()
        #expect(try registry.source(for: #require(URL(string: "udp://127.0.0.1:5004"))) is URISource)
        #expect(try registry.source(for: #require(URL(string: "rtsp://127.0.0.1/stream"))) is URISource)
        let closed = MediaSourceRegistry(gstreamerFallback: false)
        #expect(throws: MediaError.self) { try closed.source(for: #require(URL(string: "udp://127.0.0.1:5004"))) }
    }

    @Test("the shared registry has what the linked products registered")
    func shared() {
        let schemes = Set(MediaSourceRegistry.shared.registered.map(\.scheme))
        #expect(schemes.isSuperset(of: ["file", "http", "https"]))
    }
}
