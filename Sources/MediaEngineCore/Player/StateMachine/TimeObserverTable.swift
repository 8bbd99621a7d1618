/// The player's time observers (``MoviePlayer/addPeriodicTimeObserver(forInterval:)``,
/// ``MoviePlayer/addBoundaryTimeObserver(forTimes:)``) and, for each, the firing its timer is
/// armed for. Its state is its own; the machine decides when to arm and what a firing publishes
/// (``PlayerMachine/State/positionRead(session:position:)``).
struct TimeObserverTable {
    enum Kind: Equatable {
        case periodic(Duration)
        /// The boundaries, ascending.
        case boundary([Duration])
    }

    /// What an observer's armed timer is for.
    enum Armed: Equatable {
        case periodic
        /// The boundary it waits for, playing forward or backward; `nextPassFrom`: in repeat one, a
        /// boundary of the next pass, armed from this position of the pass before (a position at
        /// or past it when the timer fires is still that pass's).
        case boundary(Duration, forward: Bool, nextPassFrom: Duration? = nil)
    }

    private var entries: [Int: Kind] = [:]
    private var armed: [Int: Armed] = [:]
    private var lastID = 0

    /// The observers' ids, in the order they were added.
    var ids: [Int] { entries.keys.sorted() }

    var hasArmed: Bool { !armed.isEmpty }

    func kind(of id: Int) -> Kind? { entries[id] }

    func armed(_ id: Int) -> Armed? { armed[id] }

    /// Registers an observer; returns its id.
    mutating func add(_ kind: Kind) -> Int {
        lastID += 1
        entries[lastID] = kind
        return lastID
    }

    /// Forgets an observer; returns whether its timer was armed.
    mutating func remove(_ id: Int) -> Bool {
        entries[id] = nil
        return armed.removeValue(forKey: id) != nil
    }

    mutating func arm(_ id: Int, _ what: Armed) {
        armed[id] = what
    }

    /// Forgets every armed timer; returns the ids that had one.
    mutating func disarmAll() -> [Int] {
        defer { armed.removeAll() }
        return armed.keys.sorted()
    }

    mutating func disarm(_ id: Int) {
        armed[id] = nil
    }
}
