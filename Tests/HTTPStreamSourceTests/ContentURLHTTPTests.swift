import Foundation
import HTTPStreamSource
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// `MoviePlayer(contentURL:)` and the `contentURL` setter with `http(s):` URLs, as code ported
/// from MPMoviePlayerController uses them: the registry gives them `HTTPStreamSource`, with the
/// shared credential store, retries and the access log.
@Suite("contentURL with http(s) URLs")
struct ContentURLHTTPTests {
    @Test("an http URL with a credential in the shared store for its protection space plays, logged")
    func sharedStore() async throws {
        let (server, folder) = try await ServerBehaviourTests.server(.init(user: "viewer", password: "popcorn"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try #require(URL(string: server.url("basic/movie.mp4")))
        // The seed's recipe: a credential for the protection space, in the shared store.
        let space = ProtectionSpace(host: "127.0.0.1", port: url.port, scheme: "http", realm: "Movies", method: .basic)
        CredentialStore.shared.set(HTTPCredential(user: "viewer", password: "popcorn"), for: space)
        defer { CredentialStore.shared.remove(for: space) }
        let player = MoviePlayer(contentURL: url, videoSink: NullVideoSink())
        #expect(player.source is HTTPStreamSource)
        player.shouldAutoplay = false
        try await withDeadline(.seconds(10), "prepareToPlay()") { try await player.prepareToPlay() }
        #expect(player.duration == .seconds(2))
        #expect(player.accessLog.events.count == 1)
        #expect(player.errorLog.events.map(\.statusCode) == [401], "the challenge, answered from the store")
        #expect(player.source.retryPolicy.attempts > 0, "the HTTP source's retries")
        await player.shutdown()
    }

    @Test("https and HLS URLs get HTTPStreamSource too, and the setter makes the same choice")
    func schemes() throws {
        let player = MoviePlayer(contentURL: try #require(URL(string: "https://127.0.0.1:1/live/index.m3u8")))
        #expect(player.source is HTTPStreamSource)
        #expect(player.source.sourceType == .streaming)
        player.contentURL = URL(string: "http://127.0.0.1:1/movie.mp4")
        #expect(player.source is HTTPStreamSource)
        #expect(player.contentURL?.absoluteString == "http://127.0.0.1:1/movie.mp4")
    }

    @Test("a credential in the URL's user information is the source's own, not in its URI")
    func userInfo() throws {
        let player = MoviePlayer(contentURL: try #require(URL(string: "http://viewer:popcorn@127.0.0.1:1/movie.mp4")))
        let source = try #require(player.source as? HTTPStreamSource)
        #expect(source.options.credential?.user == "viewer")
        #expect(!source.uri.contains("popcorn"))
    }
}
