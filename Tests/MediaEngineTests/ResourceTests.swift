import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

@Suite("Resources")
struct ResourceTests {
    @Test("two players play at once, each to its own sink")
    func twoPlayers() async throws {
        let first = FrameSink(synchronized: false)
        let second = FrameSink(synchronized: false)
        let one = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: first,
            audioOutput: .discard)
        let two = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.barsWithAudio)), videoSink: second,
            audioOutput: .discard)
        let recorders = (EventRecorder(one), EventRecorder(two))
        async let a: Void = one.play()
        async let b: Void = two.play()
        _ = try await (a, b)
        let finishes = try await (recorders.0.waitForFinish(), recorders.1.waitForFinish())
        #expect(finishes.0.0 == .playbackEnded && finishes.1.0 == .playbackEnded)
        #expect(first.framesDelivered == 60)
        #expect(second.framesDelivered == 60)
    }

    @Test("prepare/play/stop cycles and players released mid-playback leave nothing behind")
    func cyclesLeaveNothingBehind() async throws {
        let clip = try await TestMedia.url(for: TestMedia.barsWithAudio).path
        let result = try await ProcessRunner.run(
            BuildProducts.executable("engine-leak-check"), ["cycles", "4", clip],
            environment: ["GST_TRACERS": "leaks", "GST_DEBUG": "GST_TRACER:7", "GST_DEBUG_NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.standardError.suffix(2000))")
        let summaryLine = try #require(result.standardOutput.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(summaryLine.utf8)) as? [String: Any])
        #expect(summary["busThreads"] as? Int == 0, "a bus thread outlived its player: \(summary)")
        #expect(summary["fdsAfter"] as? Int == summary["fdsBefore"] as? Int, "\(summary)")
        let threadsBefore = try #require(summary["threadsBefore"] as? Int)
        let threadsAfter = try #require(summary["threadsAfter"] as? Int)
        #expect(threadsAfter <= threadsBefore + 4, "GStreamer's idle pool threads only: \(summary)")

        // The leaks tracer lists every GstObject still alive at gst_deinit. The engine leaks
        // none. (GStreamer 1.22's playsink would leak one GstVolume and its two pads per
        // pipeline, which is why the engine does not ask playbin for soft volume.)
        let alive = result.standardError.split(separator: "\n").filter {
            $0.contains("object-alive, type-name=(string)") && !$0.contains("%s")
        }
        #expect(alive.isEmpty, "leaked: \(alive.map { $0.split(separator: "object-alive, ").last ?? "" })")
        #expect(!result.standardError.contains("Leaks detected"))
    }

    @Test("players under random commands from many tasks, then released: none hangs, nothing is left open")
    func stress() async throws {
        let clips = [
            try await TestMedia.url(for: TestMedia.barsWithAudio).path,
            try await TestMedia.url(for: TestMedia.barsWebM).path,
        ]
        // Every command, rate changes included: an instant rate change is applied on the player's
        // thread (PipelineSession's relay), so it cannot meet a state change there.
        let result = try await ProcessRunner.run(
            BuildProducts.executable("engine-leak-check"),
            ["stress", "12", "\(UInt64.random(in: 1...1_000_000))"] + clips)
        #expect(result.status == 0, "\(result.standardError.suffix(2000))")
        // No instant-rate-sync-time reached a sink without a segment (GStreamer asserts, and that
        // sink keeps its old rate).
        #expect(
            !result.standardError.contains("'segment->format == format' failed"), "\(result.standardError.suffix(2000))"
        )
        let lines = result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let summary = try #require(lines.last { $0["summary"] as? String == "stress" }, "\(result.standardOutput)")
        // Every command completed or failed with a typed error within 20 s (the seed is in the summary).
        #expect(summary["hung"] as? Int == 0, "\(lines.filter { $0["summary"] == nil }) \(summary)")
        #expect((summary["completed"] as? Int ?? 0) > 0, "\(summary)")
        #expect(summary["busThreads"] as? Int == 0, "\(summary)")
        #expect((summary["newDescriptors"] as? [String])?.isEmpty == true, "\(summary)")
    }
}
