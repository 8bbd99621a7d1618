/// Why a document was not read: refused by a bound or for its DTD, or not well-formed XML.
package struct XMLTreeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of document was refused.
    package enum Reason: Equatable, Sendable {
        /// No bytes, or only white space.
        case empty
        /// More bytes than ``XMLTree/Limits/maximumBytes``.
        case tooLarge
        /// An element nested deeper than ``XMLTree/Limits/maximumDepth``.
        case tooDeep
        /// More elements and attributes than ``XMLTree/Limits/maximumNodes``.
        case tooManyNodes
        /// A document type declaration (`<!DOCTYPE`): a DTD, so entity declarations, external
        /// entities and entity expansions (billion laughs); none is ever read.
        case documentType
        /// Not well-formed XML, or in an encoding libxml2 does not read.
        case malformed
        /// Memory ran out while parsing.
        case outOfMemory
    }

    /// What kind of document was refused.
    package let reason: Reason
    /// Where (from 1; 0 when unknown): the line.
    package let line: Int
    /// Where (from 1; 0 when unknown): the column.
    package let column: Int
    /// The rest of the sentence: libxml2's message for a malformed document, the bound otherwise.
    package let detail: String

    /// An error.
    /// - Parameters:
    ///   - reason: What kind of document was refused.
    ///   - line: The line, from 1 (0: unknown).
    ///   - column: The column, from 1 (0: unknown).
    ///   - detail: libxml2's message, or the bound.
    package init(_ reason: Reason, line: Int = 0, column: Int = 0, detail: String = "") {
        self.reason = reason
        self.line = line
        self.column = column
        self.detail = detail
    }

    /// One sentence, without a capital or a full stop, saying why and where.
    package var description: String {
        let sentence =
            switch reason {
            case .empty: "the document is empty"
            case .tooLarge: "the document is larger than the \(detail) bytes allowed"
            case .tooDeep: "an element is nested deeper than the \(detail) levels allowed"
            case .tooManyNodes: "the document has more than the \(detail) elements and attributes allowed"
            case .documentType:
                "the document declares a DTD (<!DOCTYPE>), which is refused: no entity is declared, loaded or expanded"
            case .malformed: detail.isEmpty ? "the document is not well-formed XML" : detail
            case .outOfMemory: "memory ran out while parsing the document"
            }
        return line > 0 ? "line \(line), column \(column): \(sentence)" : sentence
    }
}
