/// The sinks every registry starts with.
enum BuiltInVideoSinks {
    static func register(in registry: VideoSinkRegistry, environment: @escaping @Sendable () -> [String: String]) {
        // The names are fixed and the registry is new, so registration cannot fail.
        try! registry.register("null", summary: "discards frames at playback speed (fakesink)") {
            options throws(MediaError) in
            NullVideoSink(synchronized: try SinkOptions(options).bool("sync") ?? true)
        }
        try! registry.register(
            "frames", summary: "hands decoded frames to Swift (appsink; I420 unless format= says otherwise)",
            capabilities: .frames
        ) { options throws(MediaError) in
            let options = SinkOptions(options)
            return FrameSink(
                format: try options.pixelFormat("format") ?? .i420, size: try options.size(),
                synchronized: try options.bool("sync") ?? true)
        }
        try! registry.register(
            "window", summary: "shows the video in a window (ximagesink on X11, waylandsink on Wayland)",
            capabilities: [.window, .fullscreen]
        ) { options throws(MediaError) in
            // The registry's environment names the display, so a registry made for another display uses it.
            let display = SinkOptions(options).string("display") ?? environment()["DISPLAY"]
            return WindowSink(display: display?.isEmpty == false ? display : nil)
        }
        try! registry.register(
            "images", summary: "writes every Nth frame, or the frames at given times, as PNG or JPEG files",
            capabilities: .external
        ) { options throws(MediaError) in
            try ImageFileSink(options: SinkOptions(options))
        }
    }
}

/// Reads typed values from a sink's string options.
struct SinkOptions {
    let values: [String: String]

    init(_ values: [String: String]) { self.values = values }

    func bool(_ key: String) throws(MediaError) -> Bool? {
        guard let text = values[key] else { return nil }
        switch text.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw MediaError(.invalidArgument, "option \(key)=\(text) is not a boolean")
        }
    }

    func int(_ key: String) throws(MediaError) -> Int? {
        guard let text = values[key] else { return nil }
        guard let value = Int(text) else { throw MediaError(.invalidArgument, "option \(key)=\(text) is not a number") }
        return value
    }

    func string(_ key: String) -> String? { values[key] }

    func pixelFormat(_ key: String) throws(MediaError) -> PixelFormat? {
        guard let text = values[key] else { return nil }
        guard let format = PixelFormat(rawValue: text.uppercased()) else {
            let known = PixelFormat.allCases.map { $0.rawValue.lowercased() }.joined(separator: ", ")
            throw MediaError(.invalidArgument, "option \(key)=\(text) is not a pixel format (\(known))")
        }
        return format
    }

    /// `width=` and `height=` together, or neither.
    func size() throws(MediaError) -> VideoSize? {
        switch (try int("width"), try int("height")) {
        case (nil, nil): return nil
        case (let width?, let height?) where width > 0 && height > 0: return VideoSize(width: width, height: height)
        default: throw MediaError(.invalidArgument, "options width= and height= must both be given, and positive")
        }
    }
}
