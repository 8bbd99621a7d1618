internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// An owned reference to a `GstMessage`; `deinit` drops it with `gst_message_unref`.
///
/// `@unchecked Sendable`: messages are immutable once posted and reference counted atomically.
final class Message: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstMessage>

    init(owning pointer: UnsafeMutablePointer<GstMessage>) {
        self.pointer = pointer
    }

    deinit {
        gst_message_unref(pointer)
    }

    /// `GST_MESSAGE_TYPE`.
    var type: GstMessageType { me_message_type(pointer) }

    /// `gst_message_get_seqnum`.
    var seqnum: UInt32 { gst_message_get_seqnum(pointer) }

    /// `GST_MESSAGE_SRC` as a raw pointer, for identity checks only.
    var sourcePointer: UnsafeMutableRawPointer? { me_message_source(pointer).map { UnsafeMutableRawPointer($0) } }

    /// The name of the object that posted the message.
    var sourceName: String? {
        me_message_source(pointer).flatMap { takeGString(gst_object_get_name($0)) }
    }

    /// Whether the message comes from a demuxer that has exposed no stream yet
    /// (`me_is_demuxer_without_streams`).
    var isFromDemuxerWithoutStreams: Bool {
        me_is_demuxer_without_streams(me_message_source(pointer)) != 0
    }

    /// The factory name of the element that posted the message, if an element did.
    var sourceFactoryName: String? {
        guard let source = me_message_source(pointer),
            g_type_check_instance_is_a(gcast(source, to: GTypeInstance.self), gst_element_get_type()) != 0,
            let name = me_element_factory_name(gcast(source))
        else { return nil }
        return String(cString: name)
    }

    /// Whether the message comes from an element whose factory's class names video (a video
    /// decoder, converter or sink), or from a sink inside the player's video output (`appsink`
    /// and `fakesink` are "Generic/Sink", and the frames they drop are video frames).
    var sourceIsVideoElement: Bool {
        guard let source = me_message_source(pointer),
            g_type_check_instance_is_a(gcast(source, to: GTypeInstance.self), gst_element_get_type()) != 0,
            let factory = gst_element_get_factory(gcast(source)),
            let klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS)
        else { return false }
        if String(cString: klass).contains("Video") { return true }
        let object: UnsafeMutablePointer<GstObject> = gcast(source)
        guard object.pointee.flags & GST_ELEMENT_FLAG_SINK.rawValue != 0 else { return false }
        // Up the parents (each referenced while looked at) to the video output's bin.
        var parent = gst_object_get_parent(object)
        while let current = parent {
            defer { gst_object_unref(current) }
            if takeGString(gst_object_get_name(current)) == VideoOutputBin.binName { return true }
            parent = gst_object_get_parent(current)
        }
        return false
    }

    /// `gst_message_get_structure`, valid while this message lives.
    var structure: Structure? {
        gst_message_get_structure(pointer).map { Structure(borrowing: $0, owner: self) }
    }
}
