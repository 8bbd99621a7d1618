/// The sinks every registry starts with. Their options are read by ``VideoSinkOptions``, as a
/// plugin's are, and a key a sink does not take is refused; what can be checked without making
/// the output (a folder, a display) is checked here, when the registry makes the sink.
enum BuiltInVideoSinks {
    static func register(in registry: VideoSinkRegistry, environment: @escaping @Sendable () -> [String: String]) {
        // The names are fixed and the registry is new, so registration cannot fail.
        try! registry.register("null", summary: "discards frames at playback speed (fakesink)") {
            strings throws(MediaError) in
            let options = VideoSinkOptions(strings, sink: "null")
            try options.rejectUnknownKeys(allowed: ["sync"])
            return NullVideoSink(synchronized: try options.bool("sync") ?? true)
        }
        try! registry.register(
            "frames", summary: "hands decoded frames to Swift (appsink; I420 unless format= says otherwise)"
        ) { strings throws(MediaError) in
            let options = VideoSinkOptions(strings, sink: "frames")
            try options.rejectUnknownKeys(allowed: ["format", "width", "height", "sync"])
            return FrameSink(
                format: try options.choice("format", of: PixelFormat.self) ?? .i420, size: try options.size(),
                synchronized: try options.bool("sync") ?? true)
        }
        try! registry.register(
            "window", summary: "shows the video in a window (ximagesink on X11, waylandsink on Wayland)"
        ) { strings throws(MediaError) in
            let options = VideoSinkOptions(strings, sink: "window")
            try options.rejectUnknownKeys(allowed: ["display"])
            // The registry's environment names the display, so a registry made for another display uses it.
            let display = try options.string("display") ?? environment()["DISPLAY"]
            let sink = WindowSink(display: display?.isEmpty == false ? display : nil)
            _ = try sink.screen()  // no display: unsupportedOperation now, not at the first preparation
            return sink
        }
        try! registry.register(
            "images", summary: "writes every Nth frame, or the frames at given times, as PNG or JPEG files"
        ) { strings throws(MediaError) in
            let sink = try ImageFileSink(options: VideoSinkOptions(strings, sink: "images"))
            try sink.checkFolder()
            return sink
        }
    }
}

extension VideoSinkOptions {
    /// The largest side `width=` and `height=` take: what GStreamer's caps hold (a C `int`).
    static let largestSide = Int(Int32.max)

    /// `width=` and `height=` together (1 to ``largestSide`` pixels each), or neither.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a bad side, or one without the other.
    func size() throws(MediaError) -> VideoSize? {
        let sides = 1...Self.largestSide
        switch (try int("width", in: sides), try int("height", in: sides)) {
        case (nil, nil): return nil
        case (let width?, let height?): return VideoSize(width: width, height: height)
        default: throw MediaError(.invalidArgument, "the \(sink) sink takes width= and height= together, or neither")
        }
    }
}
