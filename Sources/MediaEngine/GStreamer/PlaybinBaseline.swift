internal import CGStreamer

/// Plain GStreamer pipelines with no engine around them, for the benchmark's baselines.
/// Not part of the supported API: the benchmark imports it with `@_spi(Benchmarks)`.
@_spi(Benchmarks)
public enum PlaybinBaseline {
    /// How long a bare `playbin` (fakesinks for audio and video, default flags) takes from
    /// `gst_element_set_state (PAUSED)` to its `ASYNC_DONE`: the preroll every player pays.
    /// - Parameter uri: The movie.
    /// - Returns: The time to preroll.
    /// - Throws: ``MediaError`` when the movie does not preroll within 10 seconds.
    public static func prerollTime(uri: String) throws(MediaError) -> Duration {
        try GStreamer.initialize()
        let clock = ContinuousClock()
        let start = clock.now
        let playbin = try Element.make("playbin")
        try playbin.set("uri", .string(uri))
        playbin.set("video-sink", element: try Element.make("fakesink"))
        playbin.set("audio-sink", element: try Element.make("fakesink"))
        defer { playbin.setState(GST_STATE_NULL) }
        guard let bus = playbin.bus else { throw MediaError(.pipelineFailure, "playbin has no bus") }
        playbin.setState(GST_STATE_PAUSED)
        let types = GstMessageType(rawValue: GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus.pointer, 10_000_000_000, types).map(Message.init(owning:)),
            message.type == GST_MESSAGE_ASYNC_DONE
        else { throw MediaError(.timedOut, "playbin did not preroll \(uri)") }
        return clock.now - start
    }
}
