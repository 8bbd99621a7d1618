internal import CGStreamer
internal import CGStreamerShim

/// The video output's compositing step: one `overlaycomposition` element whose `draw` signal asks,
/// for every frame, which overlays to blend. The engine answers with one
/// `GstVideoOverlayComposition` holding a rectangle per visible overlay; GStreamer blends them
/// (or attaches them as meta for a sink that composites itself).
///
/// The `draw` handler is a C function pointer; it runs on the video streaming thread.
final class OverlayStage: Sendable {
    let element: Element

    init(overlays: VideoOverlays) throws(MediaError) {
        element = try Element.make("overlaycomposition", name: "me-overlays")
        // The signal keeps the compositor alive; the compositor must not keep the element alive
        // (that would be a cycle, and the element would never be freed).
        OverlayCompositor(overlays: overlays).connect(to: element)
    }
}

/// Answers `overlaycomposition`'s `draw` signal.
///
/// `@unchecked Sendable`: `info`, `infoCaps` and `rectangles` are touched only by the `draw`
/// handler, which GStreamer calls on the element's streaming thread, one frame at a time.
private final class OverlayCompositor: @unchecked Sendable {
    private let overlays: VideoOverlays
    private var info = GstVideoInfo()
    private var infoCaps: Caps?
    /// The rectangle last made for each overlay, reused while nothing about it changes so that
    /// GStreamer's scaled and converted copies of its pixels are reused too.
    private var rectangles: [VideoOverlays.ID: CachedRectangle] = [:]

    init(overlays: VideoOverlays) {
        self.overlays = overlays
    }

    func connect(to element: Element) {
        me_signal_connect_draw(
            element.pointer,
            { _, sample, data in
                guard let sample, let data else { return nil }
                return Unmanaged<OverlayCompositor>.fromOpaque(data).takeUnretainedValue().draw(
                    Sample(borrowing: sample))
            },
            Unmanaged.passRetained(self).toOpaque(),
            { data, _ in
                guard let data else { return }
                Unmanaged<OverlayCompositor>.fromOpaque(data).release()
            })
    }

    private func draw(_ sample: Sample) -> OpaquePointer? {
        guard !overlays.isEmpty else {
            if !rectangles.isEmpty { rectangles.removeAll() }
            return nil
        }
        guard let caps = sample.caps, let buffer = sample.buffer else { return nil }
        if infoCaps?.pointer != caps {
            guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
            infoCaps = Caps(borrowing: caps)
        }
        let frame = VideoSize(width: Int(info.width), height: Int(info.height))
        let request = OverlayRenderRequest(
            frameSize: frame, time: Duration(clockTime: sample.streamTime(of: me_buffer_pts(buffer))))
        var composition: OpaquePointer?
        var drawn: [VideoOverlays.ID: CachedRectangle] = [:]
        for (id, overlay) in overlays.all where overlay.isVisible {
            let opacity = min(1, max(0, overlay.opacity))
            guard opacity > 0 else { continue }
            if let range = overlay.timeRange {
                guard let time = request.time, range.contains(time) else { continue }
            }
            guard let bitmap = overlay.bitmap(for: request) else { continue }
            let placed = overlay.placement.rectangle(in: frame, natural: bitmap.size)
            let key = CachedRectangle.Key(
                bitmap: ObjectIdentifier(bitmap), x: placed.x, y: placed.y, width: placed.width,
                height: placed.height, opacity: opacity)
            let rectangle =
                rectangles[id].flatMap { $0.key == key ? $0 : nil } ?? CachedRectangle(key: key, bitmap: bitmap)
            drawn[id] = rectangle
            if let existing = composition {
                gst_video_overlay_composition_add_rectangle(existing, rectangle.pointer)
            } else {
                composition = gst_video_overlay_composition_new(rectangle.pointer)
            }
        }
        rectangles = drawn
        return composition
    }
}

/// A `GstVideoOverlayRectangle` and what it was made from.
private final class CachedRectangle {
    struct Key: Equatable {
        let bitmap: ObjectIdentifier
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        let opacity: Double
    }

    let key: Key
    let pointer: OpaquePointer
    /// Keeps the bitmap (and so its identity in `key`) alive as long as the rectangle.
    private let bitmap: OverlayBitmap

    init(key: Key, bitmap: OverlayBitmap) {
        self.key = key
        self.bitmap = bitmap
        pointer = gst_video_overlay_rectangle_new_raw(
            bitmap.buffer().pointer, gint(key.x), gint(key.y), guint(key.width), guint(key.height),
            GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE)
        if key.opacity < 1 {
            gst_video_overlay_rectangle_set_global_alpha(pointer, Float(key.opacity))
        }
    }

    deinit {
        gst_mini_object_unref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self))
    }
}
