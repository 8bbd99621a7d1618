internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// A read-only view of a `GValue` owned by something else (a structure, a tag list), which it
/// keeps alive. Each accessor names the GLib or GStreamer function it reads with.
struct BorrowedValue {
    let pointer: UnsafePointer<GValue>
    private let owner: AnyObject

    init(borrowing pointer: UnsafePointer<GValue>, owner: AnyObject) {
        self.pointer = pointer
        self.owner = owner
    }

    /// `G_VALUE_TYPE`.
    var type: GType { me_value_type(pointer) }

    /// `g_value_get_string`, when the value holds a string.
    var string: String? {
        guard type == me_type_string() else { return nil }
        return g_value_get_string(pointer).map { String(cString: $0) }
    }

    /// Whether the value holds a `GstSample` or a `GstBuffer` (binary data: cover art, blobs).
    var holdsBinary: Bool { type == gst_sample_get_type() || type == gst_buffer_get_type() }

    /// `gst_value_serialize`: the value as GStreamer writes it in caps and structures.
    var serialized: String? { takeGString(gst_value_serialize(pointer)) }

    /// `gst_value_get_caps`, when the value holds caps (a new reference).
    var caps: Caps? {
        guard type == gst_caps_get_type(), let caps = gst_value_get_caps(pointer) else { return nil }
        return Caps(borrowing: UnsafeMutablePointer(mutating: caps))
    }

    /// `gst_value_get_structure`, when the value holds a structure (borrowed from the value's owner).
    var structure: Structure? {
        guard type == gst_structure_get_type(), let structure = gst_value_get_structure(pointer) else { return nil }
        return Structure(borrowing: structure, owner: owner)
    }

    /// `g_value_get_boxed` of a `GstTagList` value (a new reference).
    var tagList: TagList? {
        guard type == me_type_tag_list(), let boxed = g_value_get_boxed(pointer) else { return nil }
        return TagList(borrowing: boxed.assumingMemoryBound(to: GstTagList.self))
    }

    /// The bytes of a `GstSample` value's buffer (`gst_buffer_extract`), its info structure's name
    /// and that structure's `owner` string (`gst_sample_get_info`); nil when the value holds no sample.
    var sampleContents: (bytes: [UInt8]?, infoName: String?, owner: String?)? {
        guard type == me_type_sample(), let boxed = g_value_get_boxed(pointer) else { return nil }
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
