#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a lock, with `Synchronization.Mutex`'s API (`init(_:)`, `withLock(_:)`),
/// backed by a `pthread_mutex_t`.
///
/// Why not `Mutex`: on Linux, `Mutex` waits on a futex of its own under contention, which
/// ThreadSanitizer does not see, so every access made under a contended `Mutex` on two threads
/// is a data race to `swift test --sanitize=thread` (`make tsan`). TSan intercepts the pthread
/// calls and sees these locks. Uncontended, a pthread mutex costs about what `Mutex` does
/// (one atomic exchange to take it, one to release it).
///
/// A class, so the lock has a stable address; not recursive: calling `withLock` again from
/// inside the closure deadlocks, as with `Mutex`.
package final class Locked<Value> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock guarding `initialValue`.
    /// - Parameters:
    ///   - initialValue: The value the lock guards.
    package init(_ initialValue: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Calls `body` with the value, holding the lock.
    /// - Parameters:
    ///   - body: Reads or changes the value; must not call `withLock` on this lock again.
    /// - Throws: What `body` throws.
    /// - Returns: What `body` returns.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
