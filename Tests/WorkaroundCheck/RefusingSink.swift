import CGStreamer
import MediaEngine

/// A video sink whose element (`merefusingsink`, a GstBaseSink registered in this process)
/// answers GST_FLOW_FLUSHING for its 5th frame while its pad is not flushing, as srtsink does
/// when a pause's unlock races a frame it renders (sinkflowguard.c); every other frame is
/// counted and dropped. Unsynchronized: the movie runs flat out.
struct RefusingSink: VideoSink {
    /// The frames the element's render was given, the refused one included.
    static let rendered = Locked(0)
    /// Which frame is refused.
    static let refused = 5

    func makeOutput() throws(MediaError) -> VideoOutput {
        .element(ElementDescription(factory: "merefusingsink", properties: ["sync": false]))
    }

    /// Registers the element's factory; once per process.
    static func register() {
        if let registered = gst_element_factory_find("merefusingsink") {
            gst_object_unref(UnsafeMutableRawPointer(registered))
            return
        }
        let type = g_type_register_static_simple(
            gst_base_sink_get_type(), "MeWorkaroundCheckRefusingSink", guint(MemoryLayout<GstBaseSinkClass>.stride),
            { type, _ in
                guard let type else { return }
                let element = type.assumingMemoryBound(to: GstElementClass.self)
                // Copied (not _static_: a Swift string handed to C lives only for the call; under
                // TSan the factory was refused for an author field that no longer held its text).
                gst_element_class_set_metadata(
                    element, "Refusing sink", "Sink/Video", "Says FLUSHING for one frame outside a flush",
                    "swift-media-engine tests")
                let caps = UnsafeMutableRawPointer(gst_caps_new_any())
                defer { gst_mini_object_unref(caps?.assumingMemoryBound(to: GstMiniObject.self)) }
                gst_element_class_add_pad_template(
                    element,
                    gst_pad_template_new(
                        "sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps?.assumingMemoryBound(to: GstCaps.self)))
                type.assumingMemoryBound(to: GstBaseSinkClass.self).pointee.render = { _, _ in
                    let count = RefusingSink.rendered.withLock { count in
                        count += 1
                        return count
                    }
                    return count == RefusingSink.refused ? GST_FLOW_FLUSHING : GST_FLOW_OK
                }
            },
            guint(MemoryLayout<GstBaseSink>.stride), nil, GTypeFlags(rawValue: 0))
        gst_element_register(nil, "merefusingsink", guint(GST_RANK_NONE.rawValue), type)
    }
}
