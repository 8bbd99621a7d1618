/// Adds an ID3 timed-metadata stream to an MPEG-TS file, as Apple's HLS segmenters mux one: a PMT
/// entry of stream type 0x15 with a metadata descriptor saying 'ID3 ', and one PES packet
/// (private stream 1) per tag, at the tag's presentation time. GStreamer 1.22's mpegtsmux cannot
/// mux ID3, so tests make a TS with it and add the metadata here.
public enum TimedMetadataTransportStream {
    /// What went wrong reading the TS given.
    public struct Failure: Error, CustomStringConvertible {
        /// What is wrong with the TS: "lost sync", say.
        public let description: String
    }

    /// The metadata stream's PID.
    public static let metadataPID: UInt16 = 0x1F0

    /// The TS with the tags added: each `(time, bytes)` a PES packet whose PTS is `time` after the
    /// stream's first PCR (where tsdemux puts a file's time 0), placed just before the first video
    /// packet at or after that time.
    public static func adding(id3Tags tags: [(time: Duration, bytes: [UInt8])], to ts: [UInt8]) throws -> [UInt8] {
        guard ts.count % 188 == 0, !ts.isEmpty else { throw Failure(description: "not whole 188-byte packets") }
        var packets = stride(from: 0, to: ts.count, by: 188).map { Array(ts[$0..<$0 + 188]) }
        guard packets.allSatisfy({ $0[0] == 0x47 }) else { throw Failure(description: "lost sync") }
        guard let pat = packets.first(where: { pid($0) == 0 && $0[1] & 0x40 != 0 }), let pmtPID = programMapPID(pat)
        else { throw Failure(description: "no PAT") }
        guard let pmt = packets.first(where: { pid($0) == pmtPID && $0[1] & 0x40 != 0 }),
            let (section, videoPID) = extendedPMT(pmt)
        else { throw Failure(description: "no PMT") }
        for index in packets.indices where pid(packets[index]) == pmtPID && packets[index][1] & 0x40 != 0 {
            packets[index] = packet(pid: pmtPID, start: true, counter: packets[index][3] & 0x0F, payload: [0] + section)
        }
        // Where each video PES starts, and its PTS.
        let videoStarts: [(index: Int, pts: UInt64)] = packets.indices.compactMap { index in
            guard pid(packets[index]) == videoPID, packets[index][1] & 0x40 != 0, let pts = pesPTS(packets[index])
            else { return nil }
            return (index, pts)
        }
        guard !videoStarts.isEmpty, let zero = packets.lazy.compactMap(pcr).first else {
            throw Failure(description: "no video PTS or no PCR")
        }
        var insertions: [(before: Int, packets: [[UInt8]])] = []
        var counter: UInt8 = 0
        for tag in tags {
            let ticks =
                UInt64(tag.time.components.seconds) * 90_000
                + UInt64(tag.time.components.attoseconds / 11_111_111_111_111)
            let pts = zero + ticks
            let before = videoStarts.first { $0.pts >= pts }?.index ?? packets.count
            var pes: [UInt8] = [0, 0, 1, 0xBD]
            let length = 3 + 5 + tag.bytes.count
            pes += [UInt8(length >> 8), UInt8(length & 0xFF), 0x84, 0x80, 5] + ptsBytes(pts) + tag.bytes
            var chunks: [[UInt8]] = []
            var offset = 0
            while offset < pes.count {
                let chunk = Array(pes[offset..<min(pes.count, offset + 184)])
                chunks.append(packet(pid: metadataPID, start: offset == 0, counter: counter, payload: chunk))
                counter = (counter + 1) & 0x0F
                offset += 184
            }
            insertions.append((before, chunks))
        }
        for insertion in insertions.sorted(by: { $0.before > $1.before }) {
            packets.insert(contentsOf: insertion.packets, at: insertion.before)
        }
        return packets.flatMap { $0 }
    }

    private static func pid(_ packet: [UInt8]) -> UInt16 {
        UInt16(packet[1] & 0x1F) << 8 | UInt16(packet[2])
    }

    private static func payloadStart(_ packet: [UInt8]) -> Int {
        packet[3] & 0x20 != 0 ? 5 + Int(packet[4]) : 4
    }

    private static func programMapPID(_ packet: [UInt8]) -> UInt16? {
        let section = payloadStart(packet) + 1 + Int(packet[payloadStart(packet)])
        let entry = section + 8
        guard entry + 4 <= 188 else { return nil }
        return UInt16(packet[entry + 2] & 0x1F) << 8 | UInt16(packet[entry + 3])
    }

    /// The PMT section with the metadata stream's entry added, and the first stream's PID.
    private static func extendedPMT(_ packet: [UInt8]) -> ([UInt8], UInt16)? {
        let start = payloadStart(packet) + 1 + Int(packet[payloadStart(packet)])
        let length = Int(packet[start + 1] & 0x0F) << 8 | Int(packet[start + 2])
        var section = Array(packet[start..<start + 3 + length - 4])  // without the CRC
        let programInfo = Int(section[10] & 0x0F) << 8 | Int(section[11])
        let firstEntry = 12 + programInfo
        let videoPID = UInt16(section[firstEntry + 1] & 0x1F) << 8 | UInt16(section[firstEntry + 2])
        // metadata_descriptor: application format 0xFFFF 'ID3 ', format 0xFF 'ID3 ', service 0,
        // decoder config flags 0 with the reserved bits set.
        let descriptor: [UInt8] =
            [0x26, 13, 0xFF, 0xFF] + Array("ID3 ".utf8) + [0xFF] + Array("ID3 ".utf8) + [0, 0x0F]
        section += [0x15, UInt8(0xE0 | (metadataPID >> 8)), UInt8(metadataPID & 0xFF), 0xF0, UInt8(descriptor.count)]
        section += descriptor
        let newLength = section.count - 3 + 4
        section[1] = (section[1] & 0xF0) | UInt8(newLength >> 8)
        section[2] = UInt8(newLength & 0xFF)
        let crc = crc32(section)
        section += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        return (section, videoPID)
    }

    /// The PCR's base (90 kHz) of a packet that carries one.
    private static func pcr(_ packet: [UInt8]) -> UInt64? {
        guard packet[3] & 0x20 != 0, packet[4] >= 7, packet[5] & 0x10 != 0 else { return nil }
        let b = packet[6..<11].map(UInt64.init)
        return b[0] << 25 | b[1] << 17 | b[2] << 9 | b[3] << 1 | b[4] >> 7
    }

    private static func pesPTS(_ packet: [UInt8]) -> UInt64? {
        let start = payloadStart(packet)
        guard start + 14 <= 188, packet[start..<start + 3] == [0, 0, 1], packet[start + 7] & 0x80 != 0 else {
            return nil
        }
        let b = packet[(start + 9)...].prefix(5).map(UInt64.init)
        return (b[0] >> 1 & 0x07) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
    }

    private static func ptsBytes(_ pts: UInt64) -> [UInt8] {
        [
            UInt8(0x21 | ((pts >> 29) & 0x0E)), UInt8((pts >> 22) & 0xFF), UInt8(((pts >> 14) & 0xFE) | 1),
            UInt8((pts >> 7) & 0xFF), UInt8(((pts << 1) & 0xFE) | 1),
        ]
    }

    /// A packet with `payload` (at most 184 bytes), stuffed with an adaptation field when short.
    private static func packet(pid: UInt16, start: Bool, counter: UInt8, payload: [UInt8]) -> [UInt8] {
        var header: [UInt8] = [0x47, UInt8((start ? 0x40 : 0) | (pid >> 8)), UInt8(pid & 0xFF)]
        let stuffing = 184 - payload.count
        if stuffing == 0 {
            header.append(0x10 | counter)
            return header + payload
        }
        header.append(0x30 | counter)
        var adaptation: [UInt8] = [UInt8(stuffing - 1)]
        if stuffing > 1 { adaptation += [0x00] + [UInt8](repeating: 0xFF, count: stuffing - 2) }
        return header + adaptation + payload
    }

    /// CRC-32/MPEG-2.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}
