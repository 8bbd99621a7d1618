import Foundation
import MediaEngine
import MediaEngineCore
import Testing

/// The workarounds' registry as Swift sees it (`GStreamerWorkaround`, over `me_workarounds.h`).
/// The environment variable is read once per process: WorkaroundOverrideTests runs processes of
/// their own for it.
@Suite("GStreamer workarounds' registry")
struct GStreamerWorkaroundTests {
    @Test("one table: every workaround has a name of its own, the bug, and its fix's version when there is one")
    func table() {
        let names = GStreamerWorkaround.allCases.map(\.name)
        #expect(names.count == GStreamerWorkaround.allCases.count && names.count == 20)
        #expect(Set(names).count == names.count, "\(names)")
        for workaround in GStreamerWorkaround.allCases {
            #expect(!workaround.name.isEmpty && !workaround.name.contains(where: \.isWhitespace))
            #expect(workaround.summary.count > 20, "\(workaround.name)")
            if let fixed = workaround.fixedIn {
                #expect(fixed.split(separator: ".").count == 3, "\(workaround.name): \(fixed)")
            }
        }
        #expect(GStreamerWorkaround.tsdemuxID3.fixedIn == "1.28.0")
        #expect(GStreamerWorkaround.playsinkVolumeLeak.fixedIn == "1.22.3")
        #expect(GStreamerWorkaround.gaplessEOS.fixedIn == nil)
    }

    @Test("a workaround is on while the running GStreamer is older than its fix")
    func byVersion() throws {
        try GStreamer.initialize()
        // "GStreamer 1.22.0" (or "GStreamer 1.22.0.1" for a build from git).
        let parts = GStreamer.version.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
        try #require(parts.count >= 3)
        for workaround in GStreamerWorkaround.allCases {
            let fixed = workaround.fixedIn?.split(separator: ".").compactMap { Int($0) }
            let affected = fixed.map { parts.prefix(3).lexicographicallyPrecedes($0) } ?? true
            // Unless the environment of this test process overrides it.
            guard ProcessEnvironmentOverride.names.contains(workaround.name) == false else { continue }
            #expect(workaround.isActive == affected, "\(workaround.name) under \(GStreamer.version)")
        }
    }

    @Test("a workaround forced off and on, then back to the version's answer")
    func force() {
        // One whose being off a moment harms no test running beside this one (a CRITICAL logged).
        let workaround = GStreamerWorkaround.overlayGlobalAlpha
        let decided = workaround.isActive
        defer { workaround.force(nil) }
        workaround.force(false)
        #expect(!workaround.isActive)
        workaround.force(true)
        #expect(workaround.isActive)
        workaround.force(nil)
        #expect(workaround.isActive == decided)
    }
}

/// The workarounds this test process's MEDIA_ENGINE_WORKAROUNDS names, if any (`all` names each).
private enum ProcessEnvironmentOverride {
    static var names: Set<String> {
        guard let setting = ProcessInfo.processInfo.environment["MEDIA_ENGINE_WORKAROUNDS"] else { return [] }
        let named = Set(setting.split(separator: ",").compactMap { $0.split(separator: "=").first.map(String.init) })
        return named.contains("all") ? Set(GStreamerWorkaround.allCases.map(\.name)) : named
    }
}
