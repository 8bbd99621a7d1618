import Foundation
import Testing

@testable import doc_check

/// Which symbols of a symbol graph `make docs` requires a doc comment on, from graphs written
/// as `swiftc -emit-symbol-graph` writes them (only the fields the check reads).
@Suite("doc-check")
struct DocCheckTests {
    static let root = "/repo"

    /// One symbol's JSON: public, declared at line `line` (zero-based) of Sources/M/File.swift
    /// unless told otherwise.
    static func symbol(
        _ path: [String], kind: String = "swift.method", precise: String? = nil, access: String = "public",
        file: String? = "/repo/Sources/M/File.swift", line: Int = 9, doc: [String]? = nil, docModule: String? = nil
    ) -> String {
        var fields = [
            #""kind": {"identifier": "\#(kind)"}"#,
            #""identifier": {"precise": "\#(precise ?? "s:1M" + path.joined())"}"#,
            #""pathComponents": [\#(path.map { "\"\($0)\"" }.joined(separator: ", "))]"#,
            #""accessLevel": "\#(access)""#,
        ]
        if let file { fields.append(#""location": {"uri": "file://\#(file)", "position": {"line": \#(line)}}"#) }
        if let doc {
            let lines = doc.map { #"{"text": "\#($0)"}"# }.joined(separator: ", ")
            let module = docModule.map { #""module": "\#($0)", "# } ?? ""
            fields.append(#""docComment": {\#(module)"lines": [\#(lines)]}"#)
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func check(_ symbols: [String]) throws -> (checked: Int, missing: [String]) {
        let json = #"{"module": {"name": "M"}, "symbols": [\#(symbols.joined(separator: ", "))], "relationships": []}"#
        let graph = try JSONDecoder().decode(SymbolGraph.self, from: Data(json.utf8))
        let result = DocCheck.check(graph, module: "M", root: root)
        return (result.checked, result.missing.map { "\($0.file):\($0.line): \($0.text)" })
    }

    @Test("a public or open symbol without a comment, or with a blank one, is listed with its file and line")
    func missing() throws {
        let result = try Self.check([
            Self.symbol(["Player", "play()"]),
            Self.symbol(["Player"], kind: "swift.class", access: "open", line: 2),
            Self.symbol(["Player", "rate"], kind: "swift.property", doc: ["", "  "]),
            Self.symbol(["Player", "stop()"], doc: ["Stops."]),
        ])
        #expect(result.checked == 4)
        #expect(
            result.missing == [
                "Sources/M/File.swift:10: M.Player.play() (swift.method) has no doc comment",
                "Sources/M/File.swift:3: M.Player (swift.class) has no doc comment",
                "Sources/M/File.swift:10: M.Player.rate (swift.property) has no doc comment",
            ])
    }

    @Test("what the compiler made, extension blocks, other modules' files and non-public symbols are not checked")
    func skipped() throws {
        let result = try Self.check([
            Self.symbol(["Kind", "init(rawValue:)"], kind: "swift.init", file: nil),  // synthesized: no location
            Self.symbol(["Sink", "capabilities"], precise: "s:1M4SinkP12capabilities::SYNTHESIZED::s:1M3RawV"),
            Self.symbol(["MoviePlayer"], kind: "swift.extension"),
            Self.symbol(["Foreign"], file: "/elsewhere/Sources/F/F.swift"),
            Self.symbol(["Player", "helper()"], access: "internal"),
            Self.symbol(["Player", "cache"], access: "package"),
        ])
        #expect(result.checked == 0)
        #expect(result.missing.isEmpty)
    }

    @Test("a comment inherited within the module counts; one inherited from another module does not")
    func inherited() throws {
        let result = try Self.check([
            Self.symbol(["Text", "bitmap(for:)"], doc: ["The pixels."], docModule: "M"),
            Self.symbol(["Options", "rawValue"], kind: "swift.property", doc: ["The raw value."], docModule: "Swift"),
        ])
        #expect(result.checked == 2)
        #expect(result.missing == ["Sources/M/File.swift:10: M.Options.rawValue (swift.property) has no doc comment"])
    }
}
