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
    /// slider, a button that toggles the scaling between aspect fit and aspect fill, a track
    /// menu, and a Done button (``MoviePlayer/doneButtonBehavior``: by default it pauses and
    /// leaves fullscreen, without posting a playback finish).
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

/// MPMoviePlayerController's first control setting (`MPMovieControlMode`, iPhone OS 2), for code
/// ported from then (``MoviePlayer/movieControlMode``).
public enum MovieControlMode: Int, Sendable, Hashable, CaseIterable {
    /// Standard controls: the ``MovieControlStyle/default`` style.
    case `default` = 0
    /// Only the volume control: a short bar at the bottom middle with the speaker and the volume
    /// slider. No ``MovieControlStyle`` names it; ``MoviePlayer/controlStyle`` then reads
    /// ``MovieControlStyle/embedded``.
    case volumeOnly = 1
    /// No controls: ``MovieControlStyle/none``.
    case hidden = 2

    /// The style ``MoviePlayer/controlStyle`` reads while this mode shows: ``MovieControlStyle/default``,
    /// ``MovieControlStyle/embedded`` for ``volumeOnly`` (which no style names), ``MovieControlStyle/none``.
    public var controlStyle: MovieControlStyle {
        switch self {
        case .default: .default
        case .volumeOnly: .embedded
        case .hidden: .none
        }
    }

    /// The mode a style shows: ``hidden`` for none, ``default`` for the embedded and the
    /// fullscreen style (both have the standard controls; ``volumeOnly`` is only ever set).
    public init(_ style: MovieControlStyle) {
        switch style {
        case .none: self = .hidden
        case .embedded, .fullscreen: self = .default
        }
    }
}
