internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline

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

    /// How long a bare `playbin` (fakesinks, default flags and buffering) takes from
    /// `gst_element_set_state (PAUSED)` to PLAYING, started the way GStreamer's players start a
    /// network stream: prerolled, and, when it posts buffering messages, once buffering reached
    /// 100 % (`gst-play-1.0`, `gst-launch-1.0`).
    /// - Parameter uri: The movie or stream.
    /// - Returns: The time to playing.
    /// - Throws: ``MediaError`` on an error or when it does not play within 10 seconds.
    public static func playingTime(uri: String) throws(MediaError) -> Duration {
        try GStreamer.initialize()
        let clock = ContinuousClock()
        let start = clock.now
        let playbin = try makePlaybin(uri: uri)
        defer { playbin.setState(GST_STATE_NULL) }
        guard let bus = playbin.bus else { throw MediaError(.pipelineFailure, "playbin has no bus") }
        playbin.setState(GST_STATE_PAUSED)
        let types = GstMessageType(
            rawValue: GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_BUFFERING.rawValue
                | GST_MESSAGE_STATE_CHANGED.rawValue)
        var prerolled = false
        var buffering = false
        var asked = false
        while clock.now - start < .seconds(10) {
            guard
                let message = gst_bus_timed_pop_filtered(bus.pointer, 10_000_000_000, types).map(Message.init(owning:))
            else { break }
            switch message.type {
            case GST_MESSAGE_ERROR:
                throw MediaError(.pipelineFailure, "playbin failed on \(uri)")
            case GST_MESSAGE_ASYNC_DONE:
                prerolled = true
            case GST_MESSAGE_BUFFERING:
                var percent: gint = 0
                gst_message_parse_buffering(message.pointer, &percent)
                buffering = percent < 100
            case GST_MESSAGE_STATE_CHANGED where message.sourcePointer == UnsafeMutableRawPointer(playbin.pointer):
                var old = GST_STATE_VOID_PENDING
                var new = GST_STATE_VOID_PENDING
                var pending = GST_STATE_VOID_PENDING
                gst_message_parse_state_changed(message.pointer, &old, &new, &pending)
                if new == GST_STATE_PLAYING { return clock.now - start }
            default:
                break
            }
            if prerolled && !buffering && !asked {
                asked = true
                playbin.setState(GST_STATE_PLAYING)
            }
        }
        throw MediaError(.timedOut, "playbin did not play \(uri)")
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

    /// A bare `playbin` (fakesinks for audio and video, default flags) prerolled and kept
    /// paused on a movie, for comparing what a paused player holds in memory with what
    /// GStreamer alone holds.
    public final class Paused {
        private let playbin: Element

        /// Prerolls a bare playbin on `uri` and keeps it paused.
        /// - Throws: ``MediaError`` when the movie does not preroll within 10 seconds.
        public init(uri: String) throws(MediaError) {
            try GStreamer.initialize()
            playbin = try PlaybinBaseline.makePlaybin(uri: uri)
            playbin.setState(GST_STATE_PAUSED)
            try PlaybinBaseline.waitForAsyncDone(playbin, what: "preroll \(uri)")
        }

        deinit {
            playbin.setState(GST_STATE_NULL)
        }
    }

    /// The video decoder a bare playbin chooses for `uri` in this process (its factory's name),
    /// with or without the engine's preference for its own decoders.
    /// - Throws: ``MediaError`` when the movie does not preroll within 10 seconds.
    public static func videoDecoder(uri: String, preferringEngineDecoders: Bool) throws(MediaError) -> String? {
        try GStreamer.initialize()
        let playbin = try makePlaybin(uri: uri, preferringEngineDecoders: preferringEngineDecoders)
        defer { playbin.setState(GST_STATE_NULL) }
        playbin.setState(GST_STATE_PAUSED)
        try waitForAsyncDone(playbin, what: "preroll \(uri)")
        guard let name = me_video_decoder_name(playbin.pointer) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }

    fileprivate static func makePlaybin(uri: String, preferringEngineDecoders: Bool = true) throws(MediaError)
        -> Element
    {
        let playbin = try Element.make("playbin")
        // The same decoders as the engine's pipelines, so that a comparison is of the rest.
        if preferringEngineDecoders { me_prefer_engine_decoders(playbin.pointer) }
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
