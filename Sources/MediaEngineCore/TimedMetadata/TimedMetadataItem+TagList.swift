internal import CMediaEngineGlue
internal import CMediaEngineTimedMetadata

extension TimedMetadataItem {
    /// GStreamer tags that describe the stream's coding, not its content: never timed metadata.
    static let technicalTags: Set<String> = [
        "bitrate", "minimum-bitrate", "maximum-bitrate", "nominal-bitrate", "video-codec", "audio-codec",
        "subtitle-codec", "codec", "container-format", "encoder", "encoder-version", "has-crc", "channel-mode",
        "language-code", "private-data", "private-id3v2-frame",
    ]

    /// Reads the items of one ID3 tag, as libgsttag decoded it (`gst_tag_list_from_id3v2_tag`),
    /// at `time`: one item per value, keyed by the ID3 frame ID of its tag
    /// (`gst_tag_to_id3_tag`), PRIV frames (`private-data` samples with an `ID3PrivateFrame` owner)
    /// as data, and the frames libgsttag left raw (`private-id3v2-frame`) read by ``ID3RawFrame``.
    /// Tags without a frame ID keep GStreamer's name (``KeySpace/gstreamerTag``).
    /// - Parameters:
    ///   - list: The tags.
    ///   - version: The tag's ID3v2 major version (2, 3 or 4).
    static func items(id3Tags list: TagList, version: Int, at time: Duration) -> [TimedMetadataItem] {
        var items: [TimedMetadataItem] = []
        list.forEachValue { name, value in
            switch name {
            case "private-id3v2-frame":
                guard let bytes = value.sampleContents?.bytes, let frame = ID3RawFrame(bytes, version: version)
                else { return }
                items.append(frame.item(at: time))
            case "private-data":
                guard let sample = value.sampleContents, let bytes = sample.bytes, sample.infoName == "ID3PrivateFrame"
                else { return }
                items.append(
                    TimedMetadataItem(
                        key: "PRIV", keySpace: .id3, value: .data(bytes), identifier: sample.owner, time: time))
            case _ where technicalTags.contains(name):
                return
            default:
                guard let itemValue = Self.value(of: value) else { return }
                let frame = me_tag_to_id3_frame(name).map { String(cString: $0) }
                items.append(
                    TimedMetadataItem(
                        key: frame ?? name, keySpace: frame == nil ? .gstreamerTag : .id3, value: itemValue,
                        time: time))
            }
        }
        return items
    }

    /// A tag's value: strings as text, samples (pictures, blobs) as their bytes, anything else
    /// (numbers, dates) as GStreamer serializes it.
    private static func value(of value: BorrowedValue) -> Value? {
        if value.type == me_type_string() {
            return value.string.map { .text($0) }
        }
        if value.type == me_type_sample() {
            return value.sampleContents?.bytes.map { .data($0) }
        }
        return value.serialized.map { .text($0) }
    }
}
