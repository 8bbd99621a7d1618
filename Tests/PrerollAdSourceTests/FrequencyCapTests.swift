import Foundation
import MediaEngine
import MediaTestSupport
import PrerollAdSource
import Testing

/// ``FrequencyCap``: the rule, the shared store, and a store that is not what it should be.
@Suite("Frequency cap")
struct FrequencyCapTests {
    /// A store path in a fresh scratch folder (removed by the caller).
    static func scratchStore() throws -> (folder: URL, store: URL) {
        let folder = try TestMedia.scratchDirectory()
        return (folder, folder.appendingPathComponent("caps/preroll-frequency.json"))
    }

    static func storedStarts(_ store: URL) throws -> [Double] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any]
        return try #require(object?["starts"] as? [Double])
    }

    @Test("N ads per interval: the N+1th is refused until the first leaves the window")
    func perInterval() throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        let cap = FrequencyCap(maximumAds: 3, per: .seconds(3600), storeURL: store)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for offset in [0.0, 60, 120] {
            try cap.reserve(now: start.addingTimeInterval(offset))
        }
        let error = #expect(throws: PrerollAdError.self) { try cap.reserve(now: start.addingTimeInterval(600)) }
        #expect(error?.code == .frequencyCapExceeded)
        #expect(error?.vastErrorCode == nil)
        // The first ad leaves the window an hour after it started: 3000 s after this refusal.
        let expected = ISO8601DateFormatter.string(
            from: start.addingTimeInterval(3600), timeZone: .current,
            formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("in 3000.0 s") == true, "\(error?.message ?? "")")
        // A refusal records nothing.
        #expect(try Self.storedStarts(store).count == 3)
        #expect(throws: PrerollAdError.self) { try cap.reserve(now: start.addingTimeInterval(3599.9)) }
        try cap.reserve(now: start.addingTimeInterval(3600))
        // The first start is out of the window now and was dropped from the store.
        #expect(try Self.storedStarts(store) == [60, 120, 3600].map { start.timeIntervalSince1970 + $0 })
    }

    @Test("minimum spacing: an ad too soon after the last is refused, with the time it would be allowed")
    func spacing() throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        let cap = FrequencyCap(maximumAds: 10, per: .seconds(3600), minimumSpacing: .seconds(90), storeURL: store)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try cap.reserve(now: start)
        let error = #expect(throws: PrerollAdError.self) { try cap.reserve(now: start.addingTimeInterval(30)) }
        #expect(error?.code == .frequencyCapExceeded)
        #expect(error?.message.contains("in 60.0 s") == true, "\(error?.message ?? "")")
        try cap.reserve(now: start.addingTimeInterval(90))
        #expect(try Self.storedStarts(store).count == 2)
    }

    @Test("a released ad no longer counts; the next ad of a pod ignores the spacing but not the maximum")
    func releaseAndPods() throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        let cap = FrequencyCap(maximumAds: 3, per: .seconds(3600), minimumSpacing: .seconds(60), storeURL: store)
        // Not a time a Double holds exactly in both epochs: the reservation still finds itself.
        let start = Date(timeIntervalSinceReferenceDate: 720_000_000.123_456_7)
        let first = try cap.reserve(now: start)
        #expect(try cap.reserveInSameBreak(now: start.addingTimeInterval(15)) != nil)
        #expect(try Self.storedStarts(store).count == 2)
        // Given back: only the pod's second ad counts.
        #expect(cap.release(first))
        #expect(!cap.release(first))
        #expect(try Self.storedStarts(store) == [start.addingTimeInterval(15).timeIntervalSince1970])
        // A new break 20 s after the pod's last ad is still too soon; 60 s after is not.
        #expect(throws: PrerollAdError.self) { try cap.reserve(now: start.addingTimeInterval(35)) }
        try cap.reserve(now: start.addingTimeInterval(75))
        #expect(try cap.reserveInSameBreak(now: start.addingTimeInterval(76)) != nil)
        // The maximum holds within a pod: the fourth ad finds no room, and nothing is recorded.
        #expect(try cap.reserveInSameBreak(now: start.addingTimeInterval(77)) == nil)
        #expect(try Self.storedStarts(store).count == 3)
    }

    @Test("a cap of zero allows nothing")
    func zero() throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        let error = #expect(throws: PrerollAdError.self) {
            try FrequencyCap(maximumAds: 0, per: .seconds(60), storeURL: store).reserve()
        }
        #expect(error?.code == .frequencyCapExceeded)
    }

    @Test("two caps on one store, many concurrent reservations: exactly N succeed")
    func concurrent() async throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        let caps = [
            FrequencyCap(maximumAds: 5, per: .seconds(3600), storeURL: store),
            FrequencyCap(maximumAds: 5, per: .seconds(3600), storeURL: store),
        ]
        let outcomes = await withTaskGroup(of: PrerollAdError.Code?.self) { group in
            for attempt in 0..<40 {
                group.addTask {
                    do throws(PrerollAdError) {
                        try caps[attempt % 2].reserve()
                        return nil
                    } catch {
                        return error.code
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 40)
        #expect(outcomes.filter { $0 == nil }.count == 5)
        #expect(outcomes.filter { $0 == .frequencyCapExceeded }.count == 35)
        #expect(try Self.storedStarts(store).count == 5)
    }

    @Test("threads of their own, each with its own cap value: exactly N succeed")
    func threads() throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        let successes = Counter()
        DispatchQueue.concurrentPerform(iterations: 24) { _ in
            do {
                try FrequencyCap(maximumAds: 7, per: .seconds(600), storeURL: store).reserve()
                successes.add()
            } catch {
                // Refused: counted by what is missing from `successes`.
            }
        }
        #expect(successes.value == 7)
        #expect(try Self.storedStarts(store).count == 7)
    }

    @Test("the cap holds after a restart: a new value on the same store sees the history")
    func restart() throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        let now = Date()
        do {
            let first = FrequencyCap(maximumAds: 2, per: .seconds(600), storeURL: store)
            try first.reserve(now: now)
            try first.reserve(now: now.addingTimeInterval(1))
        }
        let second = FrequencyCap(maximumAds: 2, per: .seconds(600), storeURL: store)
        let error = #expect(throws: PrerollAdError.self) { try second.reserve(now: now.addingTimeInterval(2)) }
        #expect(error?.code == .frequencyCapExceeded)
    }

    @Test(
        "a corrupt store is read as empty and rewritten", arguments: ["{not json", "", "{\"starts\":\"x\"}", "[1,2]"])
    func corrupt(_ contents: String) throws {
        let (folder, store) = try Self.scratchStore()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        try FileManager.default.createDirectory(
            at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: store, atomically: true, encoding: .utf8)
        // A time a Double holds exactly both since 1970 and since 2001 (Date's own reference).
        let now = Date(timeIntervalSince1970: 1_700_000_000.5)
        let cap = FrequencyCap(maximumAds: 1, per: .seconds(60), storeURL: store)
        try cap.reserve(now: now)
        #expect(try Self.storedStarts(store) == [now.timeIntervalSince1970])
        #expect(throws: PrerollAdError.self) { try cap.reserve(now: now) }
    }

    @Test("a store that cannot be written is a configuration error")
    func unwritable() throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }  // Scratch litter only.
        // A file where the store's folder should be.
        let blocker = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let error = #expect(throws: PrerollAdError.self) {
            try FrequencyCap(maximumAds: 1, per: .seconds(60), storeURL: blocker.appendingPathComponent("store.json"))
                .reserve()
        }
        #expect(error?.code == .configuration)
    }

    @Test("the default store is in the user's cache folder")
    func defaultStore() {
        let url = FrequencyCap.defaultStoreURL
        #expect(url.path.hasSuffix("/swift-media-engine/preroll-frequency.json"))
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            #expect(url.path.hasPrefix(xdg))
        } else {
            #expect(url.path.hasPrefix(FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/"))
        }
        #expect(FrequencyCap(maximumAds: 1, per: .seconds(1)).storeURL == url)
    }

    /// A count shared by threads.
    final class Counter: Sendable {
        private let count = Locked(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}
