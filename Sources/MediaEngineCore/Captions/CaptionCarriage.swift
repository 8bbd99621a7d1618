/// How a video frame carries its closed captions (GStreamer's `GstVideoCaptionType`): the
/// CEA-608 byte pairs inside are read out the same way whatever the carriage.
///
/// Every byte comes from the movie and is hostile: lengths and counts are checked against what
/// is there before each read, and a packet that does not add up gives what it holds up to the
/// first thing that does not fit, never a trap.
package enum CaptionCarriage: Int32, Sendable {
    /// Bare CEA-608 byte pairs, all of the first field.
    case cea608Pairs = 1
    /// SMPTE 334-1 Annex A triplets: a field byte (bit 7 set: the first field), then a pair.
    case smpte334 = 2
    /// CEA-708 `cc_data` triplets (ATSC A/53 in H.264, H.265 and MPEG-2 user data): marker bits,
    /// `cc_valid` and `cc_type` (0 and 1: CEA-608 of the first and second field; 2 and 3: DTVCC).
    case cea708Data = 3
    /// A CEA-708 caption distribution packet (SMPTE 334-2), whose `cc_data` section holds triplets.
    case cea708Packet = 4

    /// One CEA-608 byte pair as transmitted, with parity, and the field it belongs to (1 or 2).
    struct Pair: Sendable, Equatable {
        var field: Int
        var first: UInt8
        var second: UInt8
    }

    /// One CEA-708 `cc_data` triplet of DTVCC data: `start` for the first two bytes of a caption
    /// channel packet (`cc_type` 3), false for the next two (`cc_type` 2).
    struct DTVCCBytes: Sendable, Equatable {
        var start: Bool
        var first: UInt8
        var second: UInt8
    }

    /// The DTVCC (CEA-708 service) bytes `bytes` carries, in order: none for the CEA-608 carriages.
    func dtvccBytes(in bytes: [UInt8]) -> [DTVCCBytes] {
        let triplets: ArraySlice<UInt8>
        switch self {
        case .cea608Pairs, .smpte334: return []
        case .cea708Data: triplets = bytes[...]
        case .cea708Packet: triplets = Self.ccDataSection(ofPacket: bytes)
        }
        var found: [DTVCCBytes] = []
        var index = triplets.startIndex
        while triplets.endIndex - index >= 3 {
            let header = triplets[index]
            if header & 0x04 != 0, header & 0x02 != 0 {
                found.append(
                    DTVCCBytes(start: header & 0x03 == 3, first: triplets[index + 1], second: triplets[index + 2]))
            }
            index += 3
        }
        return found
    }

    /// The CEA-608 pairs `bytes` carries, in order; DTVCC (CEA-708 service) data is skipped.
    func pairs(in bytes: [UInt8]) -> [Pair] {
        switch self {
        case .cea608Pairs:
            return stride(from: 0, to: bytes.count - 1, by: 2).map {
                Pair(field: 1, first: bytes[$0], second: bytes[$0 + 1])
            }
        case .smpte334:
            return stride(from: 0, to: bytes.count - 2, by: 3).map {
                Pair(field: bytes[$0] & 0x80 != 0 ? 1 : 2, first: bytes[$0 + 1], second: bytes[$0 + 2])
            }
        case .cea708Data:
            return Self.ccData(bytes[...])
        case .cea708Packet:
            return Self.ccData(Self.ccDataSection(ofPacket: bytes))
        }
    }

    /// The 608 pairs among `cc_data` triplets: valid ones of `cc_type` 0 or 1.
    private static func ccData(_ bytes: ArraySlice<UInt8>) -> [Pair] {
        var pairs: [Pair] = []
        var index = bytes.startIndex
        while bytes.endIndex - index >= 3 {
            let header = bytes[index]
            let valid = header & 0x04 != 0
            let type = header & 0x03
            if valid, type <= 1 {
                pairs.append(Pair(field: Int(type) + 1, first: bytes[index + 1], second: bytes[index + 2]))
            }
            index += 3
        }
        return pairs
    }

    /// The `cc_data` triplets of a caption distribution packet: after its 7-byte header
    /// (`0x9669`, length, frame rate, flags, sequence counter), past a time code section when
    /// the flags say there is one, the section `0x72` with its count in the low 5 bits.
    private static func ccDataSection(ofPacket bytes: [UInt8]) -> ArraySlice<UInt8> {
        guard bytes.count >= 7, bytes[0] == 0x96, bytes[1] == 0x69 else { return [] }
        let length = min(Int(bytes[2]), bytes.count)
        let flags = bytes[4]
        var index = 7
        if flags & 0x80 != 0 {  // time_code_present: section 0x71 and 4 bytes
            guard index < length, bytes[index] == 0x71 else { return [] }
            index += 5
        }
        guard flags & 0x40 != 0, index + 1 < length, bytes[index] == 0x72 else { return [] }
        let count = Int(bytes[index + 1] & 0x1F)
        let start = index + 2
        let end = min(start + count * 3, length)
        return start < end ? bytes[start..<end] : []
    }
}
