/// Timed metadata between the demuxer and the app: items the demuxer read ahead wait here until
/// playback reaches their time. A value the player's machine keeps; no clock, no I/O.
///
/// Items arrive in batches (one ID3 tag's frames, one changed title), each with the sequence
/// number of the segment it was read in (the seek's, after a seek), and are handed out a batch
/// at a time, in time order. Seeks decide what is stale:
/// - a flushing seek empties the queue (the demuxer reads again from the new position), and from
///   then on only batches of that seek's segment, at or after its position, are taken: what was
///   read before the flush, or lies behind the new position, is never handed out late;
/// - a loop's seek (repeat mode, not flushing) is sent while the pass before it still plays:
///   batches of the next pass wait until the position has gone back (the pass began).
struct TimedMetadataQueue {
    /// A batch of items with one time.
    struct Batch: Equatable {
        var items: [TimedMetadataItem]
        let time: Duration
        /// Read for the next pass of a loop: not due before the position goes back.
        var afterLoop: Bool
    }

    /// The items handed out last: the batch of the latest time playback reached.
    private(set) var current: [TimedMetadataItem] = []
    /// Batches waiting for their time, in time order (arrival order among equal times).
    private(set) var pending: [Batch] = []

    /// Whether items wait for their time.
    var hasPending: Bool { !pending.isEmpty }
    /// The flushing seek the demuxer's segment comes from, and its position.
    private var segment: (seqnum: UInt32, position: Duration)?
    /// The segment before the last flushing seek, restored if the pipeline refuses that seek.
    private var previousSegment: (seqnum: UInt32, position: Duration)?
    /// The last loop's seek: its segment is the next pass.
    private var nextPass: UInt32?
    /// The position at the last look, to see a loop begin (the position going back).
    private var lastPosition: Duration?

    /// The time of the next batch that can fall due, if any.
    var nextTime: Duration? {
        pending.first { !$0.afterLoop }?.time
    }

    /// Whether batches wait for a loop to begin.
    var waitsForLoop: Bool {
        pending.contains { $0.afterLoop }
    }

    /// Takes a batch read at `time` in the segment numbered `seqnum` (nil: unknown, taken as the
    /// current one). Dropped when stale (above), empty, or already waiting.
    mutating func arrived(_ items: [TimedMetadataItem], time: Duration, seqnum: UInt32?) {
        guard !items.isEmpty else { return }
        var afterLoop = false
        if let seqnum, seqnum == nextPass {
            afterLoop = true
        } else if let segment {
            if let seqnum, seqnum != segment.seqnum { return }
            if time < segment.position { return }
        }
        let batch = Batch(items: items, time: time, afterLoop: afterLoop)
        guard !pending.contains(batch) else { return }
        let index = pending.firstIndex { $0.time > time } ?? pending.endIndex
        pending.insert(batch, at: index)
    }

    /// A seek numbered `seqnum` to `position` was sent. Returns whether ``current`` was emptied.
    mutating func seekSent(seqnum: UInt32, position: Duration, flush: Bool) -> Bool {
        guard flush else {
            nextPass = seqnum
            return false
        }
        previousSegment = segment
        segment = (seqnum, position)
        nextPass = nil
        pending.removeAll()
        lastPosition = nil
        guard !current.isEmpty else { return false }
        current = []
        return true
    }

    /// The pipeline refused the seek numbered `seqnum`: the demuxer stays in its segment.
    mutating func seekRefused(seqnum: UInt32) {
        guard segment?.seqnum == seqnum else { return }
        segment = previousSegment
    }

    /// The batches due at `position` (at or before it), in order; the last becomes ``current``.
    mutating func due(at position: Duration) -> [[TimedMetadataItem]] {
        if let lastPosition, position < lastPosition, waitsForLoop {
            // The next pass began: its batches are now ordinary ones, and those of the pass
            // before that were not reached are gone.
            pending = pending.filter(\.afterLoop).map { batch in
                var batch = batch
                batch.afterLoop = false
                return batch
            }
        }
        lastPosition = position
        var taken: [[TimedMetadataItem]] = []
        while let index = pending.firstIndex(where: { !$0.afterLoop }), pending[index].time <= position {
            taken.append(pending.remove(at: index).items)
        }
        if let last = taken.last { current = last }
        return taken
    }

    /// Forgets everything (another movie, or none). Returns whether ``current`` was emptied.
    mutating func reset() -> Bool {
        let hadItems = !current.isEmpty
        self = TimedMetadataQueue()
        return hadItems
    }
}
