import MediaEngineCore

extension TerminalVideoSink {
    /// The options ``init(options:)`` reads.
    public static let optionKeys = ["fd", "width", "height", "sigint"]

    /// Creates the sink from a registry's string options, as `mediaplay --sink terminal:...` gives them:
    /// - `fd=N`: the open file descriptor to draw on (default 1, standard output);
    /// - `width=COLUMNS`, `height=ROWS`: the picture's size in cells, 1 to ``largestGridSide``
    ///   (default: the terminal's width, and its height less one row);
    /// - `sigint=true|false`: whether Ctrl-C gives the terminal back and exits with status 130
    ///   (default true).
    /// - Parameter options: The options, by key.
    /// - Throws: `MediaError.Code.invalidArgument` naming an unknown key or a bad value.
    public convenience init(options: [String: String]) throws(MediaError) {
        let options = VideoSinkOptions(options, sink: "terminal")
        try options.rejectUnknownKeys(allowed: Self.optionKeys)
        let descriptor = try options.int("fd", in: 0...Int(Int32.max))
        if let descriptor, !TerminalDevice(descriptor: Int32(descriptor)).isOpen {
            throw options.invalidValue("fd", "is not an open file descriptor")
        }
        let sides = 1...Self.largestGridSide
        self.init(
            fileDescriptor: Int32(descriptor ?? 1),
            columns: try options.int("width", in: sides),
            rows: try options.int("height", in: sides),
            exitsOnInterrupt: try options.bool("sigint") ?? true)
    }
}
