import Foundation
import MediaTestSupport
import Testing

/// The examples on network movies and timed metadata, run as a user would: URLs, curl's
/// flags, error lines with the HTTP status, metadata printed as playback reaches it.
@Suite("Examples on the network")
struct NetworkExamplesTests {
    @Test("mediaprobe takes an http URL, sends --header and --cookie, and reports a 404 with its status")
    func probeURL() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.bars), to: folder.appendingPathComponent("movie.mp4"))
        let server = try await LoopbackHTTPServer(serving: folder)
        let probe = BuildProducts.executable("mediaprobe")
        let result = try await ProcessRunner.run(
            probe, ["--header", "X-Test: yes", "--cookie", "session=abc", server.url("movie.mp4")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("file:        \(server.url("movie.mp4"))"))
        #expect(result.standardOutput.contains("duration:    2.000 s"))
        #expect(result.standardOutput.contains("source type: file"))
        let missing = try await ProcessRunner.run(probe, [server.url("missing.mp4")])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasPrefix("mediaprobe: fileNotFound (HTTP 404): "), "\(missing.standardError)")
        let badHeader = try await ProcessRunner.run(probe, ["--header", "no colon", server.url("movie.mp4")])
        #expect(badHeader.status == 2)
        #expect(badHeader.standardError.contains("a header is 'NAME: VALUE'"))
        _ = server
    }

    @Test("mediaprobe names a refused connection and never prints a URL's password")
    func probeRefused() async throws {
        // With the engine's trace on, every decision and bus message is printed too.
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaprobe"), ["http://user:hunter2@127.0.0.1:1/movie.mp4"],
            environment: ["MEDIA_ENGINE_TRACE": "1"])
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("mediaprobe: connectionRefused: ") }, "\(result.standardError)")
        #expect(lines.count > 5, "the trace was printed")
        #expect(!result.standardError.contains("hunter2"))
    }

    @Test("mediaplay says each retry of a refused connection (--retry-connrefused), then names the error")
    func playPrintsRetries() async throws {
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"),
            ["--retry", "2", "--retry-delay", "0.1", "--retry-connrefused", "http://127.0.0.1:1/movie.mp4"])
        #expect(result.status == 1)
        // (A busy machine may take a second to fail: then a line says it waits, first.)
        let lines = result.standardOutput.split(separator: "\n").map(String.init).filter {
            $0 != "  loading: waiting for the network"
        }
        #expect(
            lines == [
                "  retry 1 of 2 in 0.1 s, after connectionRefused: 127.0.0.1 refused the connection (nothing listens on that port)",
                "  retry 2 of 2 in 0.2 s, after connectionRefused: 127.0.0.1 refused the connection (nothing listens on that port)",
            ], "\(result.standardOutput)")
        #expect(result.standardError.hasPrefix("mediaplay: connectionRefused: "), "\(result.standardError)")
    }

    @Test("mediaprobe: a refused port is named after one try, and a silent server timedOut at --retry-max-time")
    func probeBounds() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        /// Runs mediaprobe with the engine's trace on; returns its error line, how many times the
        /// source answered (one per connection tried), and the time from the player's first
        /// decision to its last, read from the trace's own clock: a process started on a loaded
        /// machine (1 to 4.5 s in CI) does not count.
        func probe(_ arguments: [String]) async throws -> (error: String, tries: Int, took: Duration) {
            let result = try await ProcessRunner.run(
                BuildProducts.executable("mediaprobe"), arguments, environment: ["MEDIA_ENGINE_TRACE": "1"])
            #expect(result.status == 1)
            let lines = result.standardError.split(separator: "\n").map(String.init)
            let times = lines.compactMap { line -> Double? in
                guard line.hasPrefix("[media-engine] "), line.contains("ObjectIdentifier(") else { return nil }
                return Double(line.dropFirst("[media-engine] ".count).prefix { $0 != " " })
            }
            let error = lines.first { $0.hasPrefix("mediaprobe: ") } ?? result.standardError
            let tries = lines.filter { $0.contains(" bus: httpResponse(") }.count
            let took = Duration.milliseconds((times.last ?? 0) - (times.first ?? 0))
            return (error, tries, took)
        }
        let stopped = try FaultInjectingServer(serving: movie)
        stopped.stop()
        let refused = try await probe([stopped.url()])
        #expect(refused.error.hasPrefix("mediaprobe: connectionRefused: "), "\(refused.error)")
        #expect(refused.tries == 1, "a refused connection is not tried again unless asked")
        #expect(refused.took < .seconds(2), "no retry, no wait for a connect timeout: \(refused.took)")
        let silent = try FaultInjectingServer(serving: movie, fault: .neverAnswer)
        let silence = try await probe(["--retry-max-time", "2", silent.url()])
        #expect(silence.error.hasPrefix("mediaprobe: timedOut: "), "\(silence.error)")
        #expect(silence.took >= .seconds(2) && silence.took < .seconds(4), "\(silence.took)")
    }

    @Test("mediaplay prints timed metadata as playback reaches it")
    func playPrintsTimedMetadata() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try await TimedMetadataMedia.transportStream(
            with: [
                (.milliseconds(500), ID3TagWriter.tag([.text("TIT2", "Opening")])),
                (.milliseconds(1500), ID3TagWriter.tag([.userText(description: "cue", value: "second")])),
            ], in: folder)
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"), ["--sink", "null", movie.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let metadata = lines.filter { $0.hasPrefix("  metadata: ") }
        #expect(metadata.count == 2, "\(lines)")
        #expect(metadata.first?.contains("TIT2") == true && metadata.first?.contains("Opening") == true)
        #expect(metadata.last?.contains("TXXX[cue]") == true && metadata.last?.contains("second") == true)
        // Printed as playback reaches them: after every progress line of an earlier time, before
        // every one of a later time (progress lines come every half second).
        for (line, time) in [(metadata[0], 0.5), (metadata[1], 1.5)] {
            let index = try #require(lines.firstIndex(of: line))
            let progress = lines.enumerated().compactMap { offset, text -> (Int, Double)? in
                guard text.hasSuffix(" s"), let seconds = Double(text.dropLast(2).trimmingCharacters(in: .whitespaces))
                else { return nil }
                return (offset, seconds)
            }
            #expect(progress.allSatisfy { $0.1 < time - 0.1 ? $0.0 < index : $0.1 > time + 0.1 ? $0.0 > index : true })
        }
    }
}
