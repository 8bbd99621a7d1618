internal import CMediaEngineCGStreamer

/// Looks up element factories in GStreamer's registry.
enum ElementFactory {
    /// Whether a factory of this name is installed (`gst_element_factory_find`).
    static func exists(_ name: String) -> Bool {
        guard (try? GStreamer.initialize()) != nil, let factory = gst_element_factory_find(name) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }
}
