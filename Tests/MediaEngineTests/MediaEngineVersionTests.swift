import Foundation
import MediaEngine
import Testing

/// The version constant, the changelog and the README's dependency line say the same version.
@Suite("Version")
struct MediaEngineVersionTests {
    /// The package's root folder, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    static func text(of file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    /// The versions of CHANGELOG.md's `## [X.Y.Z] - DATE` headings, newest first.
    static func releases() throws -> [String] {
        try text(of: "CHANGELOG.md").split(separator: "\n").compactMap { line in
            guard line.hasPrefix("## ["), let end = line.firstIndex(of: "]") else { return nil }
            let name = line[line.index(line.startIndex, offsetBy: 4)..<end]
            return name == "Unreleased" ? nil : String(name)
        }
    }

    @Test("MediaEngineVersion.current is CHANGELOG.md's newest release, below its Unreleased section")
    func changelog() throws {
        let releases = try Self.releases()
        #expect(releases.first == MediaEngineVersion.current.description, "\(releases)")
        let headings = try Self.text(of: "CHANGELOG.md").split(separator: "\n").filter { $0.hasPrefix("## ") }
        #expect(headings.first == "## [Unreleased]", "\(headings)")
        // Each release's heading is MAJOR.MINOR.PATCH and a date, newest first.
        let parsed = releases.map { $0.split(separator: ".").compactMap { Int($0) } }
        #expect(parsed.allSatisfy { $0.count == 3 }, "\(releases)")
        let versions = parsed.filter { $0.count == 3 }.map { MediaEngineVersion($0[0], $0[1], $0[2]) }
        #expect(versions == versions.sorted(by: >), "\(releases)")
        for release in releases {
            #expect(
                headings.contains {
                    $0.range(of: #"^## \[\#(release)\] - \d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil
                },
                "no dated heading for \(release)")
        }
    }

    @Test("the README's and the guide's dependency lines ask for the current version")
    func readme() throws {
        for file in ["README.md", "Sources/MediaEngineCore/MediaEngineCore.docc/Embedding.md"] {
            let text = try Self.text(of: file)
            #expect(text.contains(#"from: "\#(MediaEngineVersion.current)")"#), "\(file)")
            #expect(!text.contains("branch: \"main\""), "\(file)")
        }
    }

    @Test("versions compare by major, then minor, then patch")
    func ordering() {
        #expect(MediaEngineVersion(0, 9, 9) < MediaEngineVersion(1, 0, 0))
        #expect(MediaEngineVersion(1, 2, 3) < MediaEngineVersion(1, 10, 0))
        #expect(MediaEngineVersion(1, 2, 3) < MediaEngineVersion(1, 2, 4))
        #expect(!(MediaEngineVersion(1, 2, 3) < MediaEngineVersion(1, 2, 3)))
        #expect(MediaEngineVersion(0, 1, 0).description == "0.1.0")
    }
}
