internal import CMediaEngineCGStreamer
internal import CMediaEngineElements

/// The engine's one compositing step for every overlay. It runs inside the video bin's scaler
/// (`mescaler`, see scaler.c), after the picture has been scaled and placed: for each frame the
/// scaler hands over where the movie's picture landed in the output (``OverlayGeometry``), the
/// compositor answers with one `GstVideoOverlayComposition` holding a rectangle per visible
/// overlay, placed in the movie's or the view's pixels, which the scaler blends onto the frame
/// (`scalerblend.c` for the decoders' 4:2:0 formats, `gst_video_blend` for others).
///
/// An overlay whose bitmap throws is skipped for that frame; its error is announced once
/// (``PlayerEvent/overlayFailed(_:_:)``), and again only after it has drawn successfully.
///
/// `@unchecked Sendable`: `rectangles` and `failing` are touched only by `compose`, which the
/// scaler calls on its streaming thread, one frame at a time.
final class OverlayCompositor: @unchecked Sendable {
    private let overlays: VideoOverlays
    /// The rectangle last made for each overlay, reused while nothing about it changes so that
    /// GStreamer's scaled and converted copies of its pixels are reused too.
    private var rectangles: [VideoOverlays.ID: CachedRectangle] = [:]
    /// Overlays whose latest attempt failed (their error already announced).
    private var failing: Set<VideoOverlays.ID> = []

    private init(overlays: VideoOverlays) {
        self.overlays = overlays
    }

    /// Makes `scaler` ask a new compositor for each frame's overlays (while its `compositing` is on).
    static func install(on scaler: Element, overlays: VideoOverlays) {
        let compositor = OverlayCompositor(overlays: overlays)
        // The scaler keeps the compositor alive; the compositor holds no reference to the scaler.
        me_scaler_set_compositor(
            scaler.pointer,
            { geometry, data in
                guard let geometry, let data else { return nil }
                return Unmanaged<OverlayCompositor>.fromOpaque(data).takeUnretainedValue().compose(
                    OverlayGeometry(geometry.pointee))
            },
            Unmanaged.passRetained(compositor).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<OverlayCompositor>.fromOpaque(data).release()
            })
    }

    private func compose(_ geometry: OverlayGeometry) -> OpaquePointer? {
        var composition = OverlayCompositionBuilder()
        var drawn: [VideoOverlays.ID: CachedRectangle] = [:]
        var placed: [OverlayLayout.Placed] = []
        var failures: [PlayerEvent] = []
        for (id, overlay) in overlays.all where overlay.isVisible {
            let opacity = min(1, max(0, overlay.opacity))
            guard opacity > 0 else { continue }
            if let range = overlay.timeRange {
                guard let time = geometry.time, range.contains(time) else { continue }
            }
            let placement = overlay.placement
            let space = geometry.size(of: placement.space)
            let bitmap: OverlayBitmap
            do {
                guard
                    let made = try overlay.bitmap(
                        for: OverlayRenderRequest(
                            frameSize: space, time: geometry.time, pictureRect: geometry.pictureRect))
                else { continue }
                bitmap = made
                failing.remove(id)
            } catch {
                if failing.insert(id).inserted { failures.append(.overlayFailed(id, error)) }
                continue
            }
            let rect = geometry.viewRect(for: placement.rectangle(in: space, natural: bitmap.size), in: placement.space)
            guard rect.width > 0, rect.height > 0 else { continue }
            placed.append(
                OverlayLayout.Placed(id: id, rect: rect, bitmapSize: bitmap.size, regions: overlay.hitRegions))
            let key = CachedRectangle.Key(bitmap: ObjectIdentifier(bitmap), rect: rect, opacity: opacity)
            let rectangle =
                rectangles[id].flatMap { $0.key == key ? $0 : nil } ?? CachedRectangle(key: key, bitmap: bitmap)
            drawn[id] = rectangle
            composition.add(rectangle.rectangle)
        }
        rectangles = drawn
        overlays.layout.withLock { $0 = OverlayLayout(geometry: geometry, placed: placed) }
        if !failures.isEmpty { overlays.announce(failures) }
        return composition.take()
    }
}

/// A `GstVideoOverlayRectangle` and what it was made from.
private final class CachedRectangle {
    struct Key: Equatable {
        let bitmap: ObjectIdentifier
        let rect: ViewRect
        let opacity: Double
    }

    let key: Key
    let rectangle: OverlayRectangle
    /// Keeps the bitmap (and so its identity in `key`) alive as long as the rectangle.
    private let bitmap: OverlayBitmap

    init(key: Key, bitmap: OverlayBitmap) {
        self.key = key
        self.bitmap = bitmap
        // Workaround "overlay-global-alpha" (GStreamerWorkaround.overlayGlobalAlpha): the scaler
        // blends the AYUV version of the pixels. GStreamer converts them on first use and, for a
        // rectangle that already has an opacity, then sets it on a NULL rectangle
        // (gst_video_overlay_rectangle_get_pixels_raw_internal calls
        // gst_video_overlay_rectangle_set_global_alpha on `scaled_rect` before it exists: a
        // CRITICAL on every translucent overlay; seen on 1.22.0, still so in 1.29.2's source; no
        // upstream issue found; fixed here in commit 4e9a09a, "Translucent overlays no longer trip
        // GStreamer 1.22's CRITICAL"). Converting before the opacity is set avoids that path; the
        // conversion is cached with the rectangle either way. Off: the CRITICAL is logged for each
        // translucent overlay converted to AYUV (drawn at another size than its pixels' on YUV
        // frames): WorkaroundReproductionTests' overlay-global-alpha test (engine-workaround-check,
        // forced off and on), one CRITICAL off, none on.
        rectangle = OverlayRectangle(
            pixels: bitmap.buffer(), x: key.rect.x, y: key.rect.y, width: key.rect.width, height: key.rect.height,
            opacity: key.opacity, convertBeforeOpacity: GStreamerWorkaround.overlayGlobalAlpha.isActive)
    }
}
