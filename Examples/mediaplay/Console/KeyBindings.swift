import MediaEngine

/// What a key asks the player to do.
public enum PlayerCommand: Hashable, Sendable {
    /// Pause when playing, play otherwise.
    case playPause
    /// Move the playhead by this much (negative: back), to the exact frame or the nearest keyframe.
    case seek(by: Duration, exact: Bool)
    /// The next rate up ``KeyBindings/rates``.
    case faster
    /// The next rate down.
    case slower
    /// Fullscreen on or off (window sinks).
    case fullscreen
    /// The next scaling mode.
    case scalingMode
    /// The next repeat mode.
    case repeatMode
    /// Mute or unmute.
    case mute
    /// The volume up or down by this much.
    case volume(by: Double)
    /// The queue's next movie.
    case next
    /// The queue's previous movie.
    case previous
    /// The next audio track.
    case audioTrack
    /// The next subtitle track, none after the last.
    case subtitleTrack
    /// Print the keys.
    case help
    /// Stop and exit.
    case quit
}

/// mediaplay's keys, and the steps they take.
public enum KeyBindings {
    /// How far the arrow keys move the playhead.
    public static let seekStep = Duration.seconds(5)
    /// How much `9`/`0` change the volume.
    public static let volumeStep = 0.1
    /// The rates Up and Down step through.
    public static let rates: [Double] = [0.25, 0.5, 1, 1.5, 2, 4, 8]

    /// The command of a key, if it has one.
    /// - Parameter key: The key pressed.
    /// - Returns: The command, or nil for a key that does nothing.
    public static func command(for key: Key) -> PlayerCommand? {
        switch key {
        case .character(" "): .playPause
        case .arrow(.right, let shift): .seek(by: seekStep, exact: shift)
        case .arrow(.left, let shift): .seek(by: .zero - seekStep, exact: shift)
        case .arrow(.up, _): .faster
        case .arrow(.down, _): .slower
        case .character("f"): .fullscreen
        case .character("a"): .scalingMode
        case .character("l"): .repeatMode
        case .character("m"): .mute
        case .character("9"), .character("-"): .volume(by: -volumeStep)
        case .character("0"), .character("+"), .character("="): .volume(by: volumeStep)
        case .character("n"): .next
        case .character("p"): .previous
        case .character("t"): .audioTrack
        case .character("s"): .subtitleTrack
        case .character("?"), .character("h"): .help
        case .character("q"), .character("Q"), .escape: .quit
        default: nil
        }
    }

    /// The key a window reported (``PlayerEvent/windowKeyPressed(_:shift:)``: an X keysym's
    /// name, unshifted) as the terminal would have sent it; nil for a key without a command's
    /// spelling here.
    /// - Parameters:
    ///   - name: The keysym's name: `space`, `Left`, `q`, `slash`, ...
    ///   - shift: Whether Shift was held.
    /// - Returns: The key.
    public static func key(windowKey name: String, shift: Bool) -> Key? {
        switch name {
        case "space": .character(" ")
        case "Left": .arrow(.left, shift: shift)
        case "Right": .arrow(.right, shift: shift)
        case "Up": .arrow(.up, shift: shift)
        case "Down": .arrow(.down, shift: shift)
        case "Escape": .escape
        case "Return", "KP_Enter": .enter
        case "question": .character("?")
        case "slash": shift ? .character("?") : .character("/")
        case "minus", "KP_Subtract": .character("-")
        case "plus", "KP_Add": .character("+")
        case "equal": shift ? .character("+") : .character("=")
        default:
            name.count == 1 ? .character(shift ? Character(name.uppercased()) : Character(name)) : nil
        }
    }

    /// The keys, in two lines of under 80 columns.
    public static let help =
        "keys: space play/pause, left/right seek 5 s (shift: exact frame), up/down rate,\n"
        + "      f fullscreen, a scaling, l repeat, m mute, 9/0 volume, n/p next/previous,\n"
        + "      t audio track, s subtitles, ? keys, q or Escape quit"

    /// The rate after `rate`, one step up or down ``rates``; nil past either end.
    /// - Parameters:
    ///   - rate: The rate now.
    ///   - faster: Up, or down.
    /// - Returns: The next rate.
    public static func rate(after rate: Double, faster: Bool) -> Double? {
        faster ? rates.first { $0 > rate } : rates.last { $0 < rate }
    }

    /// The scaling mode after `mode`: fit, fill, stretch, natural size, and round again.
    /// - Parameter mode: The mode now.
    /// - Returns: The next one.
    public static func scalingMode(after mode: ScalingMode) -> ScalingMode {
        switch mode {
        case .aspectFit: .aspectFill
        case .aspectFill: .fill
        case .fill: .none
        case .none: .aspectFit
        }
    }

    /// The repeat mode after `mode`: once, the movie again, the queue again (with a queue).
    /// - Parameters:
    ///   - mode: The mode now.
    ///   - hasQueue: Whether several movies play as a queue.
    /// - Returns: The next one.
    public static func repeatMode(after mode: RepeatMode, hasQueue: Bool) -> RepeatMode {
        switch mode {
        case .none: .one
        case .one: hasQueue ? .all : .none
        case .all: .none
        }
    }

    /// The subtitle track after the one drawn: the first when none is, none (nil) after the last.
    /// - Parameters:
    ///   - current: The track drawn, or nil.
    ///   - tracks: The movie's subtitle tracks.
    /// - Returns: The track to draw, or nil for none.
    public static func subtitleTrack(after current: MediaTrack?, in tracks: [MediaTrack]) -> MediaTrack? {
        guard let current else { return tracks.first }
        guard let index = tracks.firstIndex(where: { $0.index == current.index }), index + 1 < tracks.count else {
            return nil
        }
        return tracks[index + 1]
    }

    /// The audio track after the one playing, the first after the last; nil without two tracks.
    /// - Parameters:
    ///   - current: The track playing.
    ///   - tracks: The movie's audio tracks.
    /// - Returns: The track to play.
    public static func audioTrack(after current: MediaTrack?, in tracks: [MediaTrack]) -> MediaTrack? {
        guard tracks.count > 1 else { return nil }
        let index = current.flatMap { track in tracks.firstIndex { $0.index == track.index } } ?? -1
        return tracks[(index + 1) % tracks.count]
    }
}
