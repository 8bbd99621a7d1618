/// Typed properties for the GStreamer element that reads a source, applied when playbin
/// makes that element (its `source-setup` signal). A property the element does not have
/// is skipped, so one set of settings can serve several source elements; a property it has
/// with a value of the wrong type fails preparation with ``MediaError/Code/invalidProperty``.
public struct SourceSettings: Sendable, Hashable {
    /// Property names and values, for example `["blocksize": 65536]`.
    public var properties: [String: PropertyValue]

    /// Creates settings.
    /// - Parameter properties: Property names and values.
    public init(properties: [String: PropertyValue] = [:]) {
        self.properties = properties
    }

    /// Whether there is nothing to apply.
    public var isEmpty: Bool { properties.isEmpty }
}
