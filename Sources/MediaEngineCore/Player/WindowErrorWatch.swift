internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// Turns X errors that name a window a video sink draws in into a ``MediaError`` for its player,
/// instead of the exit of Xlib's default handler (`me_x_watch_window`).
///
/// ximagesink draws over an X connection of its own, which the engine cannot reach: when the
/// app destroys its window during playback, the sink's next request fails, and the engine's
/// process-wide X error handler (xerrors.c) finds this watch by the window's id. Keep the watch
/// until the pipeline is in NULL, since taking a window sink down makes requests on the window too.
final class WindowErrorWatch: Sendable {
    private let token: guint64

    /// Watches `window`; `handler` gets the first error, inside Xlib's error handler (maybe on a
    /// streaming thread), so it must only hand the error on: the player enqueues it onto its own
    /// thread, which tears the pipeline down.
    init(window: UInt, handler: @escaping @Sendable (MediaError) -> Void) {
        final class Box: Sendable {
            let handler: @Sendable (MediaError) -> Void
            init(_ handler: @escaping @Sendable (MediaError) -> Void) { self.handler = handler }
        }
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        token = me_x_watch_window(
            window,
            { detail, data in
                // Inside Xlib's error handler, maybe on a streaming thread: only hand the error on.
                guard let data else { return }
                let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
                let error = MediaError(
                    .invalidWindow, "the window the video is drawn in is gone, or refuses drawing",
                    debugDetail: detail.map { String(cString: $0) })
                box.handler(error)
            }, box,
            { data in
                guard let data else { return }
                Unmanaged<Box>.fromOpaque(data).release()
            })
    }

    deinit {
        me_x_unwatch_window(token)
    }

    /// Whether window `handle` on `display` (nil: `$DISPLAY`) exists and can be drawn in, and its
    /// size (`me_window_check`: XGetWindowAttributes on a connection of the engine's, its errors
    /// caught).
    /// - Throws: ``MediaError/Code/invalidWindow`` for a window that does not exist or cannot be
    ///   drawn in; ``MediaError/Code/unsupportedOperation`` when the display cannot be reached, or
    ///   when no window system is linked (MediaEngineCore alone).
    static func checkedSize(ofWindow handle: UInt, display: String?) throws(MediaError) -> VideoSize {
        var width: Int32 = 0
        var height: Int32 = 0
        var detail: UnsafeMutablePointer<CChar>?
        let result = me_window_check(display, handle, &width, &height, &detail)
        let debugDetail = takeGString(detail)
        switch result {
        case ME_WINDOW_USABLE:
            return VideoSize(width: Int(width), height: Int(height))
        case ME_WINDOW_NO_WINDOW_SYSTEM:
            throw MediaError.noWindowSystem
        case ME_WINDOW_NO_DISPLAY:
            throw MediaError(
                .unsupportedOperation, "cannot open the X display \(display ?? "$DISPLAY") for the app's window")
        case ME_WINDOW_MISSING:
            throw MediaError(
                .invalidWindow, "no window 0x\(String(handle, radix: 16)) on the display (windowHandle)",
                debugDetail: debugDetail)
        default:
            throw MediaError(
                .invalidWindow, "window 0x\(String(handle, radix: 16)) cannot be drawn in (windowHandle)",
                debugDetail: debugDetail)
        }
    }
}
