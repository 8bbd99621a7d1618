/// How much of the movie is available; MPMovieLoadState's equivalent.
public struct LoadState: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The set's bits: ``playable`` is 1, ``playthroughOK`` 2, ``stalled`` 4.
    public let rawValue: Int
    /// Creates a load state from its raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Nothing is known yet (the empty set).
    public static let unknown: LoadState = []
    /// Enough is buffered to start playing.
    public static let playable = LoadState(rawValue: 1 << 0)
    /// Enough is buffered to play to the end without stalling (always so for local files).
    public static let playthroughOK = LoadState(rawValue: 1 << 1)
    /// Playback stopped because the buffer ran dry; resumes when enough has arrived.
    public static let stalled = LoadState(rawValue: 1 << 2)

    /// The names of the members, for example `[playable, playthroughOK]`.
    public var description: String {
        let names = [(LoadState.playable, "playable"), (.playthroughOK, "playthroughOK"), (.stalled, "stalled")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "unknown" : "[" + names.joined(separator: ", ") + "]"
    }
}
