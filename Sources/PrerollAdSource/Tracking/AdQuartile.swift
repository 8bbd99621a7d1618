/// A quarter mark of a linear ad, as ``AdTracker/progress(to:)`` reports crossing it.
public enum AdQuartile: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// 25 % of the ad.
    case first = 1
    /// 50 %.
    case midpoint = 2
    /// 75 %.
    case third = 3

    /// The share of the ad's duration it marks: 0.25, 0.5 or 0.75.
    public var fraction: Double { Double(rawValue) / 4 }

    /// The tracking event fired when it is crossed.
    public var event: VASTEvent {
        switch self {
        case .first: .firstQuartile
        case .midpoint: .midpoint
        case .third: .thirdQuartile
        }
    }

    /// Earlier marks first.
    public static func < (left: AdQuartile, right: AdQuartile) -> Bool {
        left.rawValue < right.rawValue
    }
}
