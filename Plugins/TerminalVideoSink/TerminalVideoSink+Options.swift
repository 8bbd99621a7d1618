import MediaEngine

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
        if let unknown = options.keys.sorted().first(where: { !Self.optionKeys.contains($0) }) {
            throw MediaError(
                .invalidArgument,
                "the terminal sink has no option '\(unknown)' (it takes \(Self.optionKeys.joined(separator: ", ")))")
        }
        let descriptor = try Self.integer(options, "fd", in: 0...Int(Int32.max), meaning: "an open file descriptor")
        if let descriptor, !TerminalDevice(descriptor: Int32(descriptor)).isOpen {
            throw MediaError(.invalidArgument, "option fd=\(descriptor): the file descriptor is not open")
        }
        let sides = 1...Self.largestGridSide
        let interrupt: Bool?
        switch options["sigint"]?.lowercased() {
        case nil: interrupt = nil
        case "true", "yes", "1", "on": interrupt = true
        case "false", "no", "0", "off": interrupt = false
        case let text?: throw MediaError(.invalidArgument, "option sigint=\(text) is not true or false")
        }
        self.init(
            fileDescriptor: Int32(descriptor ?? 1),
            columns: try Self.integer(options, "width", in: sides, meaning: "a number of columns"),
            rows: try Self.integer(options, "height", in: sides, meaning: "a number of rows"),
            exitsOnInterrupt: interrupt ?? true)
    }

    /// The integer option `key`, if given, within `range`.
    private static func integer(
        _ options: [String: String], _ key: String, in range: ClosedRange<Int>, meaning: String
    ) throws(MediaError) -> Int? {
        guard let text = options[key] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw MediaError(
                .invalidArgument,
                "option \(key)=\(text) is not \(meaning) (\(range.lowerBound) to \(range.upperBound))")
        }
        return value
    }
}
