import Foundation
import MediaTestSupport
import Testing

/// `mediaplay` given several movies plays them as a queue.
@Suite("mediaplay queue")
struct MediaplayQueueTests {
    @Test("mediaplay FILE FILE plays both, says when the second starts, and finishes once")
    func twoFiles() async throws {
        let first = try await TestMedia.url(for: TestMedia.numbered)
        let second = try await TestMedia.url(for: TestMedia.wideBars)
        let result = try await ProcessRunner.run(
            // Unpaced: a paced frames sink drops frames that come late, which a busy machine makes
            // happen; this counts every frame of both movies.
            BuildProducts.executable("mediaplay"), ["--sink", "frames:sync=false", first.path, second.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("next (2 of 2): \(second.path), 1.00 s"), "\(lines)")
        #expect(lines.filter { $0.hasPrefix("finished:") } == ["finished: playbackEnded (90 frames)"], "\(lines)")
    }
}
