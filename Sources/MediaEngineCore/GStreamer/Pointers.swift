internal import CMediaEngineCGStreamer

/// Reinterprets a pointer to one GObject/GstMiniObject struct as a pointer to another
/// (the C casts `GST_BIN (element)`, `GST_OBJECT (pad)` and friends).
@inline(__always)
func gcast<From, To>(_ pointer: UnsafeMutablePointer<From>, to: To.Type = To.self) -> UnsafeMutablePointer<To> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
}

/// Takes ownership of a C string GLib allocated (`g_free`s it) and returns it as a Swift string.
func takeGString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// `GST_CLOCK_TIME_NONE`, which does not import.
let clockTimeNone: GstClockTime = .max
