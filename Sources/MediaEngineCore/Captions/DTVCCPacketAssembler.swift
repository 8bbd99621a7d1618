/// Puts CEA-708 caption channel packets back together from the `cc_data` triplets that carry
/// them (a `cc_type` 3 triplet starts a packet, `cc_type` 2 ones continue it) and splits each
/// into its service blocks (CEA-708 sections 5 and 6).
///
/// A packet's first byte holds a sequence number (2 bits) and its size code (6 bits: the
/// packet is `2 * code` bytes, 128 for 0, this byte included). A service block starts with its
/// service number (3 bits; 7: the next byte's low 6 bits hold it) and its size (5 bits); a
/// block of service 0 and size 0 is padding and ends the packet. A packet cut short by the next
/// one gives the blocks it holds whole.
struct DTVCCPacketAssembler: Sendable, Equatable {
    /// One service block: the service's number (1 to 63) and its bytes.
    struct ServiceBlock: Sendable, Equatable {
        var service: Int
        var data: [UInt8]
    }

    private var packet: [UInt8] = []
    /// The size the packet in progress says it has; 0 when none is in progress.
    private var expected = 0

    /// Adds two bytes; returns the service blocks of each packet they complete.
    mutating func add(_ bytes: CaptionCarriage.DTVCCBytes) -> [ServiceBlock] {
        var blocks: [ServiceBlock] = []
        if bytes.start {
            if expected > 0 { blocks += Self.serviceBlocks(in: packet) }
            let code = Int(bytes.first & 0x3F)
            expected = code == 0 ? 128 : code * 2
            packet = [bytes.first, bytes.second]
        } else if expected > 0 {
            packet += [bytes.first, bytes.second]
        }
        if expected > 0, packet.count >= expected {
            blocks += Self.serviceBlocks(in: Array(packet.prefix(expected)))
            packet = []
            expected = 0
        }
        return blocks
    }

    /// The whole service blocks of `packet` (its header byte first).
    static func serviceBlocks(in packet: [UInt8]) -> [ServiceBlock] {
        var blocks: [ServiceBlock] = []
        var index = 1
        while index < packet.count {
            var service = Int(packet[index] >> 5)
            let size = Int(packet[index] & 0x1F)
            index += 1
            if service == 0 && size == 0 { break }  // padding: the rest of the packet is empty
            if service == 7 {
                guard index < packet.count else { break }
                service = Int(packet[index] & 0x3F)
                index += 1
            }
            guard size <= packet.count - index else { break }
            if service > 0 {
                blocks.append(ServiceBlock(service: service, data: Array(packet[index..<(index + size)])))
            }
            index += size
        }
        return blocks
    }
}
