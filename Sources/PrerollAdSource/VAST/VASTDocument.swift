/// A parsed VAST document (what ``VASTParser`` reads): its version, its ads, and the
/// root-level `<Error>` URIs an ad server sends with no ad.
public struct VASTDocument: Sendable, Hashable {
    /// The `version` attribute, as written (`2.0`, `3.0`, `4.1`, ...).
    public var version: String
    /// The `<Ad>` elements, in the document's order.
    public var ads: [VASTAd]
    /// The root's own `<Error>` URI templates (VAST 3 and later, for a response with no ad);
    /// trimmed, empty ones left out.
    public var errors: [String]

    /// A document.
    /// - Parameters:
    ///   - version: The `version` attribute.
    ///   - ads: The ads.
    ///   - errors: The root-level error URI templates.
    public init(version: String, ads: [VASTAd], errors: [String] = []) {
        self.version = version
        self.ads = ads
        self.errors = errors
    }
}
