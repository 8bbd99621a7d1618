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
        let playbin = try makePlaybin(uri: uri)
        defer { playbin.setState(GST_STATE_NULL) }
        playbin.setState(GST_STATE_PAUSED)
        try waitForAsyncDone(playbin, what: "preroll \(uri)")
        return clock.now - start
    }

    /// How long a bare, prerolled `playbin` takes for each flushing seek, from
    /// `gst_element_send_event` to its `ASYNC_DONE`.
    /// - Parameters:
    ///   - uri: The movie.
    ///   - positions: Where to seek, in order.
    ///   - exact: Accurate seeks (true) or keyframe seeks.
    /// - Returns: One time per seek.
    /// - Throws: ``MediaError`` when the movie does not preroll or a seek does not complete.
    public static func seekTimes(uri: String, positions: [Duration], exact: Bool) throws(MediaError) -> [Duration] {
        let seeker = try Seeker(uri: uri)
        var times: [Duration] = []
        for position in positions {
            times.append(try seeker.seek(to: position, exact: exact))
        }
        return times
    }

    /// A bare `playbin` kept prerolled, for timing one seek at a time (so that a benchmark can
    /// alternate the engine's seeks and the baseline's, and both meet the same machine).
    public final class Seeker {
        private let playbin: Element

        /// Prerolls a bare playbin on `uri`.
        /// - Throws: ``MediaError`` when the movie does not preroll within 10 seconds.
        public init(uri: String) throws(MediaError) {
            try GStreamer.initialize()
            playbin = try PlaybinBaseline.makePlaybin(uri: uri)
            playbin.setState(GST_STATE_PAUSED)
            try PlaybinBaseline.waitForAsyncDone(playbin, what: "preroll \(uri)")
        }

        /// One flushing seek, timed from `gst_element_seek_simple` to its `ASYNC_DONE`. Blocks the
        /// calling thread for that long.
        /// - Parameters:
        ///   - position: Where to seek.
        ///   - exact: An accurate seek (true) or a keyframe seek.
        /// - Returns: How long the seek took.
        /// - Throws: ``MediaError`` when the seek is refused or does not complete.
        public func seek(to position: Duration, exact: Bool) throws(MediaError) -> Duration {
            let accuracy =
                exact
                ? GST_SEEK_FLAG_ACCURATE.rawValue : GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_BEFORE.rawValue
            let flags = GstSeekFlags(GST_SEEK_FLAG_FLUSH.rawValue | accuracy)
            let clock = ContinuousClock()
            let start = clock.now
            guard gst_element_seek_simple(playbin.pointer, GST_FORMAT_TIME, flags, gint64(position.clockTime)) != 0
            else {
                throw MediaError(.pipelineFailure, "playbin refused a seek")
            }
            try PlaybinBaseline.waitForAsyncDone(playbin, what: "seek to \(position)")
            return clock.now - start
        }

        deinit {
            playbin.setState(GST_STATE_NULL)
        }
    }

    fileprivate static func makePlaybin(uri: String) throws(MediaError) -> Element {
        let playbin = try Element.make("playbin")
        try playbin.set("uri", .string(uri))
        playbin.set("video-sink", element: try Element.make("fakesink"))
        playbin.set("audio-sink", element: try Element.make("fakesink"))
        return playbin
    }

    fileprivate static func waitForAsyncDone(_ playbin: Element, what: String) throws(MediaError) {
        guard let bus = playbin.bus else { throw MediaError(.pipelineFailure, "playbin has no bus") }
        let types = GstMessageType(rawValue: GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus.pointer, 10_000_000_000, types).map(Message.init(owning:)),
            message.type == GST_MESSAGE_ASYNC_DONE
        else { throw MediaError(.timedOut, "playbin did not \(what)") }
    }
}
