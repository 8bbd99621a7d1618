import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileSource")
struct FileSourceTests {
    @Test(
        "file URIs escape every byte outside the unreserved set",
        arguments: [
            ("/tmp/movie.mp4", "file:///tmp/movie.mp4"),
            ("/tmp/with space.mp4", "file:///tmp/with%20space.mp4"),
            ("/tmp/100%.mp4", "file:///tmp/100%25.mp4"),
            ("/tmp/take#2?.mp4", "file:///tmp/take%232%3F.mp4"),
            ("/tmp/é.mp4", "file:///tmp/%C3%A9.mp4"),
            ("/tmp/a_b-c~d.mp4", "file:///tmp/a_b-c~d.mp4"),
        ])
    func uriEscaping(path: String, uri: String) {
        #expect(FileSource(path: path).uri == uri)
    }

    @Test("relative paths resolve against the current directory; file URLs keep their path")
    func paths() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(FileSource(path: "clip.mp4").path == cwd + "/clip.mp4")
        #expect(FileSource(url: URL(fileURLWithPath: "/tmp/a b.mp4")).path == "/tmp/a b.mp4")
        #expect(FileSource(path: "/tmp/x.mp4").sourceType == .file)
    }

    @Test("validation refuses what cannot be a movie file, before any pipeline exists")
    func validation() async throws {
        let inputs = try await BadInputs.make()
        defer { inputs.remove() }
        let checkedUpFront: Set<String> = ["fileNotFound", "isDirectory", "notRegularFile", "emptyFile"]
        for input in inputs.cases {
            let source = FileSource(path: input.path)
            if checkedUpFront.contains(input.expectedCode) {
                #expect(throws: MediaError.self, "\(input.name)") { try source.validate() }
                do { try source.validate() } catch { #expect(error.code.name == input.expectedCode, "\(input.name)") }
            } else {
                // Judged by GStreamer from the content.
                #expect(throws: Never.self, "\(input.name)") { try source.validate() }
            }
        }
        #expect(throws: MediaError.self) { try FileSource(url: URL(string: "https://example.com/a.mp4")!).validate() }
    }

    @Test("a container that runs past the end of the file is truncated, not corrupt")
    func truncationDiagnosis() async throws {
        let inputs = try await BadInputs.make()
        defer { inputs.remove() }
        let truncated = try #require(inputs.cases.first { $0.name == "truncated, moov last" })
        let corrupt = try #require(inputs.cases.first { $0.name == "corrupt container" })
        let reported = MediaError(.corruptContainer, "This file contains no playable streams.")
        #expect(FileSource(path: truncated.path).interpret(reported).code == .truncatedMovie)
        #expect(FileSource(path: corrupt.path).interpret(reported).code == .corruptContainer)
        let whole = try await TestMedia.url(for: TestMedia.bars)
        #expect(FileSource(url: whole).interpret(reported).code == .corruptContainer)
        // Matroska: a segment whose declared size runs past the end.
        let webm = try Data(contentsOf: try await TestMedia.url(for: TestMedia.barsWebM))
        let cut = inputs.directory.appendingPathComponent("cut.webm")
        try webm.prefix(webm.count / 2).write(to: cut)
        #expect(FileSource(url: cut).interpret(reported).code == .truncatedMovie)
    }

    @Test("MoviePlayer(contentURL:) picks FileSource for file URLs")
    func contentURL() async throws {
        let url = try await TestMedia.url(for: TestMedia.bars)
        let player = MoviePlayer(contentURL: url)
        #expect(player.source is FileSource)
        #expect(player.source.uri == FileSource(url: url).uri)
        let missing = MoviePlayer(contentURL: URL(fileURLWithPath: "/nonexistent/movie.mp4"))
        await #expect(throws: MediaError.self) { try await missing.prepareToPlay() }
        #expect(missing.error?.code == .fileNotFound)
    }
}
