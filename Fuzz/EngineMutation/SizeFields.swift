/// Where a valid input's own length fields are, so a mutation can make them lie: MP4 box
/// headers, EBML element sizes (WebM), PNG chunk lengths, ADTS frame lengths, and MPEG-TS
/// section and PES lengths. Each is found by walking the structure as written (a valid input,
/// made by GStreamer), not by searching for patterns.
enum SizeFields {
    /// A length field: its offset, its width in bytes, and how it is encoded.
    struct Field {
        enum Encoding {
            /// Big-endian, all bits.
            case bigEndian
            /// An EBML variable-size integer of `width` bytes (the length marker kept).
            case ebml
            /// ADTS's 13-bit frame length (bytes 3 to 5 of the header).
            case adts
            /// A 12-bit length in the low bits of two big-endian bytes (PSI section length).
            case twelveBits
        }

        var offset: Int
        var width: Int
        var encoding: Encoding
    }

    /// The length fields of `bytes`, a valid input of `format`.
    static func find(in bytes: [UInt8], format: InputFormat) -> [Field] {
        switch format {
        case .mp4FastStart, .mp4MoovAtEnd: mp4Boxes(bytes, from: 0, to: bytes.count, depth: 0)
        case .webm: ebmlElements(bytes, from: 0, to: bytes.count, depth: 0)
        case .png: pngChunks(bytes)
        case .adts: adtsFrames(bytes)
        case .mpegTS: transportStreamLengths(bytes)
        case .srt, .webvtt: []
        }
    }

    /// Writes `value` into `field` (cut to the field's width; an EBML size keeps its length marker).
    static func write(_ value: UInt64, into field: Field, of bytes: inout [UInt8]) {
        guard field.offset + field.width <= bytes.count else { return }
        switch field.encoding {
        case .bigEndian:
            for i in 0..<field.width {
                bytes[field.offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(field.width - 1 - i)))
            }
        case .ebml:
            let bits = 7 * field.width
            let masked = bits >= 64 ? value : value & ((1 << UInt64(bits)) - 1)
            let marker: UInt64 = 1 << UInt64(bits)
            let encoded = masked | marker
            for i in 0..<field.width {
                bytes[field.offset + i] = UInt8(truncatingIfNeeded: encoded >> (8 * UInt64(field.width - 1 - i)))
            }
        case .adts:
            let length = value & 0x1FFF
            bytes[field.offset] = bytes[field.offset] & 0xFC | UInt8(length >> 11)
            bytes[field.offset + 1] = UInt8(truncatingIfNeeded: length >> 3)
            bytes[field.offset + 2] = bytes[field.offset + 2] & 0x1F | UInt8(truncatingIfNeeded: (length & 7) << 5)
        case .twelveBits:
            let length = value & 0xFFF
            bytes[field.offset] = bytes[field.offset] & 0xF0 | UInt8(length >> 8)
            bytes[field.offset + 1] = UInt8(truncatingIfNeeded: length)
        }
    }

    /// The value `field` holds now.
    static func read(_ field: Field, of bytes: [UInt8]) -> UInt64 {
        guard field.offset + field.width <= bytes.count else { return 0 }
        var value: UInt64 = 0
        for i in 0..<field.width { value = value << 8 | UInt64(bytes[field.offset + i]) }
        switch field.encoding {
        case .bigEndian: return value
        case .ebml:
            return field.width >= 8 ? value & 0x00FF_FFFF_FFFF_FFFF : value & ((1 << UInt64(7 * field.width)) - 1)
        case .adts: return (value >> 5) & 0x1FFF
        case .twelveBits: return value & 0xFFF
        }
    }

    private static let mp4Containers: Set<String> = [
        "moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "mvex", "moof", "traf", "mfra",
    ]

    private static func mp4Boxes(_ bytes: [UInt8], from start: Int, to end: Int, depth: Int) -> [Field] {
        var fields: [Field] = []
        var at = start
        while at + 8 <= end, depth < 8 {
            let size = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            fields.append(Field(offset: at, width: 4, encoding: .bigEndian))
            guard size >= 8, at + size <= end else { break }
            if mp4Containers.contains(type) {
                fields += mp4Boxes(bytes, from: at + 8, to: at + size, depth: depth + 1)
            } else if type == "stsd" || type == "avc1" || type == "mp4a" {
                // Sample descriptions hold boxes after a fixed header.
                let header = type == "stsd" ? 8 : type == "avc1" ? 78 : 28
                fields += mp4Boxes(bytes, from: at + 8 + header, to: at + size, depth: depth + 1)
            }
            at += size
        }
        return fields
    }

    private static let ebmlMasters: Set<UInt32> = [
        0x1A45_DFA3, 0x1853_8067, 0x1F43_B675, 0x1654_AE6B, 0xAE, 0x1549_A966, 0x1C53_BB6B, 0x114D_9B74, 0xA0, 0xE0,
        0xE1, 0x1254_C367, 0xBB, 0xB7, 0x4DBB, 0x7373, 0x63C0, 0x67C8,
    ]

    /// The length of the EBML variable-size integer starting with `first`: 1 to 8, 0 when invalid.
    private static func vintLength(_ first: UInt8) -> Int {
        first == 0 ? 0 : first.leadingZeroBitCount + 1
    }

    private static func ebmlElements(_ bytes: [UInt8], from start: Int, to end: Int, depth: Int) -> [Field] {
        var fields: [Field] = []
        var at = start
        while at < end, depth < 8 {
            let idLength = vintLength(bytes[at])
            guard idLength > 0, idLength <= 4, at + idLength < end else { break }
            var id: UInt32 = 0
            for i in 0..<idLength { id = id << 8 | UInt32(bytes[at + i]) }
            let sizeAt = at + idLength
            let sizeLength = vintLength(bytes[sizeAt])
            guard sizeLength > 0, sizeAt + sizeLength <= end else { break }
            let field = Field(offset: sizeAt, width: sizeLength, encoding: .ebml)
            fields.append(field)
            let size = read(field, of: bytes)
            let unknown = size == (sizeLength >= 8 ? 0x00FF_FFFF_FFFF_FFFF : (1 << UInt64(7 * sizeLength)) - 1)
            let bodyStart = sizeAt + sizeLength
            let bodyEnd = unknown ? end : bodyStart + Int(clamping: size)
            guard bodyEnd <= end, bodyEnd >= bodyStart else { break }
            if ebmlMasters.contains(id) {
                fields += ebmlElements(bytes, from: bodyStart, to: bodyEnd, depth: depth + 1)
            }
            at = bodyEnd
        }
        return fields
    }

    private static func pngChunks(_ bytes: [UInt8]) -> [Field] {
        var fields: [Field] = []
        var at = 8
        while at + 12 <= bytes.count {
            let field = Field(offset: at, width: 4, encoding: .bigEndian)
            fields.append(field)
            at += 12 + Int(read(field, of: bytes))
        }
        return fields
    }

    private static func adtsFrames(_ bytes: [UInt8]) -> [Field] {
        var fields: [Field] = []
        var at = 0
        while at + 7 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] & 0xF0 == 0xF0 {
            let field = Field(offset: at + 3, width: 3, encoding: .adts)
            fields.append(field)
            let length = Int(read(field, of: bytes))
            guard length >= 7 else { break }
            at += length
        }
        return fields
    }

    /// PSI section lengths and PES packet lengths in the packets that start a unit.
    private static func transportStreamLengths(_ bytes: [UInt8]) -> [Field] {
        var fields: [Field] = []
        var at = 0
        while at + 188 <= bytes.count {
            defer { at += 188 }
            guard bytes[at] == 0x47, bytes[at + 1] & 0x40 != 0 else { continue }
            var payload = at + 4
            if bytes[at + 3] & 0x20 != 0 { payload += 1 + Int(bytes[at + 4]) }
            guard payload + 6 <= at + 188 else { continue }
            if bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1 {
                fields.append(Field(offset: payload + 4, width: 2, encoding: .bigEndian))
            } else {
                // A pointer field, then the section: table id, then 12 bits of length.
                let section = payload + 1 + Int(bytes[payload])
                if section + 3 <= at + 188 {
                    fields.append(Field(offset: section + 1, width: 2, encoding: .twelveBits))
                }
            }
        }
        return fields
    }
}
