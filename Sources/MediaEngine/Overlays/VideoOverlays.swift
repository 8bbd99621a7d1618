import Synchronization

/// The overlays of one player. Add, replace and remove them at any time, playing or not; the
/// next frame shows the change.
public final class VideoOverlays: Sendable {
    /// Names one added overlay.
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        let value: Int
        /// `overlay-N`.
        public var description: String { "overlay-\(value)" }
    }

    private struct Entry {
        let id: ID
        var overlay: any VideoOverlay
    }

    private struct Storage {
        var entries: [Entry] = []
        var next = 1
    }

    private let storage = Mutex(Storage())

    init() {}

    /// Adds an overlay on top of those with the same z-order.
    /// - Parameter overlay: The overlay.
    /// - Returns: Its id, for replacing or removing it.
    @discardableResult
    public func add(_ overlay: any VideoOverlay) -> ID {
        storage.withLock { storage in
            let id = ID(value: storage.next)
            storage.next += 1
            storage.entries.append(Entry(id: id, overlay: overlay))
            return id
        }
    }

    /// Replaces an overlay, keeping its place among equal z-orders.
    /// - Parameters:
    ///   - id: The overlay to replace.
    ///   - overlay: Its replacement.
    /// - Returns: False when no overlay has that id.
    @discardableResult
    public func replace(_ id: ID, with overlay: any VideoOverlay) -> Bool {
        storage.withLock { storage in
            guard let index = storage.entries.firstIndex(where: { $0.id == id }) else { return false }
            storage.entries[index].overlay = overlay
            return true
        }
    }

    /// Removes an overlay.
    /// - Parameter id: The overlay to remove.
    /// - Returns: False when no overlay has that id.
    @discardableResult
    public func remove(_ id: ID) -> Bool {
        storage.withLock { storage in
            guard let index = storage.entries.firstIndex(where: { $0.id == id }) else { return false }
            storage.entries.remove(at: index)
            return true
        }
    }

    /// Removes every overlay.
    public func removeAll() {
        storage.withLock { $0.entries.removeAll() }
    }

    /// The overlays, bottom first (z-order, then the order they were added).
    public var all: [(id: ID, overlay: any VideoOverlay)] {
        let entries = storage.withLock { $0.entries }
        return entries.enumerated()
            .sorted { ($0.element.overlay.zOrder, $0.offset) < ($1.element.overlay.zOrder, $1.offset) }
            .map { ($0.element.id, $0.element.overlay) }
    }

    /// Whether there are none (checked on every frame, so cheaper than ``all``).
    public var isEmpty: Bool { storage.withLock { $0.entries.isEmpty } }
}
