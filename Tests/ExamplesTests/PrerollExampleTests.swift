import Foundation
import MediaTestSupport
import Testing

/// The preroll example, run as a user would, against a VAST server on loopback.
@Suite("preroll", .serialized)
struct PrerollExampleTests {
    /// A server with one inline ad (the numbered clip as its media) at `vast.xml`.
    static func server(skipOffset: String? = nil) async throws -> VASTTestServer {
        let server = try await VASTTestServer()
        try FileManager.default.createSymbolicLink(
            at: server.documents.appendingPathComponent("ad.mp4"),
            withDestinationURL: try await TestMedia.url(for: TestMedia.wideBars))
        let skip = skipOffset.map { " skipoffset=\"\($0)\"" } ?? ""
        try server.write(
            """
            <VAST version="4.1"><Ad id="x"><InLine><AdSystem>Loopback</AdSystem><AdTitle>Example ad</AdTitle>
            <Impression><![CDATA[\(server.baseURL)/beacon/impression]]></Impression>
            <Creatives><Creative><Linear\(skip)><Duration>00:00:01</Duration>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180">
            <![CDATA[\(server.url("ad.mp4"))]]></MediaFile></MediaFiles></Linear></Creative></Creatives>
            </InLine></Ad></VAST>
            """, to: "vast.xml")
        return server
    }

    @Test("preroll plays the ad, then the movie, and prints each event")
    func adThenMovie() async throws {
        let server = try await Self.server()
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let result = try await ProcessRunner.run(
            BuildProducts.executable("preroll"), ["--ad-tag", server.url("vast.xml").absoluteString, movie.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ad: started(ad 1 of 1 \"Example ad\"") == true, "\(lines)")
        #expect(
            lines.filter { $0.hasPrefix("ad: ") }.dropFirst()
                == [
                    "ad: progressed(firstQuartile)", "ad: progressed(midpoint)", "ad: progressed(thirdQuartile)",
                    "ad: finished(completed)",
                ], "\(lines)")
        #expect(lines.contains("movie: duration 2.000 s") && lines.contains("movie: playing"))
        #expect(lines.last == "movie: finished playbackEnded")
        #expect(try await server.settledBeacons().map(\.path) == ["/beacon/impression"])
    }

    @Test("preroll --skip skips the ad at its offset; a missing tag prints the error and plays the movie")
    func skipAndFailure() async throws {
        let server = try await Self.server(skipOffset: "00:00:00.200")
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let skipped = try await ProcessRunner.run(
            BuildProducts.executable("preroll"),
            ["--ad-tag", server.url("vast.xml").absoluteString, "--skip", movie.path])
        #expect(skipped.status == 0, "\(skipped.standardError)")
        #expect(skipped.standardOutput.contains("skipping: true\n"))
        #expect(skipped.standardOutput.contains("ad: finished(skipped)\n"))
        #expect(skipped.standardOutput.hasSuffix("movie: finished playbackEnded\n"))

        let missing = try await ProcessRunner.run(
            BuildProducts.executable("preroll"), ["--ad-tag", server.url("status/404").absoluteString, movie.path])
        #expect(missing.status == 0, "\(missing.standardError)")
        #expect(missing.standardOutput.contains("ad failed: vastTimeout (VAST 301)"), "\(missing.standardOutput)")
        #expect(missing.standardOutput.hasSuffix("movie: finished playbackEnded\n"))
    }
}
