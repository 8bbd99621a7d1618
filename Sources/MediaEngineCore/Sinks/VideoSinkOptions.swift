import Foundation

/// A video sink's string options read as typed, checked values: what a ``VideoSinkRegistry``
/// factory is given (`[String: String]`, from `NAME:key=value,...` on a command line) turned into
/// numbers, booleans, paths and choices, so that a sink (built-in or plugin) writes no parser of
/// its own and every sink refuses bad input the same way.
///
/// ```swift
/// // barcode:file=PATH,height=N
/// init(options: [String: String]) throws(MediaError) {
///     let options = VideoSinkOptions(options, sink: "barcode")
///     try options.rejectUnknownKeys(allowed: ["file", "height"])
///     file = try options.requiredPath("file")
///     height = try options.int("height", in: 1...4096) ?? 100
/// }
/// ```
///
/// Each accessor returns nil for a key that is not given, and throws ``MediaError/Code/invalidArgument``
/// for one that is given with a value it cannot take: empty, not a number, out of range, not a
/// finite number, not one of the choices. The error's message names the sink, the key and the
/// value (control characters escaped, long values cut), so a user sees which option to fix.
/// A key is never given twice: ``VideoSinkSpecification/init(parsing:)`` refuses that.
///
/// A value type with no state besides the options: read it from any thread.
public struct VideoSinkOptions: Sendable, Hashable {
    /// The sink's name, as the error messages give it ("the terminal sink has no option ...").
    public let sink: String
    /// The options as given, by key.
    public let values: [String: String]

    /// Options given to the sink named `sink`.
    /// - Parameters:
    ///   - values: The options, by key, as a registry factory receives them.
    ///   - sink: The sink's registered name, for error messages.
    public init(_ values: [String: String], sink: String) {
        self.values = values
        self.sink = sink
    }

    /// The options of a parsed specification, named after its sink.
    /// - Parameter specification: A sink's name and options.
    public init(_ specification: VideoSinkSpecification) {
        self.init(specification.options, sink: specification.name)
    }

    /// Reads `NAME[:key=value,...]` (see ``VideoSinkSpecification/init(parsing:)``).
    /// - Parameter specification: The text, as a command line gives it.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a malformed specification or a key given twice.
    public init(parsing specification: String) throws(MediaError) {
        self.init(try VideoSinkSpecification(parsing: specification))
    }

    /// Whether `key` is given, with any value (even an empty one).
    /// - Parameter key: The option's key.
    /// - Returns: True when the option is there.
    public func contains(_ key: String) -> Bool { values[key] != nil }

    /// Refuses a key the sink does not know, so a mistyped option (`fromat=rgba`) fails instead of
    /// being ignored.
    /// - Parameter allowed: Every key the sink reads.
    /// - Throws: ``MediaError/Code/invalidArgument`` naming the first unknown key (in alphabetical
    ///   order) and listing the allowed ones.
    public func rejectUnknownKeys(allowed: some Sequence<String>) throws(MediaError) {
        let known = Set(allowed)
        guard let unknown = values.keys.sorted().first(where: { !known.contains($0) }) else { return }
        let list = known.isEmpty ? "it takes none" : "it takes \(known.sorted().joined(separator: ", "))"
        throw MediaError(.invalidArgument, "the \(sink) sink has no option '\(Self.shown(unknown))' (\(list))")
    }

    /// A text option; an empty value is refused.
    /// - Parameter key: The option's key.
    /// - Returns: The value, or nil when the option is not given.
    /// - Throws: ``MediaError/Code/invalidArgument`` for `key=` with nothing after it.
    public func string(_ key: String) throws(MediaError) -> String? {
        guard let text = values[key] else { return nil }
        guard !text.isEmpty else { throw invalid(key, text, "is empty") }
        return text
    }

    /// A text option the sink cannot do without.
    /// - Parameter key: The option's key.
    /// - Returns: The value.
    /// - Throws: ``MediaError/Code/invalidArgument`` when the option is missing or empty.
    public func requiredString(_ key: String) throws(MediaError) -> String {
        guard let text = try string(key) else { throw missingOption(key) }
        return text
    }

    /// A whole number in decimal digits (an optional sign, no spaces, no fraction, no exponent).
    /// - Parameters:
    ///   - key: The option's key.
    ///   - range: The values the sink takes; nil for any `Int`.
    /// - Returns: The number, or nil when the option is not given.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty value, one that is not a whole
    ///   number or does not fit in an `Int`, or one outside `range`.
    public func int(_ key: String, in range: ClosedRange<Int>? = nil) throws(MediaError) -> Int? {
        guard let text = try string(key) else { return nil }
        guard let value = Int(text) else { throw invalid(key, text, "is not a whole number") }
        if let range, !range.contains(value) {
            throw invalid(key, text, "is not from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A whole number the sink cannot do without (see ``int(_:in:)``).
    /// - Parameters:
    ///   - key: The option's key.
    ///   - range: The values the sink takes; nil for any `Int`.
    /// - Returns: The number.
    /// - Throws: ``MediaError/Code/invalidArgument`` when the option is missing, or as ``int(_:in:)``.
    public func requiredInt(_ key: String, in range: ClosedRange<Int>? = nil) throws(MediaError) -> Int {
        guard let value = try int(key, in: range) else { throw missingOption(key) }
        return value
    }

    /// A decimal number (`2.5`, `-1`, `1e3`), finite and within `range`: `nan`, `inf` and numbers too
    /// large for a `Double` (`1e400`) are refused whatever the range, and the range is required, so
    /// a sink says which numbers make sense (`1e300` seconds do not).
    /// - Parameters:
    ///   - key: The option's key.
    ///   - range: The values the sink takes.
    /// - Returns: The number, or nil when the option is not given.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty value, one that is not a number,
    ///   not finite, or outside `range`.
    public func double(_ key: String, in range: ClosedRange<Double>) throws(MediaError) -> Double? {
        guard let text = try string(key) else { return nil }
        guard let value = Double(text) else { throw invalid(key, text, "is not a number") }
        guard value.isFinite else { throw invalid(key, text, "is not a finite number") }
        guard range.contains(value) else {
            throw invalid(key, text, "is not from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A boolean: `true`, `yes`, `on` or `1`; `false`, `no`, `off` or `0`, in any case.
    /// - Parameter key: The option's key.
    /// - Returns: The boolean, or nil when the option is not given.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty value or any other word.
    public func bool(_ key: String) throws(MediaError) -> Bool? {
        guard let text = try string(key) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw invalid(key, text, "is not true or false (or yes/no, on/off, 1/0)")
        }
    }

    /// A file or folder path, as a file URL; a relative path is taken from the current directory.
    /// The path is not checked for existence: the sink does that when it opens it, with its own
    /// error (``MediaError/Code/fileNotFound``, ``MediaError/Code/permissionDenied``).
    /// - Parameters:
    ///   - key: The option's key.
    ///   - isDirectory: Whether the path names a folder.
    /// - Returns: The URL, or nil when the option is not given.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty path or one holding a control
    ///   character (a NUL, a newline, an escape), which no file name a user types has.
    public func path(_ key: String, isDirectory: Bool = false) throws(MediaError) -> URL? {
        guard let text = try string(key) else { return nil }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw invalid(key, text, "holds a control character")
        }
        return URL(fileURLWithPath: text, isDirectory: isDirectory)
    }

    /// A path the sink cannot do without (see ``path(_:isDirectory:)``).
    /// - Parameters:
    ///   - key: The option's key.
    ///   - isDirectory: Whether the path names a folder.
    /// - Returns: The URL.
    /// - Throws: ``MediaError/Code/invalidArgument`` when the option is missing, or as ``path(_:isDirectory:)``.
    public func requiredPath(_ key: String, isDirectory: Bool = false) throws(MediaError) -> URL {
        guard let url = try path(key, isDirectory: isDirectory) else { throw missingOption(key) }
        return url
    }

    /// One of a set of named values, matched without regard to case (`format=jpeg` or `format=JPG`
    /// with `["png": .png, "jpeg": .jpeg, "jpg": .jpeg]`).
    /// - Parameters:
    ///   - key: The option's key.
    ///   - choices: The accepted words and what each means.
    /// - Returns: The chosen value, or nil when the option is not given.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty value or a word not among the
    ///   choices, listing them.
    public func choice<Value>(_ key: String, among choices: [String: Value]) throws(MediaError) -> Value? {
        guard let text = try string(key) else { return nil }
        let word = text.lowercased()
        guard let value = choices.first(where: { $0.key.lowercased() == word })?.value else {
            let words = choices.keys.map { $0.lowercased() }.sorted().joined(separator: ", ")
            throw invalid(key, text, "is not one of \(words)")
        }
        return value
    }

    /// A case of an enumeration named by its raw value, without regard to case
    /// (`format=rgba` for ``PixelFormat/rgba``, whose raw value is `RGBA`).
    /// - Parameters:
    ///   - key: The option's key.
    ///   - type: The enumeration; every case is a choice.
    /// - Returns: The case, or nil when the option is not given.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty value or one that names no case,
    ///   listing the cases.
    public func choice<Value: RawRepresentable & CaseIterable>(
        _ key: String, of type: Value.Type = Value.self
    ) throws(MediaError) -> Value? where Value.RawValue == String {
        try choice(key, among: Dictionary(Value.allCases.map { ($0.rawValue, $0) }) { first, _ in first })
    }

    /// The error for a value the sink refuses after reading it (a file descriptor that is not
    /// open, two options that contradict each other), worded as the accessors word theirs:
    /// `option fd=9 of the terminal sink is not an open file descriptor`.
    /// - Parameters:
    ///   - key: The option's key; its value is taken from ``values``.
    ///   - problem: What is wrong, as the end of a sentence ("is not an open file descriptor").
    /// - Returns: An ``MediaError/Code/invalidArgument`` error naming the sink, the key and the value.
    public func invalidValue(_ key: String, _ problem: String) -> MediaError {
        invalid(key, values[key] ?? "", problem)
    }

    /// The error for an option the sink needs and was not given: `the rtp sink needs host=`.
    /// - Parameter key: The option's key.
    /// - Returns: An ``MediaError/Code/invalidArgument`` error naming the sink and the key.
    public func missingOption(_ key: String) -> MediaError {
        MediaError(.invalidArgument, "the \(sink) sink needs \(Self.shown(key))=")
    }

    private func invalid(_ key: String, _ text: String, _ problem: String) -> MediaError {
        MediaError(.invalidArgument, "option \(Self.shown(key))=\(Self.shown(text)) of the \(sink) sink \(problem)")
    }

    /// A value as an error message shows it: control characters escaped (`\u{1B}`), so a hostile
    /// value cannot drive the terminal that prints the message, and at most 100 characters.
    static func shown(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(100) {
            if scalar.properties.generalCategory == .control {
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 100 ? shown + "..." : shown
    }
}
