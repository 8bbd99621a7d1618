/// The playback controls the engine draws over the movie (MPMoviePlayerController's
/// `MPMovieControlStyle`, with its raw values): none, the embedded set, or the fullscreen set.
///
/// The controls are overlays the engine draws itself (no toolkit), in the output's own pixels, so
/// they show in the player's window, in an app's window and in frames alike. A click in the
/// player's window, or a point an app passes to ``MoviePlayer/sendPointer(x:y:)``, works them;
/// each does what the matching API call does and posts the same events.
public enum MovieControlStyle: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No controls are displayed.
    case none = 0
    /// A start/pause button, a scrubber bar with the elapsed and remaining time (and, for a
    /// stream, the buffered part), and a button that toggles between fullscreen and the window.
    case embedded = 1
    /// The embedded set, plus seek backward and forward buttons (10 seconds each), a volume
    /// slider, a button that toggles the scaling between aspect fit and aspect fill, and a Done
    /// button (it pauses and leaves fullscreen, without posting a playback finish).
    case fullscreen = 2

    /// The fullscreen style, as in MPMoviePlayerController (`MPMovieControlStyleDefault` equals
    /// `MPMovieControlStyleFullscreen`).
    public static var `default`: MovieControlStyle { .fullscreen }

    /// `none`, `embedded` or `fullscreen`.
    public var description: String {
        switch self {
        case .none: "none"
        case .embedded: "embedded"
        case .fullscreen: "fullscreen"
        }
    }
}

/// MPMoviePlayerController's first control setting (`MPMovieControlMode`, iPhone OS 2), mapped
/// onto ``MovieControlStyle`` for code ported from then (``MoviePlayer/movieControlMode``).
public enum MovieControlMode: Int, Sendable, Hashable, CaseIterable {
    /// Standard controls: the ``MovieControlStyle/default`` style.
    case `default` = 0
    /// Only the volume control. The engine has no volume-only style: the nearest is
    /// ``MovieControlStyle/embedded`` (play/pause, scrubber, fullscreen), which is what it shows.
    case volumeOnly = 1
    /// No controls: ``MovieControlStyle/none``.
    case hidden = 2

    /// The style this mode shows.
    public var controlStyle: MovieControlStyle {
        switch self {
        case .default: .default
        case .volumeOnly: .embedded
        case .hidden: .none
        }
    }

    /// The mode that shows `style`: ``hidden`` for none, ``volumeOnly`` for embedded, ``default``
    /// for fullscreen.
    public init(_ style: MovieControlStyle) {
        switch style {
        case .none: self = .hidden
        case .embedded: self = .volumeOnly
        case .fullscreen: self = .default
        }
    }
}
