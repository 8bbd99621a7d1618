import Foundation

/// An element of a parsed XML document (``XMLTree/parse(_:limits:)``): its local name, its
/// attributes, its text and its child elements, as the VAST parser and the DASH manifest reader
/// walk them.
package struct XMLTreeElement: Sendable, Equatable {
    /// The local name: without its namespace prefix (VAST 4 documents put every element in the
    /// `http://www.iab.com/VAST` namespace, by default or with a prefix; DASH in `urn:mpeg:dash:...`).
    package var name: String
    /// The attributes by name as written: `prefix:name` for one with a namespace prefix, the
    /// name alone otherwise. Namespace declarations (`xmlns`) are not attributes.
    package var attributes: [String: String]
    /// The character data and CDATA sections directly inside the element, in order, with
    /// character and predefined entity references replaced.
    package var text: String
    /// The child elements, in order.
    package var children: [XMLTreeElement]

    /// An element.
    /// - Parameters:
    ///   - name: Its local name.
    ///   - attributes: Its attributes by name.
    ///   - text: Its own text.
    ///   - children: Its child elements.
    package init(
        name: String, attributes: [String: String] = [:], text: String = "", children: [XMLTreeElement] = []
    ) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// The text with surrounding white space (the newlines around a CDATA section) removed.
    package var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The child elements named `name`, in order.
    /// - Parameter name: A local name.
    /// - Returns: The children so named.
    package func children(named name: String) -> [XMLTreeElement] {
        children.filter { $0.name == name }
    }

    /// The first child element named `name`.
    /// - Parameter name: A local name.
    /// - Returns: The first child so named; nil when none.
    package func child(named name: String) -> XMLTreeElement? {
        children.first { $0.name == name }
    }

    /// An attribute's value, trimmed; nil when missing or blank.
    /// - Parameter name: The attribute's name as written.
    /// - Returns: Its value.
    package func attribute(_ name: String) -> String? {
        guard let value = attributes[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }
}
