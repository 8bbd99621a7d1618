import Synchronization

/// A boolean that any thread may read and write.
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func load() -> Bool { value.load(ordering: .acquiring) }
    func store(_ newValue: Bool) { value.store(newValue, ordering: .releasing) }
}
