/// Which set of controls is drawn: a ``MovieControlStyle``'s, or the volume slider alone of the
/// legacy ``MovieControlMode/volumeOnly`` mode, which no style names.
enum ControlsKind: Sendable, Hashable {
    case none
    case embedded
    case fullscreen
    /// The speaker and the volume slider, in a short bar at the bottom middle.
    case volumeOnly

    init(_ style: MovieControlStyle) {
        switch style {
        case .none: self = .none
        case .embedded: self = .embedded
        case .fullscreen: self = .fullscreen
        }
    }

    init(_ mode: MovieControlMode) {
        switch mode {
        case .default: self.init(MovieControlStyle.default)
        case .volumeOnly: self = .volumeOnly
        case .hidden: self = .none
        }
    }

    /// The style ``MoviePlayer/controlStyle`` reads: the volume-only set reads as
    /// ``MovieControlStyle/embedded`` (some controls, not the fullscreen set).
    var style: MovieControlStyle {
        switch self {
        case .none: .none
        case .embedded, .volumeOnly: .embedded
        case .fullscreen: .fullscreen
        }
    }

    /// The mode ``MoviePlayer/movieControlMode`` reads.
    var mode: MovieControlMode {
        switch self {
        case .none: .hidden
        case .volumeOnly: .volumeOnly
        case .embedded, .fullscreen: .default
        }
    }
}
