/// One `<Ad>` of a VAST document: an `<InLine>` ad (the creative itself) or a `<Wrapper>`
/// (which leads to another document and adds its tracking). NonLinear and Companion creatives
/// are not kept.
public struct VASTAd: Sendable, Hashable {
    /// Which of the two an ad is.
    public enum Kind: Sendable, Hashable {
        /// `<InLine>`: the ad itself.
        case inline
        /// `<Wrapper>`: a pointer to another document.
        case wrapper(VASTWrapper)
    }

    /// The `id` attribute.
    public var id: String?
    /// The `sequence` attribute: the ad's place in an ad pod; nil for a stand-alone ad.
    public var sequence: Int?
    /// `<InLine>` or `<Wrapper>`.
    public var kind: Kind
    /// `<AdSystem>`, trimmed.
    public var adSystem: String?
    /// `<AdTitle>`, trimmed (inline ads only).
    public var title: String?
    /// The `<Impression>` URI templates, trimmed; empty ones left out.
    public var impressions: [String]
    /// The ad's `<Error>` URI templates, trimmed; empty ones left out.
    public var errors: [String]
    /// The linear creatives, in the document's order.
    public var linearCreatives: [VASTLinearCreative]
    /// How many `<Creative>` elements of the ad hold a creative (`<Linear>`, `<NonLinearAds>` or
    /// `<CompanionAds>`): an inline ad with none is an empty InLine response (no ad); one with
    /// creatives but no linear one is a non-linear or companion-only ad.
    public var creativeCount: Int

    /// An ad.
    /// - Parameters:
    ///   - id: The `id` attribute.
    ///   - sequence: The `sequence` attribute.
    ///   - kind: Inline or wrapper.
    ///   - adSystem: `<AdSystem>`.
    ///   - title: `<AdTitle>`.
    ///   - impressions: The impression URI templates.
    ///   - errors: The error URI templates.
    ///   - linearCreatives: The linear creatives.
    ///   - creativeCount: How many creatives of any kind; nil for `linearCreatives.count`.
    public init(
        id: String? = nil, sequence: Int? = nil, kind: Kind, adSystem: String? = nil, title: String? = nil,
        impressions: [String] = [], errors: [String] = [], linearCreatives: [VASTLinearCreative] = [],
        creativeCount: Int? = nil
    ) {
        self.id = id
        self.sequence = sequence
        self.kind = kind
        self.adSystem = adSystem
        self.title = title
        self.impressions = impressions
        self.errors = errors
        self.linearCreatives = linearCreatives
        self.creativeCount = creativeCount ?? linearCreatives.count
    }

    /// The wrapper part, when the ad is a `<Wrapper>`.
    public var wrapper: VASTWrapper? {
        if case .wrapper(let wrapper) = kind { return wrapper }
        return nil
    }
}
