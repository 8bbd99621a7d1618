extension MediaEngineLog {
    /// Which logs of the libraries under the engine a handler receives besides the engine's own.
    ///
    /// While either is forwarded, GStreamer's default log function is removed (it prints to
    /// standard error, or to `GST_DEBUG_FILE`, every message at its category's threshold:
    /// those the handler asked for would be printed there too, unredacted); it comes back, with
    /// the thresholds as they were, when the handler is removed or replaced by one that forwards
    /// neither.
    public struct Forwarding: Sendable, Hashable {
        /// GStreamer's debug log (`gst_debug_add_log_function`), with these thresholds in
        /// `GST_DEBUG`'s syntax, for example `"2,souphttpsrc:7"` (warnings everywhere, everything
        /// souphttpsrc says); they replace the thresholds `GST_DEBUG` set while forwarding. Nil:
        /// not forwarded (GStreamer keeps printing what `GST_DEBUG` asks for, as without a handler).
        /// Records come in category `gstreamer`.
        public var gstreamer: String?
        /// libav's messages at this level and above, in category `libav`; nil: not forwarded.
        /// They reach the engine through GStreamer's log: gst-libav forwards libav's messages to
        /// its category `libav` once it is loaded (libav has one callback per process, and
        /// gst-libav takes it when it loads), the engine's own decoders to `melibav`. gst-libav
        /// reports libav's warnings at INFO, so `warning` shows libav's errors and the engine
        /// decoders' warnings.
        public var libav: Level?

        /// Forwards what is given.
        /// - Parameters:
        ///   - gstreamer: GStreamer's thresholds, in `GST_DEBUG`'s syntax, or nil.
        ///   - libav: The least severe level of libav's messages, or nil.
        public init(gstreamer: String? = nil, libav: Level? = nil) {
            self.gstreamer = gstreamer
            self.libav = libav
        }

        /// Whether anything is forwarded.
        var isEmpty: Bool { gstreamer == nil && libav == nil }
    }
}
