import MediaEngineCore

extension ParserFuzzing {
    /// The timed-metadata bytes the engine reads itself: the input as an ID3v2 frame libgsttag
    /// left raw (`ID3RawFrame`, for ID3v2.2, 2.3 and 2.4, then the item it makes) and as a
    /// transport-stream packet (`TransportStreamPMT.rewriteID3Streams(in:)`, the C rewrite of a
    /// PMT on tsdemux's input: the input cut or padded with stuffing to 188 bytes). A rewritten
    /// packet keeps its length and declares no ID3 stream any more.
    /// - Parameter bytes: A frame's or a packet's bytes.
    package static func timedMetadata(_ bytes: [UInt8]) {
        for version in 2...4 {
            guard let frame = ID3RawFrame(bytes, version: version) else { continue }
            precondition(frame.body.count <= bytes.count, "a body longer than the frame")
            _ = frame.item(at: .seconds(1))
        }
        var packet = Array(bytes.prefix(188))
        packet += [UInt8](repeating: 0xFF, count: 188 - packet.count)
        let pids = TransportStreamPMT.rewriteID3Streams(in: &packet)
        precondition(packet.count == 188 && pids.count <= 8, "a rewrite changed the packet's length")
        if !pids.isEmpty {
            let once = packet
            precondition(
                TransportStreamPMT.rewriteID3Streams(in: &packet).isEmpty && packet == once,
                "a rewritten PMT was rewritten again")
        }
    }
}
