import Foundation
import MediaTestSupport
import Testing

/// `mediaplay` on a network slower than the movie: it says that it waits for the network, on its
/// progress line (a terminal) or in lines of their own (a pipe), so a user sees why nothing moves.
@Suite("mediaplay on a slow network")
struct MediaplayStallTests {
    /// The numbered clip (2 s, about 450 kB) sent at 100 kB/s, under half its bitrate: it waits
    /// for its start threshold after it is prepared, and again when its buffer runs dry.
    static func throttledServer() async throws -> FaultInjectingServer {
        try FaultInjectingServer(
            serving: try await TestMedia.url(for: TestMedia.numbered), fault: .throttle(bytesPerSecond: 100_000))
    }

    @Test("piped, a line when the wait for the network starts, and one when the movie plays again")
    func linesWhenPiped() async throws {
        let server = try await Self.throttledServer()
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"), ["--sink", "null", server.url()])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let stalls = lines.indices.filter { lines[$0].hasPrefix("  stalled: waiting for the network") }
        let ends = lines.indices.filter { lines[$0].hasPrefix("  buffered: playing after ") }
        #expect(!stalls.isEmpty, "\(lines)")
        // Each wait has its end, after it: they alternate, a stall first.
        #expect(stalls.count == ends.count, "\(lines)")
        #expect(zip(stalls, ends).allSatisfy { $0 < $1 }, "\(lines)")
        #expect(zip(ends, stalls.dropFirst()).allSatisfy { $0 < $1 }, "\(lines)")
        #expect(
            lines.filter { $0.hasPrefix("  stalled") }.allSatisfy {
                $0 == "  stalled: waiting for the network" || $0.hasSuffix("%)")
            }, "\(lines)")
        #expect(lines.last == "finished: playbackEnded", "\(lines)")
        #expect(!result.standardOutput.contains("\u{1B}"), "no escape sequence in a pipe")
    }

    @Test("on a terminal, the progress line says buffering and how far while it waits, then playing")
    func progressLineOnATerminal() async throws {
        let server = try await Self.throttledServer()
        let program = try PseudoTerminalProgram(
            BuildProducts.executable("mediaplay"), ["--sink", "null", server.url()], columns: 100, rows: 30)
        try await program.waitForOutput("a progress line that waits for the network") { output in
            MediaplayKeysTests.Bar.all(in: output).contains { $0.state == "buffering" || $0.state == "stalled" }
        }
        let bars = MediaplayKeysTests.Bar.all(in: program.output)
        let waiting = try #require(bars.first { $0.state == "buffering" || $0.state == "stalled" })
        #expect(
            waiting.text.range(of: #"\] (buffering \d{1,2}%|stalled) "#, options: .regularExpression) != nil,
            "\(waiting)")
        try await program.waitForOutput("playing after the wait") { output in
            MediaplayKeysTests.Bar.all(in: output).contains { $0.end > waiting.end && $0.state == "playing" }
        }
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        let shown = MediaplayKeysTests.Transcript(program.output, columns: 100).rows.filter { !$0.isEmpty }
        #expect(shown.last == "finished: playbackEnded", "\(shown)")
    }
}
