import Foundation
import MediaEngine
import MediaEngineTesting
import MediaTestSupport
import NetworkVideoSink
import Synchronization
import TerminalVideoSink
import Testing

/// The conformance kit run on the engine's built-in sinks and the plugins in `Plugins/`, and on
/// sinks that break the rules, to show the kit fails them.
@Suite("Sink conformance kit")
struct SinkConformanceTests {
    static func clip() async throws -> URL {
        try await VideoSinkConformance.makeClip(in: TestMedia.directory)
    }

    static func expectConforming(_ sink: any VideoSink, sourceLocation: SourceLocation = #_sourceLocation) async throws
    {
        let report = await VideoSinkConformance.check(sink, clip: try await clip())
        #expect(report.failures.isEmpty, "\(report)", sourceLocation: sourceLocation)
        #expect(report.passed.count == 7, "\(report)", sourceLocation: sourceLocation)
    }

    @Test("the built-in frames sink conforms, synchronized or not")
    func frames() async throws {
        try await Self.expectConforming(FrameSink(dropsLateFrames: false) { _ in })
        try await Self.expectConforming(FrameSink(format: .rgba, synchronized: false) { _ in })
    }

    @Test("the built-in null and images sinks conform")
    func nullAndImages() async throws {
        try await Self.expectConforming(NullVideoSink())
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.expectConforming(ImageFileSink(folder: folder, selection: .everyNthFrame(30)))
    }

    @Test("the built-in window sink conforms, on Xvfb")
    func window() async throws {
        let display = try await VirtualDisplay()
        try await Self.expectConforming(WindowSink(display: display.name))
        withExtendedLifetime(display) {}
    }

    @Test("the terminal and network (HLS) plugins conform")
    func plugins() async throws {
        let terminal = try #require(FileHandle(forWritingAtPath: "/dev/null"))
        try await Self.expectConforming(
            TerminalVideoSink(fileDescriptor: terminal.fileDescriptor, columns: 40, rows: 12))
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.expectConforming(NetworkVideoSink(.hls(HLSDestination(folder: folder))))
    }

    /// Says its type is a window once it has made a few outputs.
    final class RuleBreakingSink: VideoSink {
        static let calls = Atomic<Int>(0)
        static var capabilities: VideoSinkCapabilities {
            calls.load(ordering: .relaxed) > 2 ? [.frames, .window] : [.frames]
        }
        func makeOutput() throws(MediaError) -> VideoOutput {
            Self.calls.add(1, ordering: .relaxed)
            return .frames(FrameConsumer(handler: { _ in }))
        }
    }

    /// Its output is a bin of two elements; it names one of them.
    struct UndeclaredElementSink: VideoSink {
        static var capabilities: VideoSinkCapabilities { [] }
        var requiredElements: [String] { ["fakesink"] }
        func makeOutput() throws(MediaError) -> VideoOutput { .element(.bin("identity ! fakesink sync=true")) }
    }

    /// Fails to make an output.
    struct BrokenSink: VideoSink {
        static var capabilities: VideoSinkCapabilities { [] }
        func makeOutput() throws(MediaError) -> VideoOutput {
            throw MediaError(.pipelineFailure, "no output today")
        }
    }

    @Test("a sink that breaks the rules fails the kit, each failure named")
    func failures() async throws {
        let changing = await VideoSinkConformance.check(RuleBreakingSink(), clip: try await Self.clip())
        #expect(changing.failures.contains { $0.hasPrefix("capabilities do not change") }, "\(changing)")
        let undeclared = await VideoSinkConformance.check(UndeclaredElementSink(), clip: try await Self.clip())
        #expect(
            undeclared.failures == [
                #"its elements named in requiredElements: the output uses identity, not in requiredElements ["fakesink"]"#
            ], "\(undeclared)")
        let broken = await VideoSinkConformance.check(
            BrokenSink(), clip: try await Self.clip(), timeout: .seconds(5))
        #expect(broken.failures.contains { $0.hasPrefix("fresh output per pipeline") }, "\(broken)")
        #expect(broken.failures.contains { $0.hasPrefix("plays to the end") }, "\(broken)")
        #expect(broken.failures.contains { $0.hasPrefix("live swap in and out") }, "\(broken)")
    }
}
