internal import CMediaEngineGlue

/// The X11 window a player opens for a window sink when the app gives it none.
///
/// `@unchecked Sendable`: the `MeWindow` pointer is used only under `lock`, and Xlib was told
/// (XInitThreads) that several threads use it.
final class PlayerWindow: @unchecked Sendable {
    private let window: OpaquePointer
    private let display: String?
    private let lock = Locked(())

    /// Opens a window, or returns nil when the display cannot be reached.
    init?(display: String?, size: VideoSize, title: String) {
        guard let window = me_window_open(display, Int32(size.width), Int32(size.height), title) else { return nil }
        self.window = window
        self.display = display
    }

    /// Calls `clicks` (on a thread of its own) with each left click's point and the window's
    /// size then, and `keys` with each key pressed in the window (its name as ximagesink gives
    /// it, and whether Shift was held), until the window closes; read over a display connection
    /// of the window's own, which loses none.
    /// - Returns: Whether the watch started (false: the display could not be opened again, or
    ///   the window is watched already).
    @discardableResult
    func watchInput(
        clicks: @escaping @Sendable (_ x: Int, _ y: Int, _ size: VideoSize) -> Void,
        keys: @escaping @Sendable (_ key: String, _ shift: Bool) -> Void
    ) -> Bool {
        final class Box: Sendable {
            let clicks: @Sendable (Int, Int, VideoSize) -> Void
            let keys: @Sendable (String, Bool) -> Void
            init(
                _ clicks: @escaping @Sendable (Int, Int, VideoSize) -> Void,
                _ keys: @escaping @Sendable (String, Bool) -> Void
            ) {
                self.clicks = clicks
                self.keys = keys
            }
        }
        let box = Unmanaged.passRetained(Box(clicks, keys)).toOpaque()
        let started = lock.withLock { _ in
            me_window_watch_input(
                window, display,
                { x, y, width, height, data in
                    guard let data else { return }
                    Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().clicks(
                        Int(x), Int(y), VideoSize(width: Int(width), height: Int(height)))
                },
                { key, shift, data in
                    guard let data, let key else { return }
                    Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().keys(String(cString: key), shift != 0)
                }, box,
                { data in
                    guard let data else { return }
                    Unmanaged<Box>.fromOpaque(data).release()
                })
        }
        if started == 0 { Unmanaged<Box>.fromOpaque(box).release() }
        return started != 0
    }

    deinit {
        me_window_close(window)
    }

    /// The X11 window id.
    var handle: UInt { lock.withLock { _ in UInt(me_window_xid(window)) } }

    /// Where the window is and how big, in screen pixels.
    var frame: ViewRect {
        lock.withLock { _ in
            var x: Int32 = 0
            var y: Int32 = 0
            var width: Int32 = 0
            var height: Int32 = 0
            me_window_geometry(window, &x, &y, &width, &height)
            return ViewRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
        }
    }

    /// The whole screen.
    var screen: ViewRect {
        lock.withLock { _ in
            var width: Int32 = 0
            var height: Int32 = 0
            me_window_screen_size(window, &width, &height)
            return ViewRect(x: 0, y: 0, width: Int(width), height: Int(height))
        }
    }

    /// Whether an EWMH window manager runs (it, not the app, then sizes fullscreen windows).
    var hasWindowManager: Bool { lock.withLock { _ in me_window_has_window_manager(window) != 0 } }

    /// Moves and resizes the window.
    func place(_ frame: ViewRect) {
        lock.withLock { _ in
            me_window_move_resize(window, Int32(frame.x), Int32(frame.y), Int32(frame.width), Int32(frame.height))
        }
    }

    /// Asks the window manager to make the window fullscreen (or not).
    func requestFullscreen(_ fullscreen: Bool) {
        lock.withLock { _ in me_window_set_fullscreen_hint(window, fullscreen ? 1 : 0) }
    }
}
