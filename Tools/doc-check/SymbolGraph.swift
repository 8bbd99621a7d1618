/// The parts of a symbol graph file (`Module.symbols.json`, `Module@Other.symbols.json`, written by
/// `swiftc -emit-symbol-graph`) that the check reads. Everything else in the file is ignored.
struct SymbolGraph: Decodable {
    /// One declaration.
    struct Symbol: Decodable {
        struct Kind: Decodable {
            /// `swift.struct`, `swift.enum.case`, `swift.method`, ...
            let identifier: String
        }

        struct Identifier: Decodable {
            /// The USR; members the compiler copies from a protocol extension carry `::SYNTHESIZED::`.
            let precise: String
        }

        struct Location: Decodable {
            struct Position: Decodable {
                /// Zero-based.
                let line: Int
            }

            /// A `file://` URL of the source file.
            let uri: String
            let position: Position
        }

        struct DocComment: Decodable {
            struct Line: Decodable {
                let text: String
            }

            /// The module the comment was written in: another module's when the symbol inherits
            /// the comment of a protocol requirement or overridden declaration it implements.
            let module: String?
            let lines: [Line]
        }

        let kind: Kind
        let identifier: Identifier
        let pathComponents: [String]
        let accessLevel: String
        let location: Location?
        let docComment: DocComment?
    }

    let symbols: [Symbol]
}
