internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// The engine's log, for an app that wants it in its own logger: one handler for the process
/// (``MediaEngineLogHandler``), which receives the engine's own records and, when asked,
/// GStreamer's debug log and libav's messages, redacted, on the engine's logging thread.
///
/// ```swift
/// try MediaEngineLog.setHandler(MyHandler(), forwarding: .init(gstreamer: "2,souphttpsrc:5", libav: .warning))
/// ```
///
/// Without a handler (the default), nothing changes from an engine without this hook:
/// `MEDIA_ENGINE_TRACE=1` prints the engine's records to standard error, warnings are printed
/// there whatever the variable, `GST_DEBUG` sets what GStreamer prints there, and libav's
/// messages go where gst-libav and the engine's decoders send them (GStreamer's log). See
/// <doc:Logging>.
public enum MediaEngineLog {
    /// What is forwarded while a handler is installed; nil while none is. Its lock also orders
    /// installations and removals.
    private static let installed = Locked<Forwarding?>(nil)

    /// Installs the handler for the process, replacing any other: from now on it receives the
    /// engine's records at its ``MediaEngineLogHandler/logLevel`` and above, and what `forwarding`
    /// asks for. Records already queued for the previous handler still go to it.
    /// - Parameters:
    ///   - handler: Where the records go.
    ///   - forwarding: GStreamer's and libav's logs to forward too (none by default).
    /// - Throws: `MediaError` with code ``MediaError/Code/pipelineFailure`` when something is to be
    ///   forwarded and GStreamer cannot start (the handler stays installed, for the engine's own
    ///   records).
    public static func setHandler(
        _ handler: any MediaEngineLogHandler, forwarding: Forwarding = Forwarding()
    ) throws(MediaError) {
        let level = handler.logLevel
        try installed.withLock { (installed) throws(MediaError) in
            // The change of handler is queued before any record meant for the new one.
            guard LoggingThread.shared.install(handler) else { return }
            EngineLog.handlerChanged(installed: true, level: level)
            let wasForwarding = !(installed?.isEmpty ?? true)
            installed = forwarding
            if forwarding.isEmpty {
                if wasForwarding { me_log_forward_stop() }
                return
            }
            // GStreamer's start says which workarounds are on: the new handler hears it.
            try GStreamer.initialize()
            let (gstreamer, libav): (gboolean, gboolean) = (
                forwarding.gstreamer != nil ? 1 : 0, forwarding.libav != nil ? 1 : 0
            )
            let libavLevel = forwarding.libav?.gstreamerThreshold ?? GST_LEVEL_NONE
            if let thresholds = forwarding.gstreamer {
                me_log_forward_start(thresholds, gstreamer, libav, libavLevel)
            } else {
                me_log_forward_start(nil, gstreamer, libav, libavLevel)
            }
        }
    }

    /// Removes the handler: the engine behaves as without one again (standard error under
    /// `MEDIA_ENGINE_TRACE=1`, GStreamer's own log function and thresholds back). Records already
    /// queued still go to the handler. Nothing when none is installed.
    public static func removeHandler() {
        installed.withLock { installed in
            guard let forwarding = installed else { return }
            if !forwarding.isEmpty { me_log_forward_stop() }
            EngineLog.handlerChanged(installed: false, level: EngineLog.defaultLevel)
            // After the last record meant for the handler.
            LoggingThread.shared.install(nil)
            installed = nil
        }
    }

    /// The threshold of GStreamer's debug category `name` now (`gst_debug_category_get_threshold`),
    /// or nil when no category has that name. For tests.
    /// - Parameter name: The category's name.
    /// - Returns: Its GstDebugLevel.
    package static func gstreamerThreshold(of name: String) -> Int? {
        let categories = gst_debug_get_all_categories()
        defer { g_slist_free(categories) }
        var node = categories
        while let current = node {
            if let category = current.pointee.data?.assumingMemoryBound(to: GstDebugCategory.self),
                String(cString: gst_debug_category_get_name(category)) == name
            {
                return Int(gst_debug_category_get_threshold(category).rawValue)
            }
            node = current.pointee.next
        }
        return nil
    }

    /// Returns once every record queued before the call has been handed to the handler (or
    /// dropped). For an app about to exit, and for tests. Nothing to wait for without a handler.
    public static func flush() async {
        await LoggingThread.shared.flush()
    }
}
