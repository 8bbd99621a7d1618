/// Decodes the CEA-608 captions of a video stream, both fields and all four channels, from the
/// caption data its frames carry, into what each channel displays.
package struct CEA608Decoder: Sendable, Equatable {
    package init() {}

    private var fields = [CEA608FieldDecoder(field: 1), CEA608FieldDecoder(field: 2)]

    /// What one frame's caption data did.
    package struct Update: Sendable, Equatable {
        /// Channels that carry captions now (a caption command came), in channel order.
        package var channels: [ClosedCaptionChannel] = []
        /// The text each channel whose display changed shows now ("" for nothing).
        package var displayed: [ClosedCaptionChannel: String] = [:]
    }

    /// Decodes one frame's caption data, carried as `carriage` says.
    package mutating func decode(_ bytes: [UInt8], carriage: CaptionCarriage) -> Update {
        var changed: Set<ClosedCaptionChannel> = []
        for pair in carriage.pairs(in: bytes) {
            let index = pair.field - 1
            guard fields.indices.contains(index),
                let change = fields[index].decode(pair.first, pair.second), change.displayChanged
            else { continue }
            changed.insert(ClosedCaptionChannel(field: pair.field, dataChannel: change.dataChannel))
        }
        var update = Update()
        update.channels = ClosedCaptionChannel.allCases.filter { decoder(of: $0).carriesCaptions }
        for channel in changed { update.displayed[channel] = decoder(of: channel).displayed.text }
        return update
    }

    /// What `channel` displays now.
    package func text(of channel: ClosedCaptionChannel) -> String { decoder(of: channel).displayed.text }

    private func decoder(of channel: ClosedCaptionChannel) -> CEA608ChannelDecoder {
        let index = channel.rawValue - 1
        return fields[index / 2].channels[index % 2]
    }
}
