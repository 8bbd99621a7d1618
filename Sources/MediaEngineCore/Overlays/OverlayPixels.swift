internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// Converts overlay pixels to what GStreamer's overlay rectangles take.
enum OverlayPixels {
    /// RGBA bytes to a BGRA buffer (GStreamer's overlay format on little-endian machines) with a video meta.
    static func makeBuffer(rgba: [UInt8], width: Int, height: Int) -> Buffer {
        let raw = rgba.withUnsafeBufferPointer { me_overlay_buffer_new($0.baseAddress, guint(width), guint(height)) }
        return Buffer(owning: raw!)
    }
}
