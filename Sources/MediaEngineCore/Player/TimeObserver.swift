/// A registered time observer: periodic (every so much movie time during playback) or
/// boundary (when playback crosses given times). Its firings arrive as
/// ``PlayerEvent/periodicTime(_:_:)`` and ``PlayerEvent/boundaryTimeReached(_:_:)``; remove it
/// with ``MoviePlayer/removeTimeObserver(_:)``.
public struct TimeObserver: Sendable, Hashable, CustomStringConvertible {
    let id: Int
    /// `timeObserver-N`.
    public var description: String { "timeObserver-\(id)" }
}
