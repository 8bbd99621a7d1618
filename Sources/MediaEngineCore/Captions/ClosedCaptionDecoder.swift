/// Decodes the closed captions of a video stream from the caption data its frames carry, into
/// what each channel displays: CEA-608 (both fields, all four channels, by
/// ``CEA608FieldDecoder``) and CEA-708 (caption channel packets put back together by
/// ``DTVCCPacketAssembler``; services 1 to 6, each by a ``CEA708ServiceDecoder``).
package struct ClosedCaptionDecoder: Sendable, Equatable {
    package init() {}

    private var fields = [CEA608FieldDecoder(field: 1), CEA608FieldDecoder(field: 2)]
    private var packets = DTVCCPacketAssembler()
    private var services = [CEA708ServiceDecoder](repeating: CEA708ServiceDecoder(), count: 6)

    /// What one frame's caption data did.
    package struct Update: Sendable, Equatable {
        /// Channels that carry captions now (a caption command came), in channel order.
        package var channels: [ClosedCaptionChannel] = []
        /// The text each channel whose display changed shows now ("" for nothing).
        package var displayed: [ClosedCaptionChannel: String] = [:]
    }

    /// Decodes one frame's caption data, carried as `carriage` says.
    package mutating func decode(_ bytes: [UInt8], carriage: CaptionCarriage) -> Update {
        var changed: [ClosedCaptionChannel: String] = [:]
        for pair in carriage.pairs(in: bytes) {
            let index = pair.field - 1
            guard fields.indices.contains(index),
                let change = fields[index].decode(pair.first, pair.second), change.displayChanged
            else { continue }
            let channel = ClosedCaptionChannel(field: pair.field, dataChannel: change.dataChannel)
            changed[channel] = text(of: channel)
        }
        for dtvcc in carriage.dtvccBytes(in: bytes) {
            for block in packets.add(dtvcc) {
                // Services 7 to 63 (extended) are rare and have no channel: they are skipped.
                guard let channel = ClosedCaptionChannel(service: block.service) else { continue }
                let before = services[block.service - 1].text
                services[block.service - 1].decode(block.data)
                let after = services[block.service - 1].text
                if after != before { changed[channel] = after }
            }
        }
        var update = Update()
        update.channels = ClosedCaptionChannel.allCases.filter(carriesCaptions)
        update.displayed = changed
        return update
    }

    /// What `channel` displays now.
    package func text(of channel: ClosedCaptionChannel) -> String {
        if channel.isCEA708 { return services[channel.rawValue - 101].text }
        let index = channel.rawValue - 1
        return fields[index / 2].channels[index % 2].displayed.text
    }

    private func carriesCaptions(_ channel: ClosedCaptionChannel) -> Bool {
        if channel.isCEA708 { return services[channel.rawValue - 101].carriesCaptions }
        let index = channel.rawValue - 1
        return fields[index / 2].channels[index % 2].carriesCaptions
    }
}
