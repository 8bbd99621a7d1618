/// Decodes the CEA-608 byte pairs of one field (its two data channels, CC1 and CC2 or CC3 and
/// CC4): checks parity, drops the repeat of a control code (sent twice for robustness), skips
/// extended data services (XDS, second field) and sends each code to the channel it is for.
struct CEA608FieldDecoder: Sendable, Equatable {
    let field: Int
    private(set) var channels = [CEA608ChannelDecoder(), CEA608ChannelDecoder()]
    /// The data channel characters go to: the one of the last control code.
    private var current = 0
    /// The last control code, whose repeat right after it is dropped.
    private var lastControl: UInt16?
    /// Inside an XDS packet (second field): its bytes are not captions.
    private var inExtendedData = false

    init(field: Int) { self.field = field }

    /// What a pair changed.
    struct Change: Sendable, Equatable {
        /// The data channel (0 or 1) the pair was for.
        var dataChannel: Int
        /// Whether that channel's displayed text may have changed.
        var displayChanged: Bool
    }

    /// Decodes one pair, with parity bits as transmitted; nil when it changes nothing (padding,
    /// a repeated control code, a pair with a parity error in its first byte, XDS).
    mutating func decode(_ first: UInt8, _ second: UInt8) -> Change? {
        guard let high = Self.withoutParity(first) else {
            lastControl = nil
            return nil
        }
        // A second byte with a parity error shows as a solid block (CEA-608 8.3).
        let low = Self.withoutParity(second) ?? 0x7F
        if high == 0, low == 0 { return nil }  // padding
        if high < 0x10 {  // XDS: 0x01...0x0E start or continue a packet, 0x0F ends it
            inExtendedData = high != 0x0F
            lastControl = nil
            return nil
        }
        if high < 0x20 {
            inExtendedData = false
            return control(high, low)
        }
        lastControl = nil
        guard !inExtendedData else { return nil }
        let before = channels[current].displayed
        channels[current].type(CEA608Characters.standard(high))
        if low >= 0x20 { channels[current].type(CEA608Characters.standard(low)) }
        return Change(dataChannel: current, displayChanged: channels[current].displayed != before)
    }

    private mutating func control(_ high: UInt8, _ low: UInt8) -> Change? {
        let code = UInt16(high) << 8 | UInt16(low)
        if lastControl == code {
            lastControl = nil
            return nil
        }
        lastControl = code
        guard low >= 0x20 else { return nil }  // not a code
        current = high & 0x08 == 0 ? 0 : 1
        let set = high & 0xF7
        let before = channels[current].displayed
        switch (set, low) {
        case (0x14, 0x20...0x2F), (0x15, 0x20...0x2F):
            // Miscellaneous control codes: 0x14 in the first field; the second field may use 0x15.
            guard set == 0x14 || field == 2 else { return nil }
            channels[current].miscellaneous(low)
        case (0x17, 0x21...0x23):
            channels[current].tab(Int(low) - 0x20)
        case (0x11, 0x20...0x2F):
            channels[current].midRow()
        case (0x11, 0x30...0x3F):
            channels[current].type(CEA608Characters.special(low))
        case (0x12, 0x20...0x3F), (0x13, 0x20...0x3F):
            channels[current].typeExtended(CEA608Characters.extended(set: set, low))
        case (_, 0x40...0x7F):
            guard let row = Self.preambleRow(set, low) else { return nil }
            let attributes = low & 0x1F
            let indent = attributes & 0x10 != 0 ? Int((attributes & 0x0E) >> 1) * 4 : 0
            channels[current].preambleAddress(row: row, indent: indent)
        default:  // background and foreground attributes, reserved codes: nothing shown
            return nil
        }
        return Change(dataChannel: current, displayChanged: channels[current].displayed != before)
    }

    /// The row (0 to 14) of a preamble address code, by its first byte without the channel bit
    /// and whether the second is in its upper half (`0x60...0x7F`).
    private static func preambleRow(_ set: UInt8, _ low: UInt8) -> Int? {
        let lower = low & 0x20 != 0
        switch set {
        case 0x11: return lower ? 1 : 0
        case 0x12: return lower ? 3 : 2
        case 0x15: return lower ? 5 : 4
        case 0x16: return lower ? 7 : 6
        case 0x17: return lower ? 9 : 8
        case 0x10: return lower ? nil : 10
        case 0x13: return lower ? 12 : 11
        case 0x14: return lower ? 14 : 13
        default: return nil
        }
    }

    /// The 7 data bits of a byte with odd parity; nil for a parity error.
    static func withoutParity(_ byte: UInt8) -> UInt8? {
        byte.nonzeroBitCount % 2 == 1 ? byte & 0x7F : nil
    }
}
