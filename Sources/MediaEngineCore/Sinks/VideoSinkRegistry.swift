/// Names for video sinks: the built-ins (`null`, `frames`) are there with no set-up, plugins
/// register more, and a player can be given a registry of its own instead of ``shared``.
///
/// Modelled on swift-log's `LoggingSystem`: a process-wide default that works untouched,
/// extension by registration, and per-instance override.
public final class VideoSinkRegistry: Sendable {
    /// Makes a sink from string options (as given on a command line, `format=rgba`); read them
    /// with ``VideoSinkOptions``, which refuses unknown keys and bad values the way every sink does.
    public typealias Factory = @Sendable (_ options: [String: String]) throws(MediaError) -> any VideoSink

    /// One registered sink.
    public struct Entry: Sendable {
        /// The name the sink is chosen by.
        public let name: String
        /// A one-line description for people.
        public let summary: String
        /// The type of the sinks ``factory`` makes.
        public let sinkType: any VideoSink.Type
        /// Makes the sink.
        public let factory: Factory

        /// What the sink can do: its type's ``VideoSink/capabilities-swift.type.property``, read
        /// without making a sink (`mediaplay --list-sinks` builds nothing).
        public var capabilities: VideoSinkCapabilities { sinkType.capabilities }
    }

    /// The registry players use unless given another; it starts with the built-in sinks.
    public static let shared = VideoSinkRegistry()

    private let entries = Locked<[String: Entry]>([:])
    private let environment: @Sendable () -> [String: String]

    /// Creates a registry that reads the process's environment to pick its default.
    /// - Parameter builtIns: Whether to register the built-in sinks (`null`, `frames`, `window`, `images`).
    public convenience init(builtIns: Bool = true) {
        self.init(builtIns: builtIns, environment: { ProcessEnvironment.current })
    }

    /// Creates a registry that picks its default from the given environment (for tests, or an
    /// app that decides which display to use itself).
    /// - Parameters:
    ///   - builtIns: Whether to register the built-in sinks.
    ///   - environment: Variables such as `DISPLAY` and `WAYLAND_DISPLAY`.
    public convenience init(builtIns: Bool = true, environment: [String: String]) {
        self.init(builtIns: builtIns, environment: { environment })
    }

    init(builtIns: Bool, environment: @escaping @Sendable () -> [String: String]) {
        self.environment = environment
        if builtIns { BuiltInVideoSinks.register(in: self, environment: environment) }
    }

    /// Registers a sink under a name. Its capabilities are read from `Sink`, the type `factory`
    /// returns (``VideoSink/capabilities-swift.type.property``), so what the registry lists is
    /// what the sink declares.
    ///
    /// ```swift
    /// try registry.register("barcode", summary: "the movie's barcode as a PNG (file=PATH)") { options throws(MediaError) in
    ///     try BarcodeSink(options: options)   // BarcodeSink.capabilities: .frames
    /// }
    /// ```
    /// - Parameters:
    ///   - name: The name; letters, digits, `-` and `_`.
    ///   - summary: A one-line description.
    ///   - factory: Makes the sink from string options (read them with ``VideoSinkOptions``). It
    ///     may check what it can without side effects (a folder that must exist, say); it must not
    ///     make the output, which only the player does.
    /// - Throws: ``MediaError/Code/duplicateSink`` when the name is taken, ``MediaError/Code/invalidArgument``
    ///   for a malformed name.
    public func register<Sink: VideoSink>(
        _ name: String, summary: String,
        factory: @escaping @Sendable (_ options: [String: String]) throws(MediaError) -> Sink
    ) throws(MediaError) {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw MediaError(.invalidArgument, "'\(name)' is not a valid sink name")
        }
        let entry = Entry(name: name, summary: summary, sinkType: Sink.self) { options throws(MediaError) in
            try factory(options)
        }
        let added = entries.withLock { table in
            guard table[name] == nil else { return false }
            table[name] = entry
            return true
        }
        guard added else { throw MediaError(.duplicateSink, "a video sink named '\(name)' is already registered") }
    }

    /// Registers a sink under a name, with its capabilities given twice: here and on `Sink`.
    /// - Parameters:
    ///   - name: The name; letters, digits, `-` and `_`.
    ///   - summary: A one-line description.
    ///   - capabilities: What the sink can do: must be `Sink.capabilities`.
    ///   - factory: Makes the sink from string options.
    /// - Throws: ``MediaError/Code/invalidArgument`` when `capabilities` is not `Sink.capabilities`,
    ///   and the errors of ``register(_:summary:factory:)``.
    @available(
        *, deprecated,
        message: "capabilities are read from the sink's type: declare `static var capabilities` and drop this argument"
    )
    public func register<Sink: VideoSink>(
        _ name: String, summary: String, capabilities: VideoSinkCapabilities,
        factory: @escaping @Sendable (_ options: [String: String]) throws(MediaError) -> Sink
    ) throws(MediaError) {
        guard capabilities == Sink.capabilities else {
            throw MediaError(
                .invalidArgument,
                "the '\(name)' sink is registered as '\(capabilities)', but \(Sink.self) declares '\(Sink.capabilities)' "
                    + "(capabilities are read from the type: declare them as `static var capabilities`)")
        }
        try register(name, summary: summary, factory: factory)
    }

    /// Every registered sink, by name.
    public var all: [Entry] {
        entries.withLock { Array($0.values) }.sorted { $0.name < $1.name }
    }

    /// The entry registered under `name`, if any.
    /// - Parameter name: The sink's name.
    /// - Returns: The entry.
    public func entry(named name: String) -> Entry? {
        entries.withLock { $0[name] }
    }

    /// Makes the sink registered under `name`, and checks that GStreamer has the elements it
    /// needs (``VideoSink/checkRequiredElements()``: a look-up in GStreamer's registry). Nothing
    /// is built: the sink's output is made only by a player that uses it.
    /// - Parameters:
    ///   - name: The sink's name.
    ///   - options: Options the sink understands (`format=rgba`, `sync=false`, ...).
    /// - Returns: The sink.
    /// - Throws: ``MediaError/Code/unknownSink`` listing the names that exist, the factory's error,
    ///   or ``MediaError/Code/missingPlugin`` naming the first of the sink's
    ///   ``VideoSink/requiredElements`` that is not installed (and its Debian package, when known).
    public func makeSink(named name: String, options: [String: String] = [:]) throws(MediaError) -> any VideoSink {
        guard let entry = entry(named: name) else {
            let known = all.map(\.name).joined(separator: ", ")
            throw MediaError(.unknownSink, "no video sink named '\(name)' (registered: \(known))")
        }
        let sink = try entry.factory(options)
        // Say now, not at the first preparation, when the sink needs a plugin that is not installed.
        try sink.checkRequiredElements()
        return sink
    }

    /// The name of the sink a player uses when given none: `window` when it is registered and
    /// a display is reachable (`DISPLAY` or `WAYLAND_DISPLAY` is set), otherwise `null`.
    public var defaultSinkName: String {
        let environment = environment()
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        return hasDisplay && entry(named: "window") != nil ? "window" : "null"
    }

    /// Makes the default sink (see ``defaultSinkName``).
    /// - Returns: The sink.
    /// - Throws: The factory's error.
    public func makeDefaultSink() throws(MediaError) -> any VideoSink {
        try makeSink(named: defaultSinkName)
    }
}
