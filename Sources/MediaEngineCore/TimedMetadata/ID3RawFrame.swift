/// An ID3v2 frame that libgsttag read but did not turn into a tag, handed over whole (header and
/// body) as a `private-id3v2-frame` sample: a TXXX frame whose description GStreamer has no tag
/// for, or any frame it does not know.
///
/// libgsttag has already checked the tag's and the frame's sizes against the tag; this reads
/// only the frame it was given, and trusts none of its bytes: the size field is not read at all
/// (the frame is the bytes given), every offset is checked against them, and anything it cannot
/// read as text stays bytes.
package struct ID3RawFrame: Equatable {
    /// The frame ID (`TXXX`; three characters in an ID3v2.2 tag).
    package let id: String
    /// The frame's body, after its header and any flag bytes (grouping, data length), with
    /// unsynchronisation undone.
    package let body: [UInt8]
    /// The body is compressed or encrypted: only the bytes can be given.
    package let isOpaque: Bool

    /// Reads a frame of a tag of ID3v2 major version `version` (2, 3 or 4); nil when the bytes
    /// are shorter than a frame header or the ID is not a frame ID.
    package init?(_ bytes: [UInt8], version: Int) {
        let idLength = version == 2 ? 3 : 4
        let headerLength = version == 2 ? 6 : 10
        guard bytes.count >= headerLength else { return nil }
        let idBytes = bytes[0..<idLength]
        guard idBytes.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else { return nil }
        id = String(decoding: idBytes, as: UTF8.self)
        var body = Array(bytes[headerLength...])
        var opaque = false
        if version >= 3 {
            let format = bytes[9]
            // v2.3: compression 0x80 (4-byte size first), encryption 0x40, grouping 0x20.
            // v2.4: grouping 0x40, compression 0x08, encryption 0x04, unsync 0x02, data length 0x01.
            let grouping = version == 3 ? format & 0x20 != 0 : format & 0x40 != 0
            let sizePrefix = version == 3 ? format & 0x80 != 0 : format & 0x01 != 0
            opaque = version == 3 ? format & 0xC0 != 0 : format & 0x0C != 0
            var skip = 0
            if grouping { skip += 1 }
            if sizePrefix { skip += 4 }
            body = skip <= body.count ? Array(body[skip...]) : []
            if version == 4 && format & 0x02 != 0 { body = Self.removingUnsynchronisation(body) }
        }
        self.body = body
        isOpaque = opaque
    }

    /// Undoes ID3 unsynchronisation: every 0xFF 0x00 becomes 0xFF.
    package static func removingUnsynchronisation(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { result.append(byte) }
            previous = byte
        }
        return result
    }

    /// The frame as a timed-metadata item at `time`: a TXXX frame's value as text with its
    /// description as the identifier, another text frame's text, anything else its body as bytes.
    package func item(at time: Duration) -> TimedMetadataItem {
        if !isOpaque, id == "TXXX" || id == "TXX", let fields = Self.textFields(body), fields.count >= 2 {
            return TimedMetadataItem(
                key: id, keySpace: .id3, value: .text(fields[1]), identifier: fields[0], time: time)
        }
        if !isOpaque, id.first == "T", let fields = Self.textFields(body), !fields.isEmpty {
            return TimedMetadataItem(key: id, keySpace: .id3, value: .text(fields.joined(separator: "/")), time: time)
        }
        return TimedMetadataItem(key: id, keySpace: .id3, value: .data(body), time: time)
    }

    /// The strings of a text frame's body: an encoding byte, then strings separated by its
    /// terminator (one zero byte in ISO-8859-1 and UTF-8, two in UTF-16). A trailing terminator
    /// ends the last string; nil for an empty body or an unknown encoding.
    package static func textFields(_ body: [UInt8]) -> [String]? {
        guard let encoding = body.first, encoding <= 3 else { return nil }
        let text = body.dropFirst()
        var fields: [String] = []
        if encoding == 0 || encoding == 3 {
            var pieces = text.split(separator: 0, omittingEmptySubsequences: false)
            if pieces.count > 1, pieces.last?.isEmpty == true { pieces.removeLast() }
            for piece in pieces {
                fields.append(
                    encoding == 3
                        ? String(decoding: piece, as: UTF8.self)
                        : String(String.UnicodeScalarView(piece.map { Unicode.Scalar($0) })))
            }
            return fields
        }
        // UTF-16: code units in pairs, each string with its own byte order mark (encoding 1) or
        // big-endian (encoding 2); a trailing odd byte is dropped.
        var units: [UInt16] = []
        var index = text.startIndex
        var bigEndian = true
        var atStart = true
        func finish() {
            fields.append(String(decoding: units, as: UTF16.self))
            units.removeAll()
            atStart = true
            bigEndian = true
        }
        while index + 1 < text.endIndex {
            let first = text[index]
            let second = text[index + 1]
            index += 2
            if atStart && encoding == 1 && (first, second) == (0xFF, 0xFE) {
                bigEndian = false
                atStart = false
                continue
            }
            if atStart && encoding == 1 && (first, second) == (0xFE, 0xFF) {
                atStart = false
                continue
            }
            atStart = false
            let unit = bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
            if unit == 0 {
                finish()
            } else {
                units.append(unit)
            }
        }
        if !units.isEmpty || fields.isEmpty { finish() }
        return fields
    }
}
