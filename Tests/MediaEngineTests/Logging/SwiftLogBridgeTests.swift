import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The bridge to swift-log that the Logging article shows, compiled against the part of
/// swift-log's API it uses (swift-log is an outside package, not built here): `Logger`,
/// `Logger.Level`, `Logger.Message`, `Logger.Metadata` and `Logger.log(level:_:metadata:source:file:function:line:)`,
/// with swift-log's names, raw values and signatures. The bridge's text is the article's, word
/// for word; the test shows it carries a real engine record across.
@Suite("The swift-log bridge")
struct SwiftLogBridgeTests {
    /// swift-log's `Logger`, as far as the bridge uses it; what it logs is kept in `entries`.
    struct Logger: Sendable {
        enum Level: String, Codable, CaseIterable, Sendable {
            case trace, debug, info, notice, warning, error, critical
        }
        enum MetadataValue: Sendable, Equatable {
            case string(String)
            case array([MetadataValue])
            case dictionary([String: MetadataValue])
        }
        typealias Metadata = [String: MetadataValue]
        struct Message: ExpressibleByStringInterpolation, Sendable {
            let text: String
            init(stringLiteral value: String) { text = value }
        }
        struct Entry: Sendable {
            let level: Level
            let message: String
            let metadata: Metadata?
            let source: String?
        }

        let label: String
        var logLevel: Level = .info
        let entries = Locked<[Entry]>([])

        init(label: String) { self.label = label }

        func log(
            level: Level, _ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil,
            source: @autoclosure () -> String? = nil, file: String = #fileID, function: String = #function,
            line: UInt = #line
        ) {
            let entry = Entry(level: level, message: message().text, metadata: metadata(), source: source())
            entries.withLock { $0.append(entry) }
        }
    }

    // The article's bridge (Logging.md), word for word.
    struct SwiftLogBridge: MediaEngineLogHandler {
        let logger: Logger

        var logLevel: MediaEngineLog.Level { MediaEngineLog.Level(rawValue: logger.logLevel.rawValue) ?? .info }

        func log(level: MediaEngineLog.Level, category: String, message: String, metadata: [String: String]) {
            logger.log(
                level: Logger.Level(rawValue: level.rawValue) ?? .info, "\(message)",
                metadata: metadata.mapValues { .string($0) }, source: category)
        }
    }

    @Test("levels have swift-log's names, in swift-log's order")
    func levels() {
        #expect(MediaEngineLog.Level.allCases.map(\.rawValue) == Logger.Level.allCases.map(\.rawValue))
        #expect(MediaEngineLog.Level.allCases == MediaEngineLog.Level.allCases.sorted())
    }

    @Test("the bridge carries the engine's records into a Logger: level, message, metadata, category as source")
    func bridges() async throws {
        var logger = Logger(label: "media-engine")
        logger.logLevel = .debug
        let bridge = SwiftLogBridge(logger: logger)
        #expect(bridge.logLevel == .debug)
        let clip = try await TestMedia.url(for: TestMedia.bars)
        try await LogCapture.exclusively {
            try MediaEngineLog.setHandler(bridge, forwarding: .init(gstreamer: "GST_STATES:4"))
            let player = MoviePlayer(
                source: FileSource(url: clip), videoSink: NullVideoSink(synchronized: false), audioOutput: .discard)
            player.shouldAutoplay = false
            try await player.prepareToPlay()
            await player.shutdown()
        }
        let entries = logger.entries.withLock { $0 }
        #expect(entries.contains { $0.level == .debug && $0.source == MediaEngineLog.Category.player })
        #expect(
            entries.contains {
                $0.level == .info && $0.source == MediaEngineLog.Category.gstreamer
                    && $0.metadata?["gst.category"] == .string("GST_STATES")
            })
    }
}
