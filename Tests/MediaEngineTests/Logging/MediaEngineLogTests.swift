import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The log handler: the engine's records, GStreamer's and libav's when asked, on one thread,
/// bounded. Each test installs its capture for the process (``LogCapture``), one at a time.
@Suite("The log handler")
struct MediaEngineLogTests {
    private func play(_ clip: URL) async throws {
        let player = MoviePlayer(
            source: FileSource(url: clip), videoSink: NullVideoSink(synchronized: false), audioOutput: .discard)
        let recorder = EventRecorder(player)
        try? await player.play()
        _ = try await recorder.waitForFinish()
        await player.shutdown()
    }

    @Test("the engine's records reach the handler at its level and above, on the logging thread, one at a time")
    func engineRecords() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let (_, capture) = try await LogCapture.capture(level: .debug) { _ in try await play(clip) }
        let records = capture.all
        #expect(records.contains { $0.category == MediaEngineLog.Category.player && $0.level == .debug })
        // Bus messages are `trace`: below the handler's level, never built.
        #expect(!records.contains { $0.level < .debug })
        #expect(records.allSatisfy { $0.thread == "me-log" && !$0.overlapped })
    }

    @Test("GStreamer's debug log, when asked, comes in category gstreamer at its levels, with its details")
    func gstreamerForwarding() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        try GStreamer.initialize()
        let capture = LogCapture(logLevel: .warning)
        // Every threshold read in this test's turn: another suite's capture may set its own
        // thresholds as soon as the turn is over.
        let (before, during, after) = try await LogCapture.exclusively {
            let before = MediaEngineLog.gstreamerThreshold(of: "GST_STATES")
            try MediaEngineLog.setHandler(capture, forwarding: .init(gstreamer: "GST_STATES:4"))
            try await play(clip)
            let during = MediaEngineLog.gstreamerThreshold(of: "GST_STATES")
            await MediaEngineLog.flush()
            MediaEngineLog.removeHandler()
            return (before, during, MediaEngineLog.gstreamerThreshold(of: "GST_STATES"))
        }
        // The thresholds asked for while forwarding, GStreamer's own (GST_DEBUG's) after.
        #expect(during == 4)
        #expect(after == before)
        let states = capture.all.filter { $0.metadata["gst.category"] == "GST_STATES" }
        #expect(states.allSatisfy { $0.category == MediaEngineLog.Category.gstreamer })
        // INFO is the threshold: "completed state change to PLAYING" and the like, nothing finer.
        #expect(
            states.contains {
                $0.level == .info && $0.metadata["gst.level"] == "INFO" && $0.message.contains("completed state change")
                    && $0.metadata["gst.object"] != nil && $0.metadata["file"] != nil && $0.metadata["line"] != nil
            }, "\(states.prefix(5).map(\.text))")
        #expect(!states.contains { $0.level < .info })
        #expect(capture.all.allSatisfy { $0.thread == "me-log" && !$0.overlapped })
    }

    @Test("libav's messages, when asked, come in category libav at their levels")
    func libavForwarding() async throws {
        // Damaged pictures: libavcodec says so (errors) while it conceals them.
        let scratch = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let damaged = try await LibavDecoderTests.damagedMovie(in: scratch)
        let (_, capture) = try await LogCapture.capture(level: .critical, forwarding: .init(libav: .warning)) { _ in
            try await play(damaged)
        }
        let libav = capture.all.filter { $0.category == MediaEngineLog.Category.libav }
        #expect(libav.contains { $0.level == .error }, "\(capture.all.prefix(5).map(\.text))")
        #expect(
            libav.allSatisfy { $0.level >= .warning && ["libav", "melibav"].contains($0.metadata["gst.category"]) })
        // Nothing but libav's: GStreamer's own categories were not asked for.
        #expect(capture.all.allSatisfy { $0.category == MediaEngineLog.Category.libav })
    }

    /// A handler that holds the logging thread in its first call until opened.
    final class GatedHandler: MediaEngineLogHandler {
        let logLevel = MediaEngineLog.Level.critical
        let gate = DispatchSemaphore(value: 0)
        let entered = AtomicCounter()
        let records = Locked<[(MediaEngineLog.Level, String, String)]>([])

        func log(level: MediaEngineLog.Level, category: String, message: String, metadata: [String: String]) {
            if entered.increment() == 1 { gate.wait() }
            records.withLock { $0.append((level, category, message)) }
        }
    }

    /// A counter any thread may increment.
    final class AtomicCounter: Sendable {
        private let value = Locked(0)
        func increment() -> Int {
            value.withLock {
                $0 += 1
                return $0
            }
        }
        var current: Int { value.withLock { $0 } }
    }

    @Test("a handler slower than the log: records beyond the bound are dropped and counted, never waited for")
    func bounded() async throws {
        let count = 10_000
        let handler = GatedHandler()
        try await LogCapture.exclusively {
            try MediaEngineLog.setHandler(handler)
            EngineLog.log(.critical, "test", "first")
            try await withDeadline(.seconds(5), "the logging thread takes the first record") {
                try await OwnThread.run { while handler.entered.current == 0 { usleep(1000) } }
            }
            let started = ContinuousClock.now
            for index in 0..<count { EngineLog.log(.critical, "test", "record \(index)") }
            // Emitting never waited for the handler, which is still blocked.
            #expect(ContinuousClock.now - started < .seconds(2))
            handler.gate.signal()
        }
        let records = handler.records.withLock { $0 }
        let delivered = records.filter { $0.1 == "test" && $0.2.hasPrefix("record ") }.count
        let dropped = records.compactMap { record -> Int? in
            guard record.0 == .warning, record.1 == MediaEngineLog.Category.engine,
                record.2.hasSuffix("slower than the log")
            else { return nil }
            return Int(record.2.prefix { $0 != " " })
        }
        #expect(delivered > 0 && !dropped.isEmpty)
        #expect(delivered + dropped.reduce(0, +) == count, "\(delivered) delivered, dropped \(dropped)")
        #expect(records.count <= 4_096 + 3, "the queue holds at most 4,096 records")
    }
}
