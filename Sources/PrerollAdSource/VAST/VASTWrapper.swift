/// What an `<Ad>`'s `<Wrapper>` says beyond the ad's common elements: where the next VAST
/// document is, and the VAST 4 attributes about following it.
public struct VASTWrapper: Sendable, Hashable {
    /// The `<VASTAdTagURI>`, trimmed: the next document's URL (possibly relative to this one's).
    public var adTagURI: String
    /// `followAdditionalWrappers`: whether the next document may itself be a wrapper (true when
    /// the attribute is missing, as VAST 4 says).
    public var followAdditionalWrappers: Bool
    /// `allowMultipleAds`: whether every ad of the next document may be used (true), or only
    /// its first (false: the default, as VAST 4 says).
    public var allowMultipleAds: Bool
    /// `fallbackOnNoAd`: whether a player should look for another ad when this one leads to
    /// none. Read, not acted on: ``VASTClient`` falls back on the response's other stand-alone
    /// ads whatever it says.
    public var fallbackOnNoAd: Bool?

    /// A wrapper.
    /// - Parameters:
    ///   - adTagURI: The next document's URL.
    ///   - followAdditionalWrappers: Whether the next document may be a wrapper.
    ///   - allowMultipleAds: Whether every ad of the next document may be used.
    ///   - fallbackOnNoAd: The `fallbackOnNoAd` attribute.
    public init(
        adTagURI: String, followAdditionalWrappers: Bool = true, allowMultipleAds: Bool = false,
        fallbackOnNoAd: Bool? = nil
    ) {
        self.adTagURI = adTagURI
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
    }
}
