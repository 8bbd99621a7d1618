internal import CMediaEngineCGStreamer
internal import CMediaEngineElements
internal import CMediaEngineGlue
internal import CMediaEngineImages
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
        GStreamerWorkaround.traceDecisions()
        return .success(())
    }()

    /// Whether GStreamer has a source element for URLs of `scheme` (`gst_uri_protocol_is_supported`
    /// for GST_URI_SRC): `rtsp`, `udp`, `srt`... False when GStreamer cannot start.
    static func canRead(scheme: String) -> Bool {
        guard (try? initialize()) != nil else { return false }
        return gst_uri_protocol_is_supported(GST_URI_SRC, scheme) != 0
    }

    /// Initializes GStreamer once for the process (`gst_init_check`). Later calls return at once.
    /// - Throws: ``MediaError`` with code ``MediaError/Code/pipelineFailure`` when GStreamer cannot start.
    public static func initialize() throws(MediaError) {
        try initialization.get()
    }

    /// Makes every decodebin and playbin in the process prefer the engine's own decoders
    /// (`meh264dec`, `meh265dec`: libavcodec with no copy of the pictures), as the engine's own
    /// pipelines do. Without this call, an app's own GStreamer pipelines keep choosing the
    /// decoders they chose before the engine was loaded (`avdec_h264`, a hardware decoder): the
    /// engine registers its decoders at rank NONE and prefers them only in its own pipelines.
    /// - Throws: ``MediaError`` with code ``MediaError/Code/pipelineFailure`` when GStreamer cannot start.
    public static func preferEngineDecodersEverywhere() throws(MediaError) {
        try initialize()
        me_prefer_engine_decoders_everywhere(1)
    }

    /// Takes ``preferEngineDecodersEverywhere()`` back: the engine's decoders are preferred in the
    /// engine's own pipelines only (the default). For tests.
    package static func preferEngineDecodersInEnginePipelinesOnly() {
        me_prefer_engine_decoders_everywhere(0)
    }

    /// Gives the memory the process's allocator holds free back to the system (glibc's
    /// `malloc_trim`), once the pipelines of the players already handed to the engine's teardown
    /// thread are torn down. Await ``MoviePlayer/shutdown()`` on the players you released first to
    /// include theirs.
    ///
    /// The engine does not do this by itself. What a released player frees (decoded pictures,
    /// buffer pools, decoder contexts: tens of MB for a 1080p movie) stays with malloc, which
    /// reuses it for the next players, so the resident size settles at what the busiest moment
    /// needed. Call this when that memory should go back, at a moment when a short stall does not
    /// matter: glibc trims each arena under that arena's lock, so for as long as it runs (about
    /// 30 ms after twenty 720p players) any thread of the process that allocates may wait. The
    /// work runs on the teardown thread, never on the caller's.
    public static func returnFreeMemory() async {
        await withCheckedContinuation { continuation in
            PipelineTeardown.returnFreeMemory { continuation.resume() }
        }
    }

    /// The version of the GStreamer library in use, for example `"GStreamer 1.22.0"`.
    public static var version: String {
        String(cString: gst_version_string())
    }

    /// For leak checks: waits until every player has been released and its own thread has torn
    /// its pipeline down (a released player does that a moment after its owner lets go). Not
    /// needed for correctness: an app that wants a player's teardown done awaits
    /// ``MoviePlayer/shutdown()``. It blocks the calling thread, so it is not for async code.
    /// - Parameter timeout: How long to wait at most.
    /// - Returns: Whether every player and its threads were gone within `timeout` (false while a
    ///   player is still held anywhere).
    @discardableResult @available(*, noasync, message: "it blocks; await MoviePlayer.shutdown() instead")
    package static func waitForPlayersToShutDown(timeout: Duration = .seconds(10)) -> Bool {
        PlayerLifetimes.waitForAll(until: .now() + timeout.inSeconds)
    }

    /// Releases GStreamer's global resources (`gst_deinit`) so that `GST_TRACERS=leaks`
    /// can report what is still alive. Call it at most once, at the very end of a process,
    /// after every player is gone; nothing in the engine may be used afterwards. It first waits
    /// for released players to finish tearing down on their own threads.
    @available(*, noasync, message: "it blocks the calling thread")
    public static func deinitializeForLeakCheck() {
        waitForPlayersToShutDown()
        me_release_image_encoders()
        gst_deinit()
    }
}
