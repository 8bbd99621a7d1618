import Foundation

/// A hostile XML document made safe for Foundation's `XMLParser` on Linux (FoundationXML over
/// libxml2's SAX parser), which the VAST parser and the DASH manifest reader use.
///
/// FoundationXML traps or dereferences NULL in its libxml2 callbacks on input libxml2 itself
/// accepts (found by `make fuzz`, FuzzVAST and FuzzManifests, swift-corelibs-foundation 6.3):
/// - a processing instruction without data (`<?pi?>`, valid XML): SEGV on a NULL pointer in
///   `_NSXMLParserProcessingInstruction`;
/// - a name that is not UTF-8 in a document read as UTF-8: libxml2 reports the bad byte,
///   switches to Latin-1 and still hands over the raw bytes, and `_NSXMLParserStartElementNs`
///   (or the processing-instruction callback) force-unwraps their decoding.
///
/// So the document is handed over as UTF-8 only, without its XML declaration and without any
/// processing instruction (neither VAST nor DASH has a use for them), and a DOCTYPE is refused
/// (no DTD, so no entity declarations and no entity expansion to bound).
package enum FoundationXMLInput {
    /// `bytes` as UTF-8 with the XML declaration and processing instructions removed; nil when
    /// the document cannot be read safely: not UTF-8 (or its declared encoding, of ISO-8859-1,
    /// windows-1252, US-ASCII and UTF-16, converted here), a DOCTYPE, or an unterminated
    /// processing instruction.
    /// - Parameter bytes: The document as received.
    /// - Returns: The bytes to give `XMLParser`.
    package static func sanitized(_ bytes: [UInt8]) -> [UInt8]? {
        guard let utf8 = utf8(bytes) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        var index = 0
        func starts(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= utf8.count
                && utf8[position..<(position + pattern.count)].elementsEqual(pattern)
        }
        func end(of terminator: String, from position: Int) -> Int? {
            let pattern = Array(terminator.utf8)
            var at = position
            while at + pattern.count <= utf8.count {
                if utf8[at] == pattern[0] && utf8[at..<(at + pattern.count)].elementsEqual(pattern) {
                    return at + pattern.count
                }
                at += 1
            }
            return nil
        }
        while index < utf8.count {
            guard utf8[index] == UInt8(ascii: "<") else {
                output.append(utf8[index])
                index += 1
                continue
            }
            if starts("<!--", at: index) || starts("<![CDATA[", at: index) {
                // Copied as they are (a processing instruction inside one is text).
                let close = end(of: starts("<!--", at: index) ? "-->" : "]]>", from: index + 4) ?? utf8.count
                output += utf8[index..<close]
                index = close
            } else if starts("<?", at: index) {
                guard let close = end(of: "?>", from: index + 2) else { return nil }
                index = close
            } else if starts("<!DOCTYPE", at: index) {
                return nil
            } else {
                output.append(utf8[index])
                index += 1
            }
        }
        return output
    }

    /// The document's text as UTF-8: valid UTF-8 as it is (a byte order mark dropped), UTF-16
    /// with a byte order mark, or the encoding its declaration names when it is one of a few
    /// common ones; nil otherwise.
    private static func utf8(_ bytes: [UInt8]) -> [UInt8]? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return String(data: Data(bytes), encoding: .utf16).map { Array($0.utf8) }
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let encoding: String.Encoding
        switch declaredEncoding(body) {
        case nil, "utf-8", "utf8": encoding = .utf8
        case "iso-8859-1", "latin1", "iso_8859-1": encoding = .isoLatin1
        case "windows-1252", "cp1252": encoding = .windowsCP1252
        case "us-ascii", "ascii": encoding = .ascii
        default: return nil
        }
        if encoding == .utf8 { return String(validating: body, as: UTF8.self) != nil ? body : nil }
        return String(data: Data(body), encoding: encoding).map { Array($0.utf8) }
    }

    /// The `encoding` of a leading `<?xml ... ?>` declaration, in lower case; nil without one.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else {
            return nil
        }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
    }
}
