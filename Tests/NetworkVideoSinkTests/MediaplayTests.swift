import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// `mediaplay` (Examples/mediaplay) with the network sinks it registers at start.
@Suite("mediaplay with network sinks")
struct MediaplayTests {
    @Test("--list-sinks lists rtp, srt and hls as external")
    func listSinks() async throws {
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaplay"), ["--list-sinks"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        for name in ["hls", "rtp", "srt"] {
            #expect(lines.contains { $0.hasPrefix("\(name) ") && $0.contains("external") }, "\(result.standardOutput)")
        }
        #expect(lines.contains { $0.hasPrefix("frames ") }, "the built-in sinks are still there")
    }

    @Test("--sink rtp:host=127.0.0.1,port=P,sdp=FILE plays the movie to the network and writes the SDP file")
    func rtp() async throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try LoopbackPorts.freeUDP()[0]
        let sdp = folder.appendingPathComponent("movie.sdp")
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"),
            ["--sink", "rtp:host=127.0.0.1,port=\(port),sdp=\(sdp.path)", clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("playing \(clip.path): 320x240"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("to 'rtp'"))
        #expect(result.standardOutput.contains("finished: playbackEnded"))
        #expect(try String(contentsOf: sdp, encoding: .utf8).contains("m=video \(port) RTP/AVP 96\r\n"))
    }

    @Test("a hostile or wrong option is a usage error naming invalidArgument, never a crash or a pipeline")
    func badOptions() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        for sink in ["rtp:host=a b,port=5004", "rtp:host=127.0.0.1,port=99999", "hls:folder=/tmp,preset=slowest"] {
            let result = try await ProcessRunner.run(
                BuildProducts.executable("mediaplay"), ["--sink", sink, clip.path])
            #expect(result.status == 1, "--sink '\(sink)': \(result.standardOutput)")
            #expect(
                result.standardError.hasPrefix("mediaplay: invalidArgument: "),
                "--sink '\(sink)': \(result.standardError)")
        }
    }
}
