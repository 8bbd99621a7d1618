/// A GStreamer element described as a value: a factory name and typed properties,
/// or a bin in `gst-launch-1.0` syntax.
///
/// Sinks and sources describe their elements this way, so code outside the
/// engine (a third-party sink plugin, say) never needs GStreamer's C headers.
public struct ElementDescription: Sendable, Hashable, CustomStringConvertible {
    enum Form: Sendable, Hashable {
        case factory(String, properties: [String: PropertyValue])
        case bin(String)
    }

    let form: Form

    /// An element made by a factory, with properties set before it is used.
    /// - Parameters:
    ///   - factory: The element factory's name, for example `"fakesink"`.
    ///   - properties: Properties to set, checked against their declared types.
    public init(factory: String, properties: [String: PropertyValue] = [:]) {
        form = .factory(factory, properties: properties)
    }

    /// A bin built from a `gst-launch-1.0` description, for example
    /// `"videoconvert ! ximagesink"`. Its first unlinked sink pad becomes the bin's input.
    /// - Parameter description: The pipeline description.
    public static func bin(_ description: String) -> ElementDescription {
        ElementDescription(form: .bin(description))
    }

    private init(form: Form) { self.form = form }

    /// The element factories this description needs, for error messages and checks.
    public var factoryNames: [String] {
        switch form {
        case .factory(let name, _): [name]
        case .bin(let description): Self.factories(inLaunchLine: description)
        }
    }

    /// Whether the element (or the bin's sink) is paced by the clock: false when a `sync`
    /// property is set to false.
    var synchronizes: Bool {
        switch form {
        case .factory(_, let properties):
            properties["sync"] != .bool(false)
        case .bin(let description):
            !description.split(whereSeparator: { $0 == " " || $0 == "!" }).contains {
                $0 == "sync=false" || $0 == "sync=0"
            }
        }
    }

    /// The description in `gst-launch-1.0` syntax.
    public var description: String {
        switch form {
        case .factory(let name, let properties):
            ([name] + properties.keys.sorted().map { "\($0)=\(properties[$0]!)" }).joined(separator: " ")
        case .bin(let description):
            description
        }
    }

    private static func factories(inLaunchLine line: String) -> [String] {
        line.split(separator: "!").compactMap { segment in
            guard let first = segment.split(separator: " ").first(where: { !$0.isEmpty }) else { return nil }
            // Caps filters ("video/x-raw,format=RGBA") and references ("name.") are not factories.
            if first.contains("/") || first.hasSuffix(".") || first.contains("=") { return nil }
            return String(first)
        }
    }
}
