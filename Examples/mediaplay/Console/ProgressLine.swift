import MediaEngine

/// What the progress line shows: a snapshot of the player's properties.
public struct ProgressSnapshot: Sendable, Hashable {
    /// The playhead.
    public var position: Duration
    /// The movie's length, nil for a live stream or before it is known.
    public var duration: Duration?
    /// What the player is doing.
    public var state: PlaybackState
    /// The rate asked for (1 is normal speed).
    public var rate: Double
    /// How far playback can go from what has arrived (`playableDuration`), for a network movie;
    /// nil for a local file.
    public var playable: Duration?
    /// The volume, 0...1.
    public var volume: Double
    /// Whether the sound is muted.
    public var isMuted: Bool
    /// The repeat mode.
    public var repeatMode: RepeatMode
    /// A seek is under way (``position`` is where it goes): the line says `seeking` instead of
    /// the state.
    public var isSeeking: Bool
    /// The movie is still loading (not prepared yet): the line says `loading`, or how far its
    /// buffering has got.
    public var isLoading: Bool
    /// How much of what playback waits for has arrived, for a network movie
    /// (`MoviePlayer.bufferingPercent`): shown while it loads or is stalled.
    public var bufferingPercent: Int?

    /// A snapshot.
    /// - Parameters:
    ///   - position: The playhead.
    ///   - duration: The movie's length, if known.
    ///   - state: What the player is doing.
    ///   - rate: The rate asked for.
    ///   - playable: How far playback can go, for a network movie.
    ///   - volume: The volume, 0...1.
    ///   - isMuted: Whether the sound is muted.
    ///   - repeatMode: The repeat mode.
    ///   - isSeeking: Whether a seek is under way.
    ///   - isLoading: Whether the movie is still loading.
    ///   - bufferingPercent: How much of what playback waits for has arrived (network movies).
    public init(
        position: Duration, duration: Duration?, state: PlaybackState, rate: Double = 1, playable: Duration? = nil,
        volume: Double = 1, isMuted: Bool = false, repeatMode: RepeatMode = .none, isSeeking: Bool = false,
        isLoading: Bool = false, bufferingPercent: Int? = nil
    ) {
        self.position = position
        self.duration = duration
        self.state = state
        self.rate = rate
        self.playable = playable
        self.volume = volume
        self.isMuted = isMuted
        self.repeatMode = repeatMode
        self.isSeeking = isSeeking
        self.isLoading = isLoading
        self.bufferingPercent = bufferingPercent
    }

    /// The words for what the player is doing: `seeking` while a seek is under way; while the
    /// movie loads, `loading`, or `buffering 35%` once the network buffer reports; while a network
    /// movie is stalled (`interrupted`), `buffering 35%`, or `stalled` when no level is known;
    /// else the state.
    var stateWord: String {
        if isSeeking { return "seeking" }
        let buffering = bufferingPercent.flatMap { $0 < 100 ? "buffering \(max($0, 0))%" : nil }
        if isLoading { return buffering ?? "loading" }
        if state == .interrupted && playable != nil { return buffering ?? "stalled" }
        return state.description
    }
}

/// The one-line progress display: `0:12.3 / 1:00.0 [=====>---      ] playing 2x buffered 8.0 s vol 80%`,
/// or, while a network movie waits for data, `0:12.3 / 1:00.0 [=====>         ] buffering 35% vol 80%`.
///
/// ASCII only, so every character is one column. In the bar, `=` is what has played, `>` the
/// playhead and `-` what is buffered ahead of it (network movies). The line is at most
/// `width - 1` columns (the last column of a terminal would wrap the cursor onto the next line);
/// when it does not fit, the bar shrinks, then the least needed parts go (repeat, volume,
/// buffered amount, rate), then the bar, and the rest is cut.
public enum ProgressLine {
    /// The narrowest bar drawn, brackets excluded.
    public static let smallestBar = 8
    /// The widest bar drawn.
    public static let largestBar = 60

    /// The line for a terminal `width` columns wide.
    /// - Parameters:
    ///   - snapshot: What to show.
    ///   - width: The terminal's columns.
    /// - Returns: The line, without line ending or escape sequences.
    public static func render(_ snapshot: ProgressSnapshot, width: Int) -> String {
        let limit = max(width - 1, 1)
        let times = "\(time(snapshot.position)) / \(snapshot.duration.map(time) ?? "--:--")"
        var parts: [String] = [snapshot.stateWord]
        let optional: [String?] = [
            snapshot.rate == 1 ? nil : "\(number(snapshot.rate))x",
            buffered(snapshot).map { "buffered \(seconds($0))" },
            snapshot.isMuted ? "muted" : "vol \(Int((snapshot.volume * 100).rounded()))%",
            snapshot.repeatMode == .none ? nil : "repeat \(snapshot.repeatMode)",
        ]
        parts += optional.compactMap { $0 }
        var withBar = snapshot.duration != nil
        while true {
            let text = parts.joined(separator: " ")
            // times, space, [bar], space, text
            let room = limit - times.count - text.count - 4
            if withBar && room >= smallestBar {
                return "\(times) [\(bar(snapshot, width: min(room, largestBar)))] \(text)"
            }
            if !withBar && times.count + 1 + text.count <= limit { return "\(times) \(text)" }
            if parts.count > 1 {
                parts.removeLast()
                continue
            }
            if withBar {
                withBar = false
                parts = [snapshot.stateWord] + optional.compactMap { $0 }
                continue
            }
            // Without a bar, the parts went again from the last, down to the state: cut.
            return String("\(times) \(text)".prefix(limit))
        }
    }

    /// `m:ss.d`, or `h:mm:ss` from an hour on.
    static func time(_ duration: Duration) -> String {
        let tenths = max(Int((duration.inSeconds * 10).rounded(.down)), 0)
        let seconds = tenths / 10
        if seconds >= 3600 {
            return "\(seconds / 3600):\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60))"
        }
        return "\(seconds / 60):\(twoDigits(seconds % 60)).\(tenths % 10)"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `8.0 s`.
    private static func seconds(_ duration: Duration) -> String {
        let tenths = max(Int((duration.inSeconds * 10).rounded()), 0)
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// `2`, `1.5`, `0.25`.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e6 ? "\(Int(value))" : "\(value)"
    }

    /// What is buffered ahead of the playhead, for a network movie.
    private static func buffered(_ snapshot: ProgressSnapshot) -> Duration? {
        snapshot.playable.map { max($0 - snapshot.position, .zero) }
    }

    private static func bar(_ snapshot: ProgressSnapshot, width: Int) -> String {
        guard let duration = snapshot.duration, duration > .zero else { return String(repeating: " ", count: width) }
        func column(_ time: Duration) -> Int {
            let fraction = min(max(time / duration, 0), 1)
            return min(Int((fraction * Double(width)).rounded(.down)), width)
        }
        let head = min(column(snapshot.position), width - 1)
        let bufferedEnd = max(snapshot.playable.map(column) ?? 0, head + 1)
        return String(repeating: "=", count: head) + ">"
            + String(repeating: "-", count: bufferedEnd - head - 1)
            + String(repeating: " ", count: width - bufferedEnd)
    }
}
