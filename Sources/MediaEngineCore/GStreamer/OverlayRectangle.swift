internal import CMediaEngineCGStreamer

/// An owned reference to a `GstVideoOverlayRectangle`; `deinit` drops it (`gst_mini_object_unref`).
///
/// `@unchecked Sendable`: rectangles are reference counted atomically; this wrapper writes to its
/// rectangle only in its initializer, before anyone else holds it.
final class OverlayRectangle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// `gst_video_overlay_rectangle_new_raw`: `pixels` (GStreamer's overlay format, with a video
    /// meta) drawn at (`x`, `y`) over `width`x`height` pixels of the frame. With an `opacity` below
    /// 1, the pixels are first converted to AYUV (`gst_video_overlay_rectangle_get_pixels_ayuv`,
    /// cached with the rectangle) when `convertBeforeOpacity`, then the opacity is set
    /// (`gst_video_overlay_rectangle_set_global_alpha`).
    init(pixels: Buffer, x: Int, y: Int, width: Int, height: Int, opacity: Double, convertBeforeOpacity: Bool) {
        pointer = gst_video_overlay_rectangle_new_raw(
            pixels.pointer, gint(x), gint(y), guint(width), guint(height), GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE)
        guard opacity < 1 else { return }
        if convertBeforeOpacity {
            _ = gst_video_overlay_rectangle_get_pixels_ayuv(pointer, GST_VIDEO_OVERLAY_FORMAT_FLAG_GLOBAL_ALPHA)
        }
        gst_video_overlay_rectangle_set_global_alpha(pointer, Float(opacity))
    }

    deinit {
        gst_mini_object_unref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self))
    }
}

/// A `GstVideoOverlayComposition` being built for one frame, then handed to C, which owns it.
/// A struct of one pointer: building one allocates nothing in Swift.
struct OverlayCompositionBuilder {
    private var composition: OpaquePointer?

    /// Adds `rectangle` on top (`gst_video_overlay_composition_new` for the first,
    /// `gst_video_overlay_composition_add_rectangle` after), which takes its own reference.
    mutating func add(_ rectangle: OverlayRectangle) {
        if let composition {
            gst_video_overlay_composition_add_rectangle(composition, rectangle.pointer)
        } else {
            composition = gst_video_overlay_composition_new(rectangle.pointer)
        }
    }

    /// The composition (a full reference, for the caller to hand on), or nil when nothing was added.
    consuming func take() -> OpaquePointer? {
        composition
    }
}
