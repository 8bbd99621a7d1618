/// How the movie fills an output whose shape differs from its own; MPMovieScalingMode's equivalent.
public enum ScalingMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// At its natural size, centred: cropped where the output is smaller, bars where it is larger.
    case none
    /// All of the picture, as large as fits, with bars (in the background colour) on two sides.
    case aspectFit
    /// The whole output, keeping the picture's shape: what overflows is cropped.
    case aspectFill
    /// The whole output, stretched.
    case fill

    /// The mode's name.
    public var description: String { rawValue }

    var scalerMode: Int {
        switch self {
        case .none: 0
        case .aspectFit: 1
        case .aspectFill: 2
        case .fill: 3
        }
    }
}
