import Foundation

/// Lists every public symbol of the named modules that has no doc comment, from the symbol graphs
/// the compiler writes (`swift build -Xswiftc -emit-symbol-graph ...`, see `make docs`), and exits
/// with status 1 when there is one. Usage: `doc-check GRAPH_FOLDER MODULE...`.
///
/// A symbol counts when it is `public` or `open` and declared in this repository's source; the
/// compiler's own members are skipped: those with no source location (an enum's `init(rawValue:)`,
/// synthesized `Equatable`, `Hashable` and `Codable` members) and copies of protocol extension
/// members (`::SYNTHESIZED::` USRs; the build also passes `-symbol-graph-skip-synthesized-members`);
/// extension blocks of other modules' types are not symbols of their own, their members are.
/// A symbol without a comment of its own that implements a requirement documented in the same
/// module counts as documented, as DocC shows that comment; a comment inherited from another
/// module (the standard library's `RawRepresentable.rawValue`, say) does not, as DocC leaves it
/// out unless run with `--enable-inherited-docs`.
@main
enum DocCheck {
    /// A public symbol without a doc comment, where its declaration is.
    struct Finding: Comparable {
        /// The source file, from the repository's root.
        let file: String
        /// The declaration's line, from 1.
        let line: Int
        /// `Module.Type.member (swift.method) has no doc comment`.
        let text: String

        static func < (left: Finding, right: Finding) -> Bool {
            (left.file, left.line, left.text) < (right.file, right.line, right.text)
        }
    }

    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count >= 2, let folder = arguments.first else {
            fail("usage: doc-check GRAPH_FOLDER MODULE...")
        }
        let modules = Array(arguments.dropFirst())
        let root = FileManager.default.currentDirectoryPath
        var missing: [Finding] = []
        var checked = 0
        for module in modules {
            let files = graphFiles(of: module, in: folder)
            guard files.contains(where: { $0.lastPathComponent == "\(module).symbols.json" }) else {
                fail("doc-check: no \(module).symbols.json in \(folder) (was \(module) built with -emit-symbol-graph?)")
            }
            for file in files {
                let graph: SymbolGraph
                do {
                    graph = try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: file))
                } catch {
                    fail("doc-check: cannot read \(file.path): \(error)")
                }
                let result = check(graph, module: module, root: root)
                checked += result.checked
                missing += result.missing
            }
        }
        let names = modules.joined(separator: ", ")
        guard missing.isEmpty else {
            for finding in missing.sorted() { print("\(finding.file):\(finding.line): \(finding.text)") }
            print("doc-check: \(missing.count) of \(checked) public symbols in \(names) have no doc comment")
            exit(1)
        }
        print("doc-check: all \(checked) public symbols in \(names) have doc comments")
    }

    /// The symbols of one graph file that count, and those of them without a doc comment.
    /// - Parameters:
    ///   - graph: A graph of `module` (its own, or one of its extension graphs).
    ///   - module: The module whose source declares the symbols.
    ///   - root: The repository's root; symbols declared elsewhere are not ours.
    /// - Returns: How many symbols were checked, and the findings in the graph's order.
    static func check(_ graph: SymbolGraph, module: String, root: String) -> (checked: Int, missing: [Finding]) {
        let symbols = graph.symbols.filter { isChecked($0, root: root) }
        let missing = symbols.filter { !isDocumented($0, in: module) }.map { symbol in
            Finding(
                file: relative(symbol.location?.uri, root: root), line: (symbol.location?.position.line ?? 0) + 1,
                text: describe(symbol, module: module))
        }
        return (symbols.count, missing)
    }

    /// `Module.symbols.json` and the module's extension graphs (`Module@Swift.symbols.json`: its
    /// extensions of other modules' types), in name order.
    static func graphFiles(of module: String, in folder: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return
            names
            .filter { $0 == "\(module).symbols.json" || ($0.hasPrefix("\(module)@") && $0.hasSuffix(".symbols.json")) }
            .sorted()
            .map { URL(fileURLWithPath: folder).appendingPathComponent($0) }
    }

    /// Public, written in this repository's source, and not a compiler-made copy.
    static func isChecked(_ symbol: SymbolGraph.Symbol, root: String) -> Bool {
        guard symbol.accessLevel == "public" || symbol.accessLevel == "open" else { return false }
        guard !symbol.identifier.precise.contains("::SYNTHESIZED::") else { return false }
        // An extension block (`-emit-extension-block-symbols`) of another module's type: its members are checked.
        guard symbol.kind.identifier != "swift.extension" else { return false }
        guard let location = symbol.location, let path = URL(string: location.uri)?.path else { return false }
        return path.hasPrefix(root + "/")
    }

    /// A comment of its own, or one inherited within the module; not blank.
    static func isDocumented(_ symbol: SymbolGraph.Symbol, in module: String) -> Bool {
        guard let comment = symbol.docComment, comment.module == nil || comment.module == module else { return false }
        return comment.lines.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// `Module.Type.member (swift.method) has no doc comment`.
    static func describe(_ symbol: SymbolGraph.Symbol, module: String) -> String {
        let name = ([module] + symbol.pathComponents).joined(separator: ".")
        return "\(name) (\(symbol.kind.identifier)) has no doc comment"
    }

    /// The source file's path from the repository's root (printed as `path:line:`, for an editor).
    static func relative(_ uri: String?, root: String) -> String {
        guard let uri, let path = URL(string: uri)?.path else { return "?" }
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
