public import MediaEngineCore

extension AdQuartile {
    /// The tracking event fired when the quartile is crossed.
    public var event: VASTEvent {
        switch self {
        case .firstQuartile: .firstQuartile
        case .midpoint: .midpoint
        case .thirdQuartile: .thirdQuartile
        }
    }
}
