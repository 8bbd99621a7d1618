internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline
internal import CMediaEngineWorkarounds

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

    /// Posts "me-first-frame" on `element`'s bus for the first buffer after start and after each
    /// flush; with `hold`, drops buffers until the first flush and posts "me-first-frame-held".
    /// - Returns: The watch, valid as long as this pad.
    func watchFirstFrame(postingOn element: Element, hold: Bool) -> FirstFrameWatch {
        FirstFrameWatch(raw: me_watch_first_frame(pointer, element.pointer, hold ? 1 : 0))
    }

    /// Rewrites each gapless loop's segment so running time continues exactly (`me_keep_loops_continuous`).
    func keepLoopsContinuous() {
        me_keep_loops_continuous(pointer)
    }
}

/// The C side of a first-frame watch on a pad (see `me_watch_first_frame`).
///
/// `@unchecked Sendable`: the watch's fields are atomics in C; it lives as long as its pad, and
/// the `VideoOutputBin` that holds this keeps the pad alive.
struct FirstFrameWatch: @unchecked Sendable {
    let raw: OpaquePointer

    /// Drops frames until the next flush, announcing the first one as held.
    func hold() {
        me_first_frame_watch_hold(raw)
    }

    /// Where in the movie the last frame let through ends; nil before any since the last flush.
    var lastFrameEnd: Duration? {
        Duration(clockTime: me_first_frame_watch_last_end(raw))
    }
}
