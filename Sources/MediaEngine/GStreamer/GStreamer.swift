internal import CGStreamer
internal import CGStreamerShim
import Dispatch

/// Process-wide GStreamer set-up. The engine initializes GStreamer by itself the first
/// time it needs it; call ``initialize()`` only to pay that cost (and see its error) early.
public enum GStreamer {
    private static let initialization: Result<Void, MediaError> = {
        var error: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "gst_init_check failed"
            if let error { g_error_free(error) }
            return .failure(MediaError(.pipelineFailure, "GStreamer could not be initialized: \(message)"))
        }
        guard me_register_elements() != 0 else {
            return .failure(MediaError(.pipelineFailure, "the engine's own GStreamer elements could not be registered"))
        }
        return .success(())
    }()

    /// Initializes GStreamer once for the process (`gst_init_check`). Later calls return at once.
    /// - Throws: ``MediaError`` with code ``MediaError/Code/pipelineFailure`` when GStreamer cannot start.
    public static func initialize() throws(MediaError) {
        try initialization.get()
    }

    /// The version of the GStreamer library in use, for example `"GStreamer 1.22.0"`.
    public static var version: String {
        String(cString: gst_version_string())
    }

    /// Waits until every player has been released and has shut its pipeline down. A player can
    /// shut down a moment after its owner lets go of it, on another thread (its notification
    /// forwarder or one of its event callbacks may have held it at that instant), and a bus
    /// thread can end a moment after its player. Call this before counting a process's threads
    /// and file descriptors, or before it exits; it blocks the calling thread.
    /// - Parameter timeout: How long to wait at most.
    /// - Returns: Whether every player and its threads were gone within `timeout` (false while a
    ///   player is still held anywhere).
    @discardableResult
    public static func waitForPlayersToShutDown(timeout: Duration = .seconds(10)) -> Bool {
        PlayerLifetimes.waitForAll(until: .now() + timeout.secondsValue)
    }

    /// Releases GStreamer's global resources (`gst_deinit`) so that `GST_TRACERS=leaks`
    /// can report what is still alive. Call it at most once, at the very end of a process,
    /// after every player is gone; nothing in the engine may be used afterwards. It first waits
    /// (``waitForPlayersToShutDown(timeout:)``) for released players to finish shutting down.
    public static func deinitializeForLeakCheck() {
        waitForPlayersToShutDown()
        gst_deinit()
    }
}
