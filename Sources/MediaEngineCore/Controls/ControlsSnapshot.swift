/// What the controls show, read from the player once per frame (cheaply, under its state lock).
struct ControlsSnapshot: Sendable, Hashable {
    var isPlaying = false
    /// The position shown: the frame's own time when drawing over a frame.
    var position: Duration = .zero
    /// The movie's duration; nil while unknown, and for a live stream.
    var duration: Duration?
    /// For a stream: how far the movie is buffered (``MoviePlayer/playableDuration``); nil for a
    /// file, whose scrubber shows no buffered part.
    var buffered: Duration?
    var isFullscreen = false
    var scalingMode: ScalingMode = .aspectFit
    var volume: Double = 1
    var isMuted = false
    /// The movie's tracks, for the fullscreen style's track menu.
    var audioTracks: [MediaTrack] = []
    var subtitleTracks: [MediaTrack] = []
    var currentAudioTrack: Int?
    var currentSubtitleTrack: Int?
    /// Whether the track menu is open (the controls' own state, not the player's).
    var isTrackMenuOpen = false
}
