import Dispatch

/// The player's time observers and the timers that fire them. Timers run only while the movie
/// plays and are re-armed whenever playback changes (play, pause, seek, rate); each firing hands
/// its work to the player's thread, which reads the pipeline's position, so what an event
/// reports is where the movie really is.
final class TimeObservers: Sendable {
    private enum Kind {
        case periodic(Duration)
        case boundary([Duration])
    }

    private struct Entry {
        let kind: Kind
        var timer: RepeatingTimer?
        var oneShot: PlayerExecutor.ScheduledWork?
    }

    private struct Storage {
        var entries: [Int: Entry] = [:]
        var next = 1
    }

    private let storage = Locked(Storage())

    func addPeriodic(every interval: Duration, core: PlayerCore) -> TimeObserver {
        let observer = add(.periodic(interval))
        playbackChanged(core)
        return observer
    }

    func addBoundary(at times: [Duration], core: PlayerCore) -> TimeObserver {
        let observer = add(.boundary(times.sorted()))
        playbackChanged(core)
        return observer
    }

    private func add(_ kind: Kind) -> TimeObserver {
        storage.withLock { storage in
            let id = storage.next
            storage.next += 1
            storage.entries[id] = Entry(kind: kind)
            return TimeObserver(id: id)
        }
    }

    func remove(_ observer: TimeObserver) {
        let entry = storage.withLock { $0.entries.removeValue(forKey: observer.id) }
        entry?.timer?.cancel()
        entry?.oneShot?.cancel()
    }

    func cancelAll() {
        let entries = storage.withLock { storage in
            defer { storage.entries.removeAll() }
            return Array(storage.entries.values)
        }
        for entry in entries {
            entry.timer?.cancel()
            entry.oneShot?.cancel()
        }
    }

    /// Re-arms every observer for the player's current state, on the player's thread. Called
    /// after anything that changes where or how fast the movie plays.
    func playbackChanged(_ core: PlayerCore) {
        core.executor.enqueue { [self] in rearm(core) }
    }

    /// - Parameters:
    ///   - fired: A boundary observer that has just fired, and the boundary: its next boundary
    ///     lies beyond that one even when the position read now is a little short of it.
    ///   - owed: A boundary observer whose timer came before the position reached the boundary:
    ///     that boundary is armed again, even if the position read now has just passed it (reading
    ///     the position again to pick the next boundary would skip it for good).
    private func rearm(
        _ core: PlayerCore, fired: (id: Int, boundary: Duration)? = nil, owed: (id: Int, boundary: Duration)? = nil
    ) {
        let (playing, rate, session) = core.state.withLock { owned in
            (owned.machine.playbackState == .playing, owned.machine.segmentRate, owned.session)
        }
        let position = playing ? session?.position : nil
        storage.withLock { storage in
            for (id, var entry) in storage.entries {
                entry.timer?.cancel()
                entry.oneShot?.cancel()
                entry.timer = nil
                entry.oneShot = nil
                if playing, let position {
                    switch entry.kind {
                    case .periodic(let interval):
                        let wall = interval / abs(rate)
                        entry.timer = RepeatingTimer(every: .nanoseconds(Int(wall.clockTime))) { [weak core] in
                            guard let core else { return }
                            core.executor.enqueue { core.publishTime(observer: TimeObserver(id: id), boundary: nil) }
                        }
                    case .boundary(let times):
                        let forward = rate > 0
                        var from = position
                        if let fired, fired.id == id {
                            from = forward ? max(position, fired.boundary) : min(position, fired.boundary)
                        }
                        var ahead = forward ? times.first { $0 > from } : times.last { $0 < from }
                        if let owed, owed.id == id { ahead = owed.boundary }
                        if let boundary = ahead {
                            let remaining = forward ? boundary - position : position - boundary
                            let wall = max(remaining, .milliseconds(1)) / abs(rate)
                            entry.oneShot = core.executor.enqueue(after: wall) { [weak core] in
                                guard let core else { return }
                                // The timer keeps the wall clock, the movie the pipeline's: a timer
                                // that fires before the position has reached its boundary (a busy
                                // machine) is re-armed for the rest, and a boundary that fired is
                                // not picked again (both fired the last one twice).
                                let published = core.publishTime(
                                    observer: TimeObserver(id: id), boundary: boundary, forward: forward)
                                core.timeObservers.rearm(
                                    core, fired: published ? (id, boundary) : nil,
                                    owed: published ? nil : (id, boundary))
                            }
                        }
                    }
                }
                storage.entries[id] = entry
            }
        }
    }
}

extension PlayerCore {
    /// Publishes a time observer's firing with the current position (on the player's thread).
    /// - Parameters:
    ///   - boundary: For a boundary observer, the boundary; not published until the position
    ///     has reached it (playing `forward`, or backwards).
    /// - Returns: Whether the firing was published.
    @discardableResult
    func publishTime(observer: TimeObserver, boundary: Duration?, forward: Bool = true) -> Bool {
        let session = state.withLock { $0.machine.playbackState == .playing ? $0.session : nil }
        guard let session, let position = session.position else { return false }
        if let boundary, forward ? position < boundary : position > boundary { return false }
        return apply { machine -> Bool in
            guard machine.isCurrent(session.id) else { return false }
            if let boundary {
                machine.publish(.boundaryTimeReached(observer, boundary))
            } else {
                machine.publish(.periodicTime(observer, position))
            }
            return true
        }
    }
}
