/// The events of one ``MoviePlayer``, as an `AsyncSequence`.
///
/// Each value of this type is one subscription: it receives every event from the moment
/// it was made, in order, until the player is released (then the sequence ends) or the
/// subscription is dropped. Any number of subscriptions may exist at once.
///
/// Each subscription buffers at most ``bufferLimit`` (1024) events it has not read yet. A
/// subscriber that falls further behind loses the oldest unread events, never the newest: it
/// resumes with the 1024 most recent ones, still in order, so the last state it reads is the
/// player's current one. The player never waits for a slow subscriber, and other subscriptions
/// are not affected. A subscriber that reads as events come (a `for await` loop that does not
/// block) never comes near the bound: a movie's whole playback announces a few dozen events,
/// plus one per periodic time observer tick.
public struct PlayerEvents: AsyncSequence, Sendable {
    /// Each value is one ``PlayerEvent``.
    public typealias Element = PlayerEvent

    /// How many unread events one subscription keeps: 1024. Past it the oldest are dropped.
    public static let bufferLimit = 1024

    let stream: AsyncStream<PlayerEvent>

    /// Makes the iterator; a subscription has one consumer.
    public func makeAsyncIterator() -> AsyncStream<PlayerEvent>.Iterator {
        stream.makeAsyncIterator()
    }
}
