import CMediaEngineXML
import Foundation

/// Hostile XML (an ad server's VAST answer, a DASH manifest) read into ``XMLTreeElement``s with
/// libxml2, called directly (`me_xml_parse`, CMediaEngineXML): from memory only (no network, no
/// file), a document with a DTD refused before any of it is read (so no entity is declared,
/// loaded or expanded: no external entities, no billion laughs), and bounded in size, depth and
/// the number of elements and attributes while it is parsed. Processing instructions and
/// comments are skipped; the bytes are UTF-8, UTF-16 with a byte order mark, or in the encoding
/// their XML declaration names. Thread-safe; nothing is printed; everything libxml2 allocated is
/// freed before it returns.
package enum XMLTree {
    /// The bounds of one parse.
    package struct Limits: Sendable, Equatable {
        /// The most bytes read; a larger document is refused unread.
        package var maximumBytes: Int
        /// The deepest element (the document element is at depth 1), at most 255.
        package var maximumDepth: Int
        /// The most elements and attributes together.
        package var maximumNodes: Int

        /// Bounds.
        /// - Parameters:
        ///   - maximumBytes: The most bytes read.
        ///   - maximumDepth: The deepest element, at most 255 (more reads as 255).
        ///   - maximumNodes: The most elements and attributes together.
        package init(maximumBytes: Int, maximumDepth: Int, maximumNodes: Int) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
            self.maximumNodes = maximumNodes
        }
    }

    /// The document element of a document's bytes.
    /// - Parameters:
    ///   - bytes: The document, in UTF-8, UTF-16 with a byte order mark, or the encoding its XML
    ///     declaration names.
    ///   - limits: The bounds it must keep within.
    /// - Throws: ``XMLTreeError`` saying why the document was not read.
    /// - Returns: The document element.
    package static func parse(_ bytes: Data, limits: Limits) throws(XMLTreeError) -> XMLTreeElement {
        try bytes.withUnsafeBytes { parse($0, limits: limits, utf8Only: false) }.get()
    }

    /// The document element of a document that is text already: read as UTF-8, whatever its
    /// XML declaration says.
    /// - Parameters:
    ///   - text: The document.
    ///   - limits: The bounds it must keep within (``Limits/maximumBytes`` counts UTF-8 bytes).
    /// - Throws: ``XMLTreeError`` saying why the document was not read.
    /// - Returns: The document element.
    package static func parse(_ text: String, limits: Limits) throws(XMLTreeError) -> XMLTreeElement {
        var text = text
        return try text.withUTF8 { parse(UnsafeRawBufferPointer($0), limits: limits, utf8Only: true) }.get()
    }

    private static func parse(
        _ bytes: UnsafeRawBufferPointer, limits: Limits, utf8Only: Bool
    ) -> Result<XMLTreeElement, XMLTreeError> {
        var bounds = me_xml_limits(
            max_bytes: max(0, limits.maximumBytes), max_depth: UInt32(clamping: max(0, limits.maximumDepth)),
            max_nodes: max(0, limits.maximumNodes), utf8_only: utf8Only ? 1 : 0)
        var handler = me_xml_handler(
            start_element: { context, name, attributes, count in
                var values: [String: String] = [:]
                for attribute in UnsafeBufferPointer(start: attributes, count: count) {
                    guard let name = attribute.name, let value = attribute.value else { continue }
                    let local = String(cString: name)
                    // Not `uniqueKeysWithValues`: `a:x` and `b:x` are two attributes even when a
                    // hostile document binds `a` and `b` to one namespace.
                    values[attribute.prefix.map { String(cString: $0) + ":" + local } ?? local] = String(
                        cString: value)
                }
                TreeBuilder.at(context).pointee.start(name.map { String(cString: $0) } ?? "", attributes: values)
            },
            characters: { context, bytes, length in
                guard let bytes else { return }
                let text = UnsafeRawBufferPointer(start: bytes, count: length)
                TreeBuilder.at(context).pointee.characters(String(decoding: text, as: UTF8.self))
            },
            end_element: { context in
                TreeBuilder.at(context).pointee.end()
            })
        var tree = TreeBuilder()
        var error = me_xml_error()
        let status = withUnsafeMutablePointer(to: &tree) { (pointer) -> me_xml_status in
            me_xml_parse(bytes.baseAddress, bytes.count, &bounds, &handler, pointer, &error)
        }
        guard status == ME_XML_OK, tree.stack.isEmpty, let root = tree.root else {
            return .failure(Self.error(status, error, limits: limits))
        }
        return .success(root)
    }

    private static func error(
        _ status: me_xml_status, _ error: me_xml_error, limits: Limits
    ) -> XMLTreeError {
        let line = Int(error.line)
        let column = Int(error.column)
        switch status {
        case ME_XML_EMPTY: return XMLTreeError(.empty)
        case ME_XML_TOO_LARGE: return XMLTreeError(.tooLarge, detail: "\(limits.maximumBytes)")
        case ME_XML_TOO_DEEP:
            return XMLTreeError(.tooDeep, line: line, column: column, detail: "\(min(limits.maximumDepth, 255))")
        case ME_XML_TOO_MANY_NODES:
            return XMLTreeError(.tooManyNodes, line: line, column: column, detail: "\(limits.maximumNodes)")
        case ME_XML_DOCUMENT_TYPE: return XMLTreeError(.documentType, line: line, column: column)
        case ME_XML_NO_MEMORY: return XMLTreeError(.outOfMemory)
        default:
            let message = withUnsafeBytes(of: error.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return XMLTreeError(.malformed, line: line, column: column, detail: message)
        }
    }
}

/// A stack of open elements, from `me_xml_parse`'s calls.
private struct TreeBuilder {
    var stack: [XMLTreeElement] = []
    var root: XMLTreeElement?

    /// The tree under construction, from the context `me_xml_parse` hands back.
    static func at(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<TreeBuilder> {
        guard let context else { preconditionFailure("me_xml_parse called back without its context") }
        return context.assumingMemoryBound(to: TreeBuilder.self)
    }

    mutating func start(_ name: String, attributes: [String: String]) {
        // The local name, also when libxml2 keeps an undeclared prefix in it (`v:Linear`).
        let local = name.split(separator: ":").last.map(String.init) ?? name
        stack.append(XMLTreeElement(name: local, attributes: attributes))
    }

    mutating func characters(_ text: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += text
    }

    mutating func end() {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }
}
