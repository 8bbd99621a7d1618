import MediaEngineCore

extension ParserFuzzing {
    /// The closed captions the engine decodes itself: the input as the caption data of a run of
    /// frames (its first byte picks the carriage, the second how many bytes each frame carries),
    /// through one ``ClosedCaptionDecoder``. Whatever the bytes, every channel's text fits its
    /// screen: a CEA-608 channel's at most 15 rows of at most 32 characters, a CEA-708 service's
    /// at most 8 windows of 15 rows of 42.
    /// - Parameter bytes: The frames' caption data.
    package static func closedCaptions(_ bytes: [UInt8]) {
        guard bytes.count >= 2, let carriage = CaptionCarriage(rawValue: Int32(bytes[0] % 4) + 1) else { return }
        let perFrame = Int(bytes[1] % 64) + 1
        var decoder = ClosedCaptionDecoder()
        var start = 2
        while start < bytes.count {
            let end = min(start + perFrame, bytes.count)
            let update = decoder.decode(Array(bytes[start..<end]), carriage: carriage)
            for (channel, text) in update.displayed {
                precondition(text == decoder.text(of: channel), "an update that is not what the channel shows")
            }
            start = end
        }
        for channel in ClosedCaptionChannel.allCases {
            let rows = decoder.text(of: channel).split(separator: "\n", omittingEmptySubsequences: false)
            let (maximumRows, maximumColumns) = channel.isCEA708 ? (8 * 15, 42) : (15, 32)
            precondition(
                rows.count <= maximumRows && rows.allSatisfy { $0.count <= maximumColumns },
                "text larger than the screen")
        }
    }
}
