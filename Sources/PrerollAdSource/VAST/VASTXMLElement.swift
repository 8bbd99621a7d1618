import Foundation
import MediaEngineCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element of a parsed XML document, as ``VASTParser`` reads it: local name, attributes,
/// text (character data and CDATA sections, in order) and child elements.
///
/// Built with Foundation's `XMLParser` (libxml2's SAX parser) rather than `XMLDocument`:
/// on Linux, `XMLDocument(data:)` crashes on input that is not XML at all (libxml2 hands
/// back no document and FoundationXML dereferences it), and an ad server's answer may be
/// anything. The bytes go through ``FoundationXMLInput`` first: UTF-8 only, no processing
/// instruction, and a document with a DOCTYPE is refused (so no entity is ever loaded or expanded).
struct VASTXMLElement {
    var name: String
    var attributes: [String: String]
    var text = ""
    var children: [VASTXMLElement] = []

    /// The text with surrounding whitespace (the newlines around a CDATA section) removed.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The child elements named `name`, in order.
    func children(named name: String) -> [VASTXMLElement] {
        children.filter { $0.name == name }
    }

    /// The first child element named `name`.
    func child(named name: String) -> VASTXMLElement? {
        children.first { $0.name == name }
    }

    /// An attribute's value, trimmed; nil when missing or blank.
    func attribute(_ name: String) -> String? {
        guard let value = attributes[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// The document element of `data`.
    /// - Throws: A sentence saying why when `data` is not well-formed XML.
    static func parse(_ data: Data) throws(VASTXMLError) -> VASTXMLElement {
        // FoundationXML traps on some input libxml2 accepts (FoundationXMLInput says which).
        guard let safe = FoundationXMLInput.sanitized([UInt8](data)) else {
            throw VASTXMLError(
                message: "the document is not UTF-8 (nor an encoding its XML declaration names and the parser "
                    + "converts), has a DOCTYPE, or an unterminated processing instruction")
        }
        let parser = XMLParser(data: Data(safe))
        let builder = Builder()
        parser.delegate = builder
        // Elements by local name: VAST 4 documents put everything in the
        // `http://www.iab.com/VAST` namespace, by default or with a prefix.
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let finished = parser.parse()
        // libxml2 reports some errors (a mismatched end tag, content after the root) through
        // the error while `parse()` still returns true: both are checked, and the builder's
        // own count of open elements.
        if let error = parser.parserError ?? builder.error {
            throw VASTXMLError(
                message: "line \(parser.lineNumber), column \(parser.columnNumber): \(Self.describe(error))")
        }
        guard finished, builder.stack.isEmpty, let root = builder.root else {
            throw VASTXMLError(message: builder.root == nil ? "no XML element" : "the XML document is incomplete")
        }
        return root
    }

    private static func describe(_ error: any Error) -> String {
        let error = error as NSError
        return "\(error.domain) error \(error.code)"
    }

    /// `XMLParser`'s delegate: a stack of open elements.
    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [VASTXMLElement] = []
        var root: VASTXMLElement?
        var error: (any Error)?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            stack.append(VASTXMLElement(name: elementName, attributes: attributeDict))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA cdataBlock: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: cdataBlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil { error = parseError }
        }

        func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
            if error == nil { error = validationError }
        }
    }
}

/// Why a VAST document is not well-formed XML.
struct VASTXMLError: Error {
    let message: String
}
