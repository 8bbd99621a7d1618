import Foundation
public import MediaEngineCore

#if canImport(Glibc)
    import Glibc
#endif

/// How many pre-roll ads may start in a time window, and how close together: a rule shared by
/// every player and every process of the user through a small JSON file (the start times of
/// recent ads), so that restarting the app does not reset it.
///
/// What counts is an ad shown: `playPrerollAd` reserves one before it asks the ad server (so
/// that a capped request fetches nothing), one more for each further ad of a pod it plays, and
/// gives back (``release(_:)``) every one whose ad never started: a request that found no ad,
/// failed, or was interrupted before that ad. ``minimumSpacing`` is kept between ad breaks
/// (requests), not between the ads of one pod.
///
/// ``reserve(now:)`` checks the rule and records the ad in one step, under an exclusive
/// `flock(2)` on a lock file beside the store (`preroll-frequency.json.lock`): two players,
/// in one process or several, can never both take the last ad allowed. The store is replaced
/// atomically (written aside, then renamed). Starts older than the window (``interval`` or
/// ``minimumSpacing``, whichever is longer) are dropped when it is written, so caps that share
/// a store should share a rule. A store that is not what this type writes (corrupt, truncated,
/// another program's) is read as empty and rewritten.
public struct FrequencyCap: Sendable, Hashable {
    /// How many ads may start within ``interval``.
    public var maximumAds: Int
    /// The sliding window ``maximumAds`` counts in.
    public var interval: Duration
    /// How long after an ad's start the next may start.
    public var minimumSpacing: Duration
    /// The JSON file of recent ad starts.
    public var storeURL: URL

    /// A cap.
    /// - Parameters:
    ///   - maximumAds: How many ads may start within `interval` (0: none).
    ///   - interval: The sliding window, longer than zero.
    ///   - minimumSpacing: How long after an ad's start the next may start.
    ///   - storeURL: The JSON file of recent starts, or nil for ``defaultStoreURL``. Its folder
    ///     is created when missing.
    public init(maximumAds: Int, per interval: Duration, minimumSpacing: Duration = .zero, storeURL: URL? = nil) {
        precondition(maximumAds >= 0, "a frequency cap of \(maximumAds) ads")
        precondition(interval > .zero && minimumSpacing >= .zero, "a frequency cap over \(interval)")
        self.maximumAds = maximumAds
        self.interval = interval
        self.minimumSpacing = minimumSpacing
        self.storeURL = storeURL ?? Self.defaultStoreURL
    }

    /// `$XDG_CACHE_HOME/swift-media-engine/preroll-frequency.json`, or, when that variable is
    /// unset or not an absolute path (as the XDG base directory specification says),
    /// `~/.cache/swift-media-engine/preroll-frequency.json`.
    public static var defaultStoreURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let cache: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cache = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            cache = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        return cache.appendingPathComponent("swift-media-engine", isDirectory: true)
            .appendingPathComponent("preroll-frequency.json")
    }

    /// The lock file beside the store.
    public var lockURL: URL {
        storeURL.deletingLastPathComponent().appendingPathComponent(storeURL.lastPathComponent + ".lock")
    }

    /// One ad counted against the cap: its start, as recorded in the store. Given back with
    /// ``release(_:)`` when the ad never started.
    public struct Reservation: Sendable, Hashable {
        /// When the ad was counted.
        public let start: Date
    }

    /// Takes one ad from the cap: checks that fewer than ``maximumAds`` ads started within
    /// ``interval`` before `now` and that the last started at least ``minimumSpacing`` ago,
    /// and records this one, atomically for every player and process sharing the store.
    ///
    /// Blocks the calling thread while another holder of the lock reads and writes the store
    /// (a small file: microseconds).
    /// - Parameter now: The ad's start.
    /// - Returns: The ad's place in the store, for ``release(_:)``.
    /// - Throws: `PrerollAdError` `PrerollAdError.Code.frequencyCapExceeded` when the cap
    ///   allows no ad now, saying when the next is allowed (nothing is recorded);
    ///   `PrerollAdError.Code.configuration` when the store's folder, lock or file cannot be
    ///   created, read or written.
    @discardableResult
    public func reserve(now: Date = Date()) throws(PrerollAdError) -> Reservation {
        try take(now: now, spaced: true).get()
    }

    /// Takes one more ad for the same ad break as an earlier ``reserve(now:)`` (the next ad of
    /// an ad pod, which follows the one before without a pause): counts against
    /// ``maximumAds`` only, since ``minimumSpacing`` is kept between breaks.
    /// - Parameter now: The ad's start.
    /// - Returns: The ad's place in the store; nil when the cap has no room for it (nothing is
    ///   recorded).
    /// - Throws: `PrerollAdError.Code.configuration` when the store cannot be read or written.
    public func reserveInSameBreak(now: Date = Date()) throws(PrerollAdError) -> Reservation? {
        guard case .success(let reservation) = try take(now: now, spaced: false) else { return nil }
        return reservation
    }

    /// Gives back an ad that never started (the request failed, was refused by the ad server,
    /// or was interrupted before it), so that it does not count against the cap.
    /// - Parameter reservation: What ``reserve(now:)`` or ``reserveInSameBreak(now:)`` returned.
    /// - Returns: Whether it was given back; false when the store could not be read or
    ///   written, or no longer has it (already given back, or out of the window). The ad then
    ///   keeps counting: the cap errs toward fewer ads, never more.
    @discardableResult
    public func release(_ reservation: Reservation) -> Bool {
        do throws(PrerollAdError) {
            let lock = try FileLock(lockURL)
            defer { lock.unlock() }
            guard var starts = try readStarts(),
                let index = starts.firstIndex(of: reservation.start)
            else { return false }
            starts.remove(at: index)
            try write(starts)
            return true
        } catch {
            // Documented above: an ad that cannot be given back keeps counting.
            return false
        }
    }

    /// Checks the rule (with or without the spacing) and records an ad at `now` under the lock:
    /// the reservation, or why the cap allows none (nothing recorded then).
    /// - Throws: When the store cannot be read or written.
    private func take(now: Date, spaced: Bool) throws(PrerollAdError) -> Result<Reservation, PrerollAdError> {
        let lock = try FileLock(lockURL)
        defer { lock.unlock() }
        let stored = try readStarts()
        let window = max(interval, minimumSpacing).inSeconds
        var starts = (stored ?? []).filter { now.timeIntervalSince($0) < window }.sorted()
        let refusal = Self.nextAllowed(after: starts, now: now, rule: self, spaced: spaced)
        if refusal == nil { starts.append(now) }
        if refusal == nil || stored != starts {
            try write(starts)
        }
        if let refusal { return .failure(refusal) }
        // The stored value, as read back (seconds since 1970 in a Double).
        return .success(Reservation(start: Date(timeIntervalSince1970: now.timeIntervalSince1970)))
    }

    /// Why no ad may start at `now` with these starts (oldest first), or nil when one may.
    private static func nextAllowed(after starts: [Date], now: Date, rule: FrequencyCap, spaced: Bool)
        -> PrerollAdError?
    {
        guard rule.maximumAds > 0 else {
            return PrerollAdError(
                .frequencyCapExceeded, "the frequency cap allows no ad (at most 0 per \(rule.interval))")
        }
        var next: Date?
        var reasons: [String] = []
        let inWindow = starts.filter { now.timeIntervalSince($0) < rule.interval.inSeconds }
        if inWindow.count >= rule.maximumAds {
            // The ad that must leave the window before another fits.
            next = inWindow[inWindow.count - rule.maximumAds].addingTimeInterval(rule.interval.inSeconds)
            reasons.append(
                "\(inWindow.count) ads started within the last \(rule.interval) (at most \(rule.maximumAds))")
        }
        if spaced, let last = starts.last, now.timeIntervalSince(last) < rule.minimumSpacing.inSeconds {
            let spaced = last.addingTimeInterval(rule.minimumSpacing.inSeconds)
            next = max(next ?? spaced, spaced)
            reasons.append(
                "the last ad started \(Self.seconds(now.timeIntervalSince(last))) ago (at least \(rule.minimumSpacing) "
                    + "apart)")
        }
        guard let next else { return nil }
        let when = ISO8601DateFormatter.string(
            from: next, timeZone: .current, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        return PrerollAdError(
            .frequencyCapExceeded,
            "frequency cap: \(reasons.joined(separator: ", and ")); the next ad is allowed at \(when) (in "
                + "\(Self.seconds(next.timeIntervalSince(now))))")
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        "\((interval * 1000).rounded(.up) / 1000) s"
    }

    /// The file's starts; nil when it is missing or not this type's JSON (rewritten then).
    private func readStarts() throws(PrerollAdError) -> [Date]? {
        let data: Data
        do {
            data = try Data(contentsOf: storeURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw PrerollAdError(.configuration, "the frequency cap's store \(storeURL.path) cannot be read: \(error)")
        }
        do {
            return try JSONDecoder().decode(Store.self, from: data).starts.map { Date(timeIntervalSince1970: $0) }
        } catch {
            // Not what this type writes: as good as no history. The caller rewrites it.
            return nil
        }
    }

    private func write(_ starts: [Date]) throws(PrerollAdError) {
        do {
            let data = try JSONEncoder().encode(Store(starts: starts.map(\.timeIntervalSince1970)))
            try data.write(to: storeURL, options: .atomic)
        } catch {
            throw PrerollAdError(
                .configuration, "the frequency cap's store \(storeURL.path) cannot be written: \(error)")
        }
    }

    /// The store's JSON: `{"starts": [seconds since 1970, ...]}`, oldest first.
    private struct Store: Codable {
        var starts: [Double]
    }
}

/// An exclusive `flock(2)` on a file, created (with its folder) when missing; held until
/// ``unlock()``.
private struct FileLock {
    private let descriptor: Int32

    init(_ url: URL) throws(PrerollAdError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw PrerollAdError(.configuration, "the frequency cap's folder cannot be created: \(error)")
        }
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw PrerollAdError(
                .configuration,
                "the frequency cap's lock \(url.path) cannot be opened: \(String(cString: strerror(errno)))")
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw PrerollAdError(.configuration, "the frequency cap's lock \(url.path) cannot be taken: \(message)")
        }
        self.descriptor = descriptor
    }

    /// Releases the lock (closing the file releases it).
    func unlock() {
        close(descriptor)
    }
}
