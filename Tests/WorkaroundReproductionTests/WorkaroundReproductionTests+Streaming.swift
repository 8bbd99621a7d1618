import Foundation
import MediaEngineCore
import MediaTestSupport
import Testing

/// The workarounds of network movies, against servers on loopback that this process runs (a
/// child's own would outlive it when it is killed).
extension WorkaroundReproductionTests {
    @Test("reload-sources: off, a retry after a 503 sends one more request of the failed load; on, none")
    func reloadSources() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let (off, on) = try await WorkaroundCheck.offAndOn { active in
            let server = try FaultInjectingServer(serving: movie, faults: [.status(503)])
            let report = try await WorkaroundCheck.run(.reloadSources, active: active, [server.url()])
            return (report: report, requests: server.requests.map { $0.status ?? 0 })
        }
        for run in [off, on] {
            #expect(run.report.flag("prepared") == true && run.report.number("retries") == 1, "\(run.report)")
        }
        // Off, the retry's load is preceded by a request of the failed load's source (two, now
        // and then, on a busy machine).
        #expect(off.requests.count >= 3 && off.requests.dropFirst().allSatisfy { $0 == 200 }, "off: \(off.requests)")
        #expect(on.requests == [503, 200], "the requests, on: \(on.requests)")
    }

    @Test("fragment-gate: off, an HLS demuxer reads ahead while the first picture decodes; on, one segment")
    func fragmentGate() async throws {
        let folder = try await AdaptiveStreamMedia.liveSegmentsFolder(
            with: ["vod.m3u8": AdaptiveStreamMedia.livePlaylist(0..<10) + "#EXT-X-ENDLIST\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let (off, on) = try await WorkaroundCheck.offAndOn { active in
            let server = try await StreamingTestServer(serving: folder)
            return try await WorkaroundCheck.run(
                .fragmentGate, active: active, [server.url("vod.m3u8"), server.accessLogFile.path])
        }
        // The first segment, and at most the request for the second (its download waits at the gate).
        #expect(on.number("segmentsWhilePreparing").map { (1...2).contains($0) } == true, "\(on)")
        #expect((off.number("segmentsWhilePreparing") ?? 0) >= 4, "\(off)")
    }

    @Test("buffering-thresholds: off, a download that stops at 40 % never starts playing; on, it plays at once")
    func bufferingThresholds() async throws {
        let movie = try await TestMedia.url(for: TestMedia.heavyNumbered)
        let size = try FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int ?? 0
        let (off, on) = try await WorkaroundCheck.offAndOn { active in
            let server = try FaultInjectingServer(serving: movie, fault: .holdThenContinue(bytes: size * 2 / 5))
            defer { server.releaseHeldResponses() }
            return try await WorkaroundCheck.run(.bufferingThresholds, active: active, [server.url()])
        }
        #expect(off.flag("playing") == false, "\(off)")
        #expect(on.flag("playing") == true, "\(on)")
    }

    @Test("dash-manifest: off, a DASH stream's moves to another representation are not reported; on, they are")
    func dashManifest() async throws {
        let folder = try await AdaptiveStreamMedia.dashLadderFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await LoopbackHTTPServer(serving: folder)
        let (off, on) = try await WorkaroundCheck.offAndOn(.dashManifest, [server.url("ladder.mpd")])
        for report in [off, on] {
            #expect(report.number("height") == 480, "it climbs to the highest either way: \(report)")
        }
        #expect(off.text("switches") == "", "\(off)")
        #expect(on.text("switches")?.hasSuffix("ladder.mpd#high") == true, "\(on)")
    }

    @Test("adaptive-start-bitrate: off, an HLS stream starts on the master playlist's first variant; on, the lowest")
    func adaptiveStartBitrate() async throws {
        let server = try await LoopbackHTTPServer(serving: try await AdaptiveStreamMedia.hlsVariants())
        let (off, on) = try await WorkaroundCheck.offAndOn(.adaptiveStartBitrate, [server.url("master.m3u8")])
        #expect(off.number("firstHeight") == 480, "\(off)")
        #expect(on.number("firstHeight") == 120, "\(on)")
    }

    @Test("souphttpsrc-ca-file: off, a server signed by the given CA is not trusted; on, the movie prepares")
    func soupCertificateFile() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.bars), to: folder.appendingPathComponent("movie.mp4"))
        let server = try await StreamingTestServer(serving: folder)
        let (off, on) = try await WorkaroundCheck.offAndOn(
            .soupCertificateFile, [server.httpsURL("movie.mp4"), server.caFile.path])
        // The engine's probe of the failed connection, which does trust the file, finds nothing
        // wrong with it: connectionFailed rather than tlsFailure.
        #expect(off.text("error").map { ["tlsFailure", "connectionFailed"].contains($0) } == true, "\(off)")
        #expect(on.text("error") == "none", "\(on)")
    }
}
