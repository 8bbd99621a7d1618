/// A typed value for a GStreamer element property.
///
/// The engine checks every value against the property's declared type before
/// setting it, and throws ``MediaError/Code/invalidProperty`` on a mismatch, so a
/// typo or a wrong type fails loudly instead of being ignored. Literals work:
/// `["sync": false, "max-lateness": 20_000_000, "location": "/tmp/out.png"]`.
public enum PropertyValue: Sendable, Hashable, CustomStringConvertible {
    /// A `gboolean` property.
    case bool(Bool)
    /// Any integer property (signed or unsigned, 32 or 64 bits), checked against its range.
    case int(Int)
    /// A `gdouble` or `gfloat` property.
    case double(Double)
    /// A string property; for enum, flags, caps and fraction properties the string is parsed
    /// as GStreamer would in `gst-launch-1.0` (an enum's nick, `"video/x-raw,format=RGBA"`, `"30/1"`).
    case string(String)
    /// A string-array (`GStrv`) property, such as souphttpsrc's `cookies`.
    case strings([String])

    /// The value as `gst-launch-1.0` would spell it.
    public var description: String {
        switch self {
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        case .strings(let values): "<" + values.map { "\"\($0)\"" }.joined(separator: ", ") + ">"
        }
    }
}

extension PropertyValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}
