import Foundation
import Testing

/// The player's machine stays a value that decides without the world (STYLE.md, "State machines
/// you can test without the world"): no file of Sources/MediaEngineCore/Player/StateMachine
/// imports a C module, Foundation, Dispatch, Glibc or a lock, or calls what does I/O or reads a
/// clock. What the machine needs from the world it asks for with an action.
@Suite("Player machine: purity")
struct MachinePurityTests {
    /// Sources/MediaEngineCore/Player/StateMachine, from this file's place in Tests/MediaEngineTests/StateMachine.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Sources/MediaEngineCore/Player/StateMachine")

    /// Modules the machine must not import: C modules (`CMediaEngineCGStreamer`, the shims: anything starting
    /// with C), Foundation (and its parts), Dispatch, the C library, locks.
    static func isForbidden(module: String) -> Bool {
        module.hasPrefix("C") || module.hasPrefix("Foundation") || module == "Dispatch" || module == "Glibc"
            || module == "Musl" || module == "Synchronization"
    }

    /// Calls that do I/O or read a clock, and why each is out of place. A source's `interpret(_:)`
    /// is told from the machine's own action, `.interpret(session:...)`.
    static let calls: [(pattern: String, why: String)] = [
        (#"\.interpret\((?!\s*(session:|let\b|_\b))"#, "a source's interpret(_:) (it may read its file)"),
        (#"\.truncation\(\)"#, "a source's truncation() (it reads its file)"),
        (#"\.videoKeyframeTimes\(\)"#, "a source's videoKeyframeTimes() (it reads its file)"),
        (#"\bvalidate\(\)"#, "a source's validate() (it opens its file)"),
        (#"\bDispatchTime\b|\bDispatchWallTime\b"#, "a clock"),
        (#"\bDate\("#, "a clock"),
        (#"\bContinuousClock\b|\bSuspendingClock\b"#, "a clock"),
        (#"\bFileManager\b|\bFileHandle\b"#, "the file system"),
        (#"\bgst_"#, "GStreamer"),
        (#"\bme_"#, "the engine's C shim"),
    ]

    static let importLine =
        #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)"#

    /// A line without its `//` comment (one outside a string literal).
    static func code(of line: Substring) -> Substring {
        var inString = false
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if character == "\"" && previous != "\\" { inString.toggle() }
            if !inString && character == "/" && previous == "/" { return line[..<line.index(before: index)] }
            previous = character
        }
        return line
    }

    /// What is wrong with `text`, one message a line, each naming `file` and the line.
    static func violations(in text: String, file: String) throws -> [String] {
        // Simple word boundaries: Unicode's would see `source.validate` as one word.
        let importRegex = try Regex(importLine).wordBoundaryKind(.simple)
        let callRegexes = try calls.map { (try Regex($0.pattern).wordBoundaryKind(.simple), $0.why) }
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = Self.code(of: line)
            let place = "\(file):\(number + 1)"
            let quoted = line.trimmingCharacters(in: .whitespaces)
            if let match = try importRegex.firstMatch(in: code), let module = match.output[1].substring,
                isForbidden(module: String(module))
            {
                found.append("\(place) imports \(module): the machine does no I/O and reads no clock: `\(quoted)`")
            }
            for (regex, why) in callRegexes where try regex.firstMatch(in: code) != nil {
                found.append("\(place) calls \(why); ask for it with an action instead: `\(quoted)`")
            }
        }
        return found
    }

    @Test("no file of the machine imports a C module, Foundation, Dispatch or Glibc, or does I/O or reads a clock")
    func pure() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(
            names.contains("PlayerMachine.swift"),
            "the machine's files are not where this test looks: \(Self.folder.path)")
        for name in names {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            for violation in try Self.violations(in: text, file: "StateMachine/\(name)") {
                Issue.record(Comment(rawValue: violation))
            }
        }
    }

    @Test("the check finds each kind of line it is for, and leaves the machine's own actions and comments alone")
    func catches() throws {
        let impure = [
            "import CMediaEngineCGStreamer", "internal import CGStreamerShim", "@preconcurrency import Dispatch",
            "import Foundation", "import struct Foundation.Date", "import Glibc",
            "let error = source.interpret(error)", "let times = movie.source.videoKeyframeTimes()",
            "let cut = source.truncation()", "try source.validate()", "let now = DispatchTime.now()",
            "let started = Date()", "let clock = ContinuousClock()", "FileManager.default.fileExists(atPath: path)",
            "gst_element_get_state(element, nil, nil, 0)", "me_send_seek_upstream(video, audio, event)",
        ]
        for line in impure {
            #expect(try Self.violations(in: line, file: "X.swift").count == 1, "\(line)")
        }
        let pure = [
            "import Testing", "perform(.interpret(session: session, epoch: epoch, source: ref, error: e, position: p))",
            "case .interpret(let session, let epoch, _, let error, _): \"interpret\"",
            "case .interpret(_, _, _, let error, _): break", "static func validate(rate: Double) throws(MediaError)",
            "let cut = facts.truncation?.playableDuration", "// gst_element_get_state: the pipeline's, not ours",
            "var updated = isUpToDate(x)", "let name = \"a // b\"",
        ]
        for line in pure {
            #expect(try Self.violations(in: line, file: "X.swift").isEmpty, "\(line)")
        }
        #expect(
            try Self.violations(in: "let a = 1\nlet now = DispatchTime.now()", file: "Y.swift").first?.hasPrefix(
                "Y.swift:2 calls a clock") == true)
    }
}
