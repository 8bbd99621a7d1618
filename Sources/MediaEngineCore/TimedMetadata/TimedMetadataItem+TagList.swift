internal import CGStreamer
internal import CGStreamerShim

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
    ///   - list: A `GstTagList *`, borrowed.
    ///   - version: The tag's ID3v2 major version (2, 3 or 4).
    static func items(id3Tags list: UnsafePointer<GstTagList>, version: Int, at time: Duration) -> [TimedMetadataItem] {
        var items: [TimedMetadataItem] = []
        for index in 0..<max(0, Int(gst_tag_list_n_tags(list))) {
            guard let rawName = gst_tag_list_nth_tag_name(list, guint(index)) else { continue }
            let name = String(cString: rawName)
            let count = Int(gst_tag_list_get_tag_size(list, rawName))
            for position in 0..<max(0, count) {
                guard let value = gst_tag_list_get_value_index(list, rawName, guint(position)) else { continue }
                switch name {
                case "private-id3v2-frame":
                    guard let bytes = sampleBytes(value).bytes, let frame = ID3RawFrame(bytes, version: version)
                    else { continue }
                    items.append(frame.item(at: time))
                case "private-data":
                    let sample = sampleBytes(value)
                    guard let bytes = sample.bytes, sample.infoName == "ID3PrivateFrame" else { continue }
                    items.append(
                        TimedMetadataItem(
                            key: "PRIV", keySpace: .id3, value: .data(bytes), identifier: sample.owner, time: time))
                case _ where technicalTags.contains(name):
                    continue
                default:
                    guard let itemValue = Self.value(of: value) else { continue }
                    let frame = me_tag_to_id3_frame(rawName).map { String(cString: $0) }
                    items.append(
                        TimedMetadataItem(
                            key: frame ?? name, keySpace: frame == nil ? .gstreamerTag : .id3, value: itemValue,
                            time: time))
                }
            }
        }
        return items
    }

    /// A tag's value: strings as text, samples (pictures, blobs) as their bytes, anything else
    /// (numbers, dates) as GStreamer serializes it.
    private static func value(of value: UnsafePointer<GValue>) -> Value? {
        let type = me_value_type(value)
        if type == me_type_string() {
            return g_value_get_string(value).map { .text(String(cString: $0)) }
        }
        if type == me_type_sample() {
            return sampleBytes(value).bytes.map { .data($0) }
        }
        return takeGString(gst_value_serialize(value)).map { .text($0) }
    }

    /// The bytes of a sample-valued tag, its info structure's name and its `owner` field.
    private static func sampleBytes(_ value: UnsafePointer<GValue>) -> (
        bytes: [UInt8]?, infoName: String?, owner: String?
    ) {
        guard me_value_type(value) == me_type_sample(), let boxed = g_value_get_boxed(value) else {
            return (nil, nil, nil)
        }
        let sample = OpaquePointer(boxed)
        var bytes: [UInt8]?
        if let buffer = gst_sample_get_buffer(sample) {
            let size = Int(gst_buffer_get_size(buffer))
            var copy = [UInt8](repeating: 0, count: size)
            let copied = copy.withUnsafeMutableBytes { gst_buffer_extract(buffer, 0, $0.baseAddress, gsize(size)) }
            bytes = Array(copy.prefix(Int(copied)))
        }
        var infoName: String?
        var owner: String?
        if let info = gst_sample_get_info(sample) {
            infoName = String(cString: gst_structure_get_name(info))
            owner = gst_structure_get_string(info, "owner").map { String(cString: $0) }
        }
        return (bytes, infoName, owner)
    }
}
