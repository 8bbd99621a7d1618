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

    /// Names a watch set up with ``watchEmptiness(_:)``.
    struct WatchToken: Sendable, Hashable {
        let value: Int
    }

    private struct Storage {
        var entries: [Entry] = []
        var next = 1
        var watchers: [WatchToken: @Sendable (Bool) -> Void] = [:]
        var nextWatch = 1
        /// The engine's own overlays whose clicks it handles (the controls): not announced.
        var clickHandlers: [ID: ClickHandler] = [:]
        /// Told of every pointer motion, click and key on the output (the controls show again).
        var inputWatch: (@Sendable () -> Void)?

        /// Runs `change`, then tells the watchers if the list became empty or stopped being so.
        /// They run under the lock, so they see the changes in order.
        mutating func changing<Result>(_ change: (inout [Entry]) -> Result) -> Result {
            let wasEmpty = entries.isEmpty
            let result = change(&entries)
            if entries.isEmpty != wasEmpty {
                for watcher in watchers.values { watcher(entries.isEmpty) }
            }
            return result
        }
    }

    /// Handles a click on one of an overlay's regions: its id and the point in its bitmap.
    typealias ClickHandler = @Sendable (_ region: String, _ point: OverlayPoint) -> Void

    private let storage = Locked(Storage())
    /// Publishes the overlays' events on the player's hub.
    let announce: @Sendable ([PlayerEvent]) -> Void
    /// What the latest composited frame showed, for hit tests.
    let layout = Locked<OverlayLayout?>(nil)
    /// Whether the output draws into the player's own window, whose keys its own display
    /// connection reports (``PlayerWindow/watchInput(clicks:keys:)``): the window sink's
    /// navigation key events are then not announced a second time.
    let ownWindowReportsKeys = Locked(false)

    init(announce: @escaping @Sendable ([PlayerEvent]) -> Void = { _ in }) {
        self.announce = announce
    }

    /// Adds an overlay on top of those with the same z-order.
    /// - Parameter overlay: The overlay.
    /// - Returns: Its id, for replacing or removing it.
    @discardableResult
    public func add(_ overlay: any VideoOverlay) -> ID {
        storage.withLock { storage in
            let id = ID(value: storage.next)
            storage.next += 1
            storage.changing { $0.append(Entry(id: id, overlay: overlay)) }
            return id
        }
    }

    /// Adds one of the engine's own overlays whose clicks `onClick` handles instead of announcing
    /// them (``PlayerEvent/overlayRegionActivated(overlay:region:point:)``).
    func add(_ overlay: any VideoOverlay, onClick: @escaping ClickHandler) -> ID {
        storage.withLock { storage in
            let id = ID(value: storage.next)
            storage.next += 1
            storage.clickHandlers[id] = onClick
            storage.changing { $0.append(Entry(id: id, overlay: overlay)) }
            return id
        }
    }

    /// Calls `watch` on every pointer motion, click and key on the output from now on.
    func watchInput(_ watch: @escaping @Sendable () -> Void) {
        storage.withLock { $0.inputWatch = watch }
    }

    /// The pointer moved, or a key was pressed, on the output.
    func noteInput() {
        storage.withLock { $0.inputWatch }?()
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
            storage.clickHandlers[id] = nil
            storage.changing { _ = $0.remove(at: index) }
            return true
        }
    }

    /// Removes every overlay.
    public func removeAll() {
        storage.withLock { storage in
            storage.clickHandlers = [:]
            storage.changing { $0.removeAll() }
        }
    }

    /// Draws an overlay over the others with the same z-order.
    /// - Parameter id: The overlay.
    /// - Returns: False when no overlay has that id.
    @discardableResult
    public func bringToFront(_ id: ID) -> Bool {
        storage.withLock { storage in
            guard let index = storage.entries.firstIndex(where: { $0.id == id }) else { return false }
            storage.entries.append(storage.entries.remove(at: index))
            return true
        }
    }

    /// Draws an overlay under the others with the same z-order.
    /// - Parameter id: The overlay.
    /// - Returns: False when no overlay has that id.
    @discardableResult
    public func sendToBack(_ id: ID) -> Bool {
        storage.withLock { storage in
            guard let index = storage.entries.firstIndex(where: { $0.id == id }) else { return false }
            storage.entries.insert(storage.entries.remove(at: index), at: 0)
            return true
        }
    }

    /// The overlay with an id, if it is still there.
    public subscript(id: ID) -> (any VideoOverlay)? {
        storage.withLock { storage in storage.entries.first { $0.id == id }?.overlay }
    }

    /// Calls `watcher` now and whenever the list becomes empty or stops being so.
    func watchEmptiness(_ watcher: @escaping @Sendable (Bool) -> Void) -> WatchToken {
        storage.withLock { storage in
            let token = WatchToken(value: storage.nextWatch)
            storage.nextWatch += 1
            storage.watchers[token] = watcher
            watcher(storage.entries.isEmpty)
            return token
        }
    }

    /// Ends a watch.
    func stopWatching(_ token: WatchToken) {
        _ = storage.withLock { $0.watchers.removeValue(forKey: token) }
    }

    /// The overlays, bottom first (z-order, then the order they were added, as reordered).
    public var all: [(id: ID, overlay: any VideoOverlay)] {
        let entries = storage.withLock { $0.entries }
        // Each z-order read once (an overlay may compute it under a lock), then a stable sort.
        let keys = entries.map(\.overlay.zOrder)
        guard zip(keys, keys.dropFirst()).contains(where: { $0 > $1 }) else {
            return entries.map { ($0.id, $0.overlay) }
        }
        return entries.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }.map { (entries[$0].id, entries[$0].overlay) }
    }

    /// Whether there are none (checked on every frame, so cheaper than ``all``).
    public var isEmpty: Bool { storage.withLock { $0.entries.isEmpty } }

    /// Where the latest frame put the movie's picture and the overlays, once one has been
    /// composited with overlays on it.
    public var latestGeometry: OverlayGeometry? { layout.withLock { $0?.geometry } }

    /// Finds the hit region under a point of the output frame, topmost overlay first, in the
    /// latest composited frame.
    /// - Parameters:
    ///   - x: Pixels from the output's left edge.
    ///   - y: Pixels from the output's top edge.
    /// - Returns: The overlay, the region's id and the point in the overlay bitmap's pixels, or nil.
    public func hitTest(viewX x: Double, y: Double) -> (overlay: ID, region: String, point: OverlayPoint)? {
        layout.withLock { $0 }?.hitTest(viewX: x, y: y)
    }

    /// Hit-tests a click at a point of the output frame and announces the region it lands in (or
    /// gives it to the engine's overlay that handles its own clicks).
    @discardableResult
    func click(viewX x: Double, y: Double) -> (overlay: ID, region: String, point: OverlayPoint)? {
        noteInput()
        guard let hit = hitTest(viewX: x, y: y) else { return nil }
        if let handler = storage.withLock({ $0.clickHandlers[hit.overlay] }) {
            handler(hit.region, hit.point)
        } else {
            announce([.overlayRegionActivated(overlay: hit.overlay, region: hit.region, point: hit.point)])
        }
        return hit
    }
}
