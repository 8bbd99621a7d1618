internal import CMediaEngineCGStreamer

@_spi(Benchmarks)
extension PlaybinBaseline {
    /// A bare `playbin` (GStreamer's own decoders, default flags) that played a movie to its end
    /// at playback speed: how many pictures its video sink rendered and dropped (the sink's
    /// `stats`, `gst_base_sink_get_stats`).
    public struct Playback: Sendable {
        /// Pictures the video sink rendered.
        public let rendered: Int
        /// Pictures the video sink dropped as too late.
        public let dropped: Int
    }

    /// Plays `uri` to its end in a bare `playbin` whose video and audio sinks are the elements
    /// `videoSink` and `audioSink` describe (gst-launch syntax, one element each), with
    /// GStreamer's own decoders (not the engine's). Blocks the calling thread until the end.
    /// - Parameters:
    ///   - uri: The movie.
    ///   - videoSink: The video sink, a `GstBaseSink` (`fakesink sync=true qos=true`, say).
    ///   - audioSink: The audio sink.
    ///   - timeout: The longest the movie may take to end.
    /// - Returns: What the video sink rendered and dropped.
    /// - Throws: ``MediaError`` on an error, or when the movie does not end within `timeout`.
    public static func play(uri: String, videoSink: String, audioSink: String, timeout: Duration) throws(MediaError)
        -> Playback
    {
        try GStreamer.initialize()
        let playbin = try Element.make("playbin")
        try playbin.set("uri", .string(uri))
        let video = Element(sinking: try parseElement(videoSink))
        playbin.set("video-sink", element: video)
        playbin.set("audio-sink", element: Element(sinking: try parseElement(audioSink)))
        defer { playbin.setState(GST_STATE_NULL) }
        guard let bus = playbin.bus else { throw MediaError(.pipelineFailure, "playbin has no bus") }
        playbin.setState(GST_STATE_PLAYING)
        let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard
            let message = gst_bus_timed_pop_filtered(bus.pointer, timeout.clockTime, types).map(
                Message.init(owning:))
        else { throw MediaError(.timedOut, "playbin did not finish \(uri)") }
        guard message.type == GST_MESSAGE_EOS else { throw MediaError(.pipelineFailure, "playbin failed on \(uri)") }
        var value = GValue()
        g_value_init(&value, gst_structure_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(gcast(video.pointer), "stats", &value)
        var rendered: guint64 = 0
        var dropped: guint64 = 0
        if let stats = gst_value_get_structure(&value) {
            gst_structure_get_uint64(stats, "rendered", &rendered)
            gst_structure_get_uint64(stats, "dropped", &dropped)
        }
        return Playback(rendered: Int(rendered), dropped: Int(dropped))
    }

    /// One element from a gst-launch description (a floating reference).
    private static func parseElement(_ description: String) throws(MediaError) -> UnsafeMutablePointer<GstElement> {
        var error: UnsafeMutablePointer<GError>?
        let raw = gst_parse_launch(description, &error)
        if let error {
            let message = String(cString: error.pointee.message)
            g_error_free(error)
            if let raw { gst_object_unref(raw) }
            throw MediaError(.invalidArgument, "cannot build '\(description)': \(message)")
        }
        guard let raw else { throw MediaError(.invalidArgument, "cannot build '\(description)'") }
        return raw
    }
}
