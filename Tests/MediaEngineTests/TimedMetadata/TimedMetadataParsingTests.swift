import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The bytes the engine reads itself: the PMT it rewrites for tsdemux and the ID3 frames libgsttag
/// leaves raw, valid and hostile; and the queue that decides when items are due.
@Suite("Timed metadata parsing and queueing")
struct TimedMetadataParsingTests {
    /// A PMT packet: video on 0x100, then a stream of `type` on 0x1F0 with these descriptors.
    static func pmt(metadataType: UInt8 = 0x15, descriptors: [UInt8]) -> [UInt8] {
        var section: [UInt8] = [0x02, 0, 0, 0x00, 0x01, 0xC1, 0x00, 0x00, 0xE1, 0x00, 0xF0, 0x00]
        section += [0x1B, 0xE1, 0x00, 0xF0, 0x00]
        section += [metadataType, 0xE1, 0xF0, 0xF0, UInt8(descriptors.count)] + descriptors
        let length = section.count - 3 + 4
        section[1] = 0xB0 | UInt8(length >> 8)
        section[2] = UInt8(length & 0xFF)
        let crc = TimedMetadataTransportStream.crc32(section)
        section += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        let packet: [UInt8] = [0x47, 0x50, 0x00, 0x10, 0x00] + section
        return packet + [UInt8](repeating: 0xFF, count: 188 - packet.count)
    }

    static let id3Metadata: [UInt8] =
        [0x26, 13, 0xFF, 0xFF] + Array("ID3 ".utf8) + [0xFF] + Array("ID3 ".utf8) + [0, 0x0F]

    @Test("a PMT declaring an ID3 stream is rewritten to a private KLVA stream with a valid CRC")
    func rewritesPMT() {
        var packet = Self.pmt(descriptors: Self.id3Metadata)
        let original = packet
        #expect(TransportStreamPMT.rewriteID3Streams(in: &packet) == [0x1F0])
        let section = Array(packet[5..<(5 + 3 + Int(packet[7]))])
        #expect(TimedMetadataTransportStream.crc32(section) == 0, "the CRC covers the rewritten section")
        #expect(packet[5 + 17] == 0x06, "stream type 0x15 became 0x06")
        #expect(Array(packet[5 + 22..<5 + 28]) == [0x05, 13] + Array("KLVA".utf8), "registered KLVA, same length")
        #expect(packet.count == original.count)
        // Rewritten once, the PMT declares no ID3 stream any more: a second pass changes nothing.
        let once = packet
        #expect(TransportStreamPMT.rewriteID3Streams(in: &packet).isEmpty)
        #expect(packet == once)
    }

    @Test("PMTs without an ID3 stream, and any other packet, are left alone")
    func leavesOthersAlone() {
        for var packet in [
            Self.pmt(metadataType: 0x06, descriptors: Self.id3Metadata),  // not a metadata stream
            Self.pmt(
                descriptors: [0x26, 13, 0xFF, 0xFF] + Array("KLV ".utf8) + [0xFF] + Array("KLVA".utf8) + [0, 0x0F]),
            Self.pmt(descriptors: []),
            [UInt8](repeating: 0x47, count: 188),
        ] {
            let before = packet
            #expect(TransportStreamPMT.rewriteID3Streams(in: &packet).isEmpty)
            #expect(packet == before)
        }
    }

    @Test("hostile PMTs (every byte changed, lengths that lie, random packets) are never rewritten wrongly or overread")
    func hostilePMT() {
        let valid = Self.pmt(descriptors: Self.id3Metadata)
        // Each byte of the section replaced by values that make lengths lie: the CRC no longer
        // matches (so nothing is rewritten), and no length is followed out of the packet.
        for index in 4..<60 {
            for value: UInt8 in [0x00, 0x0F, 0x7F, 0xFF] where valid[index] != value {
                var packet = valid
                packet[index] = value
                let before = packet
                let pids = TransportStreamPMT.rewriteID3Streams(in: &packet)
                #expect(pids.isEmpty || packet != before, "byte \(index) = \(value)")
            }
        }
        // Sections whose lengths lie, with a CRC that matches the lie.
        for descriptorLength: UInt8 in [0, 1, 3, 14, 200, 255] {
            var descriptors = Self.id3Metadata
            descriptors[1] = descriptorLength
            var packet = Self.pmt(descriptors: descriptors)
            _ = TransportStreamPMT.rewriteID3Streams(in: &packet)
        }
        // Seeded: the same packets every run, and no system call per byte.
        var generator = SeededRandom(seed: 0x47)
        for _ in 0..<2000 {
            var packet = (0..<188).map { _ in generator.nextByte() }
            packet[0] = 0x47
            packet[1] |= 0x40
            _ = TransportStreamPMT.rewriteID3Streams(in: &packet)
        }
        var short: [UInt8] = [0x47, 0x40]
        #expect(TransportStreamPMT.rewriteID3Streams(in: &short).isEmpty)
    }

    @Test("raw frames: TXXX with its description, text frames, bytes for the rest; sizes never read")
    func rawFrames() {
        let txxx = ID3RawFrame(
            [UInt8]("TXXX".utf8) + [0x7F, 0x7F, 0x7F, 0x7F, 0, 0, 3] + Array("desc\0value".utf8), version: 4)
        #expect(
            txxx?.item(at: .zero)
                == TimedMetadataItem(
                    key: "TXXX", keySpace: .id3, value: .text("value"), identifier: "desc", time: .zero))
        let utf16: [UInt8] = [1, 0xFF, 0xFE, 0x64, 0, 0, 0, 0xFF, 0xFE, 0x76, 0]  // "d", "v", little-endian
        let wide = ID3RawFrame([UInt8]("TXXX".utf8) + [0, 0, 0, 11, 0, 0] + utf16, version: 3)
        #expect(wide?.item(at: .zero).identifier == "d")
        #expect(wide?.item(at: .zero).value == .text("v"))
        let other = ID3RawFrame([UInt8]("GEOB".utf8) + [0, 0, 0, 2, 0, 0, 9, 8], version: 4)
        #expect(other?.item(at: .zero).value == .data([9, 8]))
        // Compressed: only the bytes can be given. Flag bytes longer than the body: an empty body.
        let compressed = ID3RawFrame([UInt8]("TXXX".utf8) + [0, 0, 0, 9, 0, 0x08, 3, 0x41, 0, 0x42], version: 4)
        #expect(compressed?.item(at: .zero).value.data != nil)
        let flagsOnly = ID3RawFrame([UInt8]("TXXX".utf8) + [0, 0, 0, 0, 0, 0x41, 1], version: 4)
        #expect(flagsOnly?.body == [])
        #expect(ID3RawFrame([1, 2, 3], version: 4) == nil)
        #expect(ID3RawFrame([UInt8]("t!x ".utf8) + [0, 0, 0, 0, 0, 0], version: 4) == nil)
        // Every prefix and every single-byte change of a frame reads without a trap.
        let frame = [UInt8]("TXXX".utf8) + [0, 0, 0, 12, 0, 0x03, 1, 0xFE, 0xFF, 0, 0x41, 0, 0, 0xD8, 0x00, 0]
        for length in 0...frame.count {
            for version in 0...5 { _ = ID3RawFrame(Array(frame.prefix(length)), version: version)?.item(at: .zero) }
        }
        for index in frame.indices {
            for value: UInt8 in [0, 1, 2, 3, 4, 0xFF] {
                var bytes = frame
                bytes[index] = value
                _ = ID3RawFrame(bytes, version: 4)?.item(at: .zero)
            }
        }
    }

    @Test(
        "the queue hands out batches in time order once reached, drops what a flushing seek left behind, waits for a loop"
    )
    func queue() {
        func item(_ key: String, _ seconds: Double) -> TimedMetadataItem {
            TimedMetadataItem(key: key, keySpace: .id3, value: .text(key), time: .seconds(seconds))
        }
        var queue = TimedMetadataQueue()
        queue.arrived([item("B", 1.5)], time: .seconds(1.5), seqnum: 7)
        queue.arrived([item("A", 0.5)], time: .seconds(0.5), seqnum: 7)
        queue.arrived([item("A", 0.5)], time: .seconds(0.5), seqnum: 7)  // read again: not twice
        do {
            let due = queue.due(at: .seconds(0.4))
            #expect(due.isEmpty)
        }
        #expect(queue.nextTime == .seconds(0.5))
        do {
            let due = queue.due(at: .seconds(2))
            #expect(due.map { $0.map(\.key) } == [["A"], ["B"]])
        }
        #expect(queue.current.map(\.key) == ["B"])

        queue.arrived([item("C", 2.5)], time: .seconds(2.5), seqnum: 7)
        let emptied = queue.seekSent(seqnum: 9, position: .seconds(2), flush: true)
        #expect(emptied, "the seek empties the list")
        #expect(queue.pending.isEmpty)
        queue.arrived([item("late", 2.6)], time: .seconds(2.6), seqnum: 7)  // read before the flush
        queue.arrived([item("behind", 1.9)], time: .seconds(1.9), seqnum: 9)  // behind the new position
        queue.arrived([item("C", 2.5)], time: .seconds(2.5), seqnum: 9)
        do {
            let due = queue.due(at: .seconds(3))
            #expect(due.map { $0.map(\.key) } == [["C"]])
        }

        // A loop's seek: the next pass's items wait until the position goes back.
        let loopEmptied = queue.seekSent(seqnum: 11, position: .zero, flush: false)
        #expect(!loopEmptied)
        queue.arrived([item("A", 0.5)], time: .seconds(0.5), seqnum: 11)
        do {
            let due = queue.due(at: .seconds(3.4))
            #expect(due.isEmpty)
        }
        #expect(queue.waitsForLoop)
        do {
            let due = queue.due(at: .seconds(0.6))
            #expect(due.map { $0.map(\.key) } == [["A"]])
        }

        queue.seekRefused(seqnum: 9)
        queue.arrived([item("D", 3)], time: .seconds(3), seqnum: 7)
        #expect(queue.pending.count == 1, "after a refused seek the old segment's items count again")
        let wasSet = queue.reset()
        #expect(wasSet)
        #expect(queue.current.isEmpty && queue.pending.isEmpty)
    }
}
