import Foundation
import Testing

/// What Package.swift declares for the C modules: names that cannot clash in an app's package
/// graph, and system libraries that Swift loads before the engine's C targets.
@Suite("Package manifest")
struct PackageManifestTests {
    /// The names of the targets Package.swift declares with `kind` (`systemLibrary`, `target`).
    static func names(of kind: String) throws -> [String] {
        let manifest = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Package.swift").standardizedFileURL, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.\#(kind)\(\s*name:\s*"([^"]+)""#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        return pattern.matches(in: manifest, range: range).compactMap { match in
            Range(match.range(at: 1), in: manifest).map { String(manifest[$0]) }
        }
    }

    @Test("every C and system-library module is named CMediaEngine...")
    func prefixed() throws {
        let systemLibraries = try Self.names(of: "systemLibrary")
        let cTargets = try Self.names(of: "target").filter { $0.first == "C" }
        #expect(systemLibraries.count >= 7 && cTargets.count >= 10, "\(systemLibraries) \(cTargets)")
        let unprefixed = (systemLibraries + cTargets).filter { !$0.hasPrefix("CMediaEngine") }
        #expect(unprefixed.isEmpty, "\(unprefixed)")
    }

    /// The C targets' headers include GStreamer's and GLib's textually; Swift gives each of those
    /// declarations to the first module holding it that it loads, and it loads a module's C
    /// dependencies in the order of their names. A system library named after a C target
    /// (`CMediaEngineGStreamer` after `CMediaEngineElements`) left GStreamer's enum constants to
    /// that target, and files importing the GStreamer module alone could not see them.
    @Test("every system library's name sorts before every C target's")
    func systemLibrariesFirst() throws {
        let systemLibraries = try Self.names(of: "systemLibrary")
        let cTargets = try Self.names(of: "target").filter { $0.hasPrefix("CMediaEngine") }
        let late = systemLibraries.filter { library in cTargets.contains { $0 < library } }
        #expect(late.isEmpty, "system libraries that sort after a C target: \(late)")
    }
}
