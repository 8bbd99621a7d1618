/// The results of one batch of thumbnails (``ThumbnailGenerator/images(at:option:)``), one per
/// requested time, in the order they complete.
///
/// Every requested time gets exactly one result, even when the batch is cancelled: cancelling
/// (``cancel()``, the generator's ``ThumbnailGenerator/cancelAll()``, or cancelling the task
/// that iterates) stops decoding within one picture's decode and finishes every request not yet
/// done with ``MediaError/Code/cancelled``, which the iteration still returns. The pipelines
/// stay at most a few pictures ahead of the reader, so a batch of any size holds only a few
/// images at a time. Dropping the sequence and its iterators cancels what is left.
public struct ThumbnailResults: AsyncSequence, Sendable {
    /// One result per requested time.
    public typealias Element = ThumbnailResult
    /// Iterating never throws: failures are results.
    public typealias Failure = Never

    let batch: ThumbnailBatch
    let lifetime: ThumbnailBatch.Lifetime

    init(batch: ThumbnailBatch) {
        self.batch = batch
        self.lifetime = ThumbnailBatch.Lifetime(batch)
    }

    /// How many results the sequence gives (the number of requested times).
    public var count: Int { batch.total }

    /// How many results are decoding or waiting for the reader (at most a few, whatever the count).
    package var imagesHeld: Int { batch.imagesHeld }

    /// The most ``imagesHeld`` can be.
    package var capacity: Int { batch.capacity }

    /// Stops the batch: requests not finished yet end with ``MediaError/Code/cancelled``.
    public func cancel() {
        batch.cancel()
    }

    /// Makes an iterator; results are shared between iterators (each result is returned once).
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(batch: batch, lifetime: lifetime)
    }

    /// Returns the batch's results as they complete.
    public struct Iterator: AsyncIteratorProtocol {
        let batch: ThumbnailBatch
        let lifetime: ThumbnailBatch.Lifetime

        /// The next result to complete, or nil once every requested time has had its result.
        /// Cancelling the calling task cancels the batch; the remaining results (`cancelled`)
        /// still come.
        /// - Returns: The result, or nil at the end.
        public mutating func next() async -> ThumbnailResult? {
            await batch.next()
        }

        /// The next result (see ``next()``).
        /// - Parameter actor: The caller's isolation.
        /// - Returns: The result, or nil at the end.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> ThumbnailResult? {
            await batch.next()
        }
    }
}
