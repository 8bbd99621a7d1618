internal import CGStreamer
internal import CGStreamerShim

/// An owned reference to a `GstPad`; `deinit` drops it with `gst_object_unref`.
///
/// `@unchecked Sendable`: pads are GStreamer objects, guarded by their own object and
/// stream locks; this wrapper holds only the immutable pointer.
final class Pad: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstPad>

    /// Adopts a reference the caller owns.
    init(owning pointer: UnsafeMutablePointer<GstPad>) {
        self.pointer = pointer
    }

    deinit {
        gst_object_unref(pointer)
    }

    /// The caps negotiated on the pad (`gst_pad_get_current_caps`), if any.
    var currentCaps: Caps? {
        gst_pad_get_current_caps(pointer).map { Caps(owning: $0) }
    }

    /// The element that owns the pad (`gst_pad_get_parent_element`).
    var parentElement: Element? {
        gst_pad_get_parent_element(pointer).map { Element(owning: $0) }
    }

    /// The pad this one is linked to (`gst_pad_get_peer`).
    var peer: Pad? {
        gst_pad_get_peer(pointer).map { Pad(owning: $0) }
    }

    /// Posts "me-first-frame" on `element`'s bus for the first buffer after start and after each flush.
    func watchFirstFrame(postingOn element: Element) {
        me_watch_first_frame(pointer, element.pointer)
    }
}
