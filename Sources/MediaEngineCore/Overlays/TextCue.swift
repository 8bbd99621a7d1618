/// A piece of timed text: shown from `start` until `end` (a caption, a subtitle).
public struct TextCue: Sendable, Hashable {
    /// When it appears, in the movie's time.
    public var start: Duration
    /// When it goes (exclusive).
    public var end: Duration
    /// The text; lines separated by "\n".
    public var text: String

    /// A cue.
    public init(start: Duration, end: Duration, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }

    /// Whether the cue shows at `time`.
    public func contains(_ time: Duration) -> Bool { time >= start && time < end }
}
