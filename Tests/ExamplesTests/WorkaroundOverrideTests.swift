import Foundation
import MediaTestSupport
import Testing

/// `MEDIA_ENGINE_WORKAROUNDS` and `MEDIA_ENGINE_TRACE`, in a process of their own (the registry
/// reads the variable once): each workaround's decision is printed once, at GStreamer's start,
/// with what decided it.
@Suite("Workaround overrides")
struct WorkaroundOverrideTests {
    @Test("MEDIA_ENGINE_WORKAROUNDS turns workarounds off and on; the trace says which are on, and why")
    func overrideAndTrace() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaprobe"), ["--json", clip.path],
            environment: [
                "MEDIA_ENGINE_TRACE": "1",
                "MEDIA_ENGINE_WORKAROUNDS": "all=off,keyframe-flags=on,no-such-workaround=off,gapless-eos=maybe",
            ])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        let decisions = lines.filter { $0.contains("] ") && $0.contains(" workaround ") }
        #expect(decisions.count == 20, "one line per workaround: \(decisions)")
        #expect(
            decisions.contains {
                $0.contains("workaround keyframe-flags: on (") && $0.hasSuffix("MEDIA_ENGINE_WORKAROUNDS)")
            })
        #expect(
            decisions.contains {
                $0.contains("workaround gapless-eos: off (") && $0.hasSuffix("MEDIA_ENGINE_WORKAROUNDS)")
            })
        #expect(decisions.filter { $0.contains(": on (") }.count == 1, "\(decisions)")
        #expect(lines.contains { $0.contains("no workaround is named 'no-such-workaround'") })
        #expect(lines.contains { $0.contains("'gapless-eos=maybe' is not NAME=on or NAME=off") })
    }

    @Test("without the variable, each workaround follows the running GStreamer's version")
    func byVersion() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaprobe"), ["--json", clip.path],
            environment: ["MEDIA_ENGINE_TRACE": "1", "MEDIA_ENGINE_WORKAROUNDS": ""])
        #expect(result.status == 0, "\(result.standardError)")
        let decisions = result.standardError.split(separator: "\n").filter { $0.contains(" workaround ") }
        #expect(decisions.count == 20, "\(decisions)")
        #expect(!decisions.contains { $0.hasSuffix("MEDIA_ENGINE_WORKAROUNDS)") })
        // Unfixed bugs are worked around whatever the version.
        #expect(decisions.contains { $0.contains("workaround gapless-eos: on (") && $0.hasSuffix("; unfixed)") })
    }
}
