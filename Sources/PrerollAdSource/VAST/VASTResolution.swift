/// What ``VASTClient`` resolved an ad tag or document to: the ads to play, in order.
public struct VASTResolution: Sendable, Hashable {
    /// The ads: an ad pod's in `sequence` order, or the single stand-alone ad. Never empty.
    public var ads: [ResolvedAd]
    /// Ads that were tried and could not be resolved (a pod ad whose wrapper failed, or
    /// stand-alone ads tried before the one used): their Error URIs are due, with their own
    /// errors (``AdTracker/fireErrors(of:contentPlayhead:using:)``).
    public var failures: [VASTResolutionFailure]

    /// A resolution.
    /// - Parameters:
    ///   - ads: The ads to play.
    ///   - failures: The ads that could not be resolved.
    public init(ads: [ResolvedAd], failures: [VASTResolutionFailure] = []) {
        self.ads = ads
        self.failures = failures
    }

    /// Every Error URI template of ``ads`` (each once, in order): what to call, with the
    /// error's code, if none of them can be played after all.
    public var errorURIs: [String] {
        var seen: Set<String> = []
        return ads.flatMap(\.errors).filter { seen.insert($0).inserted }
    }
}
