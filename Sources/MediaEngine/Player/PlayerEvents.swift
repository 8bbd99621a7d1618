/// The events of one ``MoviePlayer``, as an `AsyncSequence`.
///
/// Each value of this type is one subscription: it receives every event from the moment
/// it was made, in order, until the player is released (then the sequence ends) or the
/// subscription is dropped. Any number of subscriptions may exist at once. Events are
/// buffered without limit, so a slow subscriber loses nothing.
public struct PlayerEvents: AsyncSequence, Sendable {
    public typealias Element = PlayerEvent

    let stream: AsyncStream<PlayerEvent>

    /// Makes the iterator; a subscription has one consumer.
    public func makeAsyncIterator() -> AsyncStream<PlayerEvent>.Iterator {
        stream.makeAsyncIterator()
    }
}
