/// The movies a pipeline goes on to without a gap, in order: each one's URI is set at the
/// previous one's about-to-finish (``PipelineSession/queueNext(_:playing:)``). Items carry ids the
/// player gives them, so that a list sent again after playbin has already taken some of it (it
/// reads ahead: a short movie is read to its end before the one before it has finished playing)
/// does not hand an item over twice.
struct UpNext: Sendable {
    /// One movie to go on to.
    struct Item: Sendable {
        let id: Int
        let source: any MediaSource
    }

    /// What the pipeline has not been handed yet.
    private(set) var pending: [Item] = []
    /// The ids handed to playbin that have not started playing yet, oldest first.
    private(set) var handed: [Int] = []
    /// How many movies were handed to playbin since the last ``clear()``.
    private(set) var handOvers = 0

    /// A new list from the player, when item `playing` is playing: items handed before it, and
    /// it, are done; the head of `upcoming` already handed is not handed again. Returns the
    /// ordinal, counted from 1 since the last ``clear()``, of the first hand-over whose movie
    /// `upcoming` no longer has in its place (the queue changed after playbin took it: that
    /// movie and any handed after it are withdrawn), or nil.
    @discardableResult
    mutating func replace(with upcoming: [Item], playing: Int?) -> Int? {
        if let playing, let index = handed.firstIndex(of: playing) { handed.removeFirst(index + 1) }
        var list = upcoming[...]
        var matched = 0
        while matched < handed.count, let first = list.first, first.id == handed[matched] {
            list = list.dropFirst()
            matched += 1
        }
        pending = Array(list)
        guard matched < handed.count else { return nil }
        return handOvers - handed.count + matched + 1
    }

    /// about-to-finish: the next movie, if any, now handed over.
    mutating func take() -> (any MediaSource)? {
        guard !pending.isEmpty else { return nil }
        let item = pending.removeFirst()
        handed.append(item.id)
        handOvers += 1
        return item.source
    }

    /// A reload or a stop: nothing is queued or on its way any more.
    mutating func clear() {
        pending = []
        handed = []
        handOvers = 0
    }
}
