/// The queue of movies (``MoviePlayer/setQueue(_:startingAt:)``) and where it is: which item plays,
/// which comes next or before in a repeat mode, and the ids the pipeline's hand-overs name items by.
/// Its state is its own: changed only by the methods below.
struct MovieQueue {
    private(set) var items: [any MediaSource] = []
    /// Each item's id (``UpNext``), in the queue's order.
    private(set) var ids: [Int] = []
    /// The item playing.
    private(set) var index: Int?
    /// Where ids come from (the pre-rolls' items take theirs here too).
    private var lastID = 0

    /// A new id for a movie the pipeline may go on to.
    mutating func makeItemID() -> Int {
        lastID += 1
        return lastID
    }

    var isEmpty: Bool { items.isEmpty }

    /// Replaces the items (each given a new id); nothing plays from them yet.
    mutating func replace(with items: [any MediaSource]) {
        self.items = items
        ids = items.map { _ in makeItemID() }
        index = nil
    }

    /// Item `index` plays now.
    mutating func select(_ index: Int) {
        precondition(items.indices.contains(index))
        self.index = index
    }

    /// Inserts `item` at `position`; the item playing keeps its place in the order.
    mutating func insert(_ item: any MediaSource, at position: Int) {
        items.insert(item, at: position)
        ids.insert(makeItemID(), at: position)
        if let index, position <= index { self.index = index + 1 }
    }

    /// Removes the item at `position` (never the one playing).
    mutating func remove(at position: Int) {
        items.remove(at: position)
        ids.remove(at: position)
        if let index, position < index { self.index = index - 1 }
    }

    /// The item after the current one: the next, or the first again in repeat-all; nil at the end.
    func next(in mode: RepeatMode) -> Int? {
        guard let index, !items.isEmpty, mode != .one else { return nil }
        if index + 1 < items.count { return index + 1 }
        return mode == .all ? 0 : nil
    }

    /// The item before the current one (the last again in repeat-all).
    func previous(in mode: RepeatMode) -> Int? {
        guard let index, !items.isEmpty else { return nil }
        if index > 0 { return index - 1 }
        return mode == .all ? items.count - 1 : nil
    }

    /// The rest of the queue after the item playing, in order (once round, in repeat-all).
    func upcoming(in mode: RepeatMode) -> [UpNext.Item] {
        guard let current = index, mode != .one else { return [] }
        var upcoming: [UpNext.Item] = []
        var position = current
        for _ in 0..<max(0, items.count - 1) {
            if position + 1 < items.count {
                position += 1
            } else if mode == .all {
                position = 0
            } else {
                break
            }
            upcoming.append(UpNext.Item(id: ids[position], source: items[position]))
        }
        if mode == .all, !items.isEmpty, upcoming.count == items.count - 1 {
            upcoming.append(UpNext.Item(id: ids[current], source: items[current]))
        }
        return upcoming
    }
}
