/// What one bar of the controls looks like at a moment: everything its picture depends on, so
/// that a bar is drawn again only when this changes (the scrubber moving by a pixel, the
/// elapsed time's second, a button's state).
struct ControlsAppearance: Sendable, Hashable {
    enum Position: Sendable, Hashable, CaseIterable {
        case bottom
        case topLeading
        case topTrailing
    }

    let layout: ControlsLayout
    let position: Position
    var isPlaying = false
    var elapsed: String?
    var remaining: String?
    /// The played part of the scrubber's track, in pixels.
    var played = 0
    /// The buffered part of the scrubber's track, in pixels (streams).
    var buffered = 0
    /// The volume slider's filled part, in pixels.
    var volume = 0
    var isMuted = false
    var isFullscreen = false
    /// Whether the picture fills the output (the aspect button then offers fit).
    var fills = false
    /// Whether the track menu is open (its button is lit).
    var isTrackMenuOpen = false

    /// The bar at `position` of `layout`, or nil when the layout has none there.
    var bar: ControlsLayout.Bar? {
        switch position {
        case .bottom: layout.bottom
        case .topLeading: layout.topLeading
        case .topTrailing: layout.topTrailing
        }
    }

    init(layout: ControlsLayout, position: Position, snapshot: ControlsSnapshot) {
        self.layout = layout
        self.position = position
        isFullscreen = snapshot.isFullscreen
        fills = snapshot.scalingMode == .aspectFill
        isTrackMenuOpen = snapshot.isTrackMenuOpen
        guard position == .bottom, let bar = layout.bottom else { return }
        isPlaying = snapshot.isPlaying
        isMuted = snapshot.isMuted
        let position = max(.zero, snapshot.position)
        if bar.elements[.elapsed] != nil {
            elapsed = Self.clock(position)
            // Counted down from the duration's whole seconds, rounded up, so that the elapsed and
            // remaining times add up to the duration shown at the start.
            remaining =
                snapshot.duration.map { duration in
                    let whole = duration.components.seconds + (duration.components.attoseconds > 0 ? 1 : 0)
                    return "-" + Self.clock(.seconds(max(0, whole - max(0, position.components.seconds))))
                } ?? "--:--"
        }
        if let track = layout.track(of: .scrubber, in: bar), let duration = snapshot.duration, duration > .zero {
            played = Self.pixels(position / duration, of: track.width)
            buffered = snapshot.buffered.map { Self.pixels($0 / duration, of: track.width) } ?? 0
        }
        if let track = layout.track(of: .volume, in: bar) {
            volume = Self.pixels(snapshot.isMuted ? 0 : snapshot.volume, of: track.width)
        }
    }

    private static func pixels(_ fraction: Double, of width: Int) -> Int {
        guard fraction.isFinite else { return 0 }
        return Int((min(1, max(0, fraction)) * Double(width)).rounded())
    }

    /// `m:ss`, or `h:mm:ss` from an hour on (whole seconds, rounded down).
    static func clock(_ time: Duration) -> String {
        let seconds = max(0, time.components.seconds)
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let twoDigits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// Whether going from `self` to `next` changes only what moves with time (the scrubber, the
    /// buffered part, the times): such changes may wait for the next redraw slot.
    func differsOnlyInProgress(from next: ControlsAppearance) -> Bool {
        var same = next
        same.elapsed = elapsed
        same.remaining = remaining
        same.played = played
        same.buffered = buffered
        return same == self
    }
}

/// When the controls show: always while the movie is not playing; while it plays, for a few
/// seconds after the last pointer motion, click or key, then they fade out.
enum ControlsVisibility {
    /// How long the controls stay after the last input while playing.
    static let shownFor = Duration.seconds(3)
    /// How long they take to fade out.
    static let fadeLength = Duration.milliseconds(400)

    /// The controls' opacity `idle` after the last input.
    static func opacity(idle: Duration, playing: Bool) -> Double {
        guard playing, idle > shownFor else { return 1 }
        let faded = (idle - shownFor) / fadeLength
        return max(0, 1 - faded)
    }
}
