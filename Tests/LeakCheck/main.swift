// engine-leak-check: runs players through their whole life in a process of its own, so that
// file descriptors, threads and (under GST_TRACERS=leaks) GStreamer objects can be counted
// with nothing else running. The tests run it; `make leaks` runs it under the leaks tracer.
//
//   engine-leak-check cycles N FILE        prepare/play/swap/seek/stop N times with overlays and a
//                                          turned picture, then release players mid-play
//   engine-leak-check bad-inputs FILE...   prepare each file twice, expecting an error each time
//   engine-leak-check thumbnails N FILE    N rounds of thumbnail batches (exact, keyframe, one
//                                          cancelled midway, a player's synchronous and requested
//                                          ones, PNG and JPEG written), each generator shut down
//   engine-leak-check stress N SEED FILE...  N players at once, each driven by several tasks with
//                                          random commands (play, pause, seeks, rates, stops,
//                                          source changes), then released; every command must
//                                          complete or fail typed within a deadline
//
// Prints one JSON object per line: one per input or cycle, then a summary with the counts.
import FileSource
import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

func openDescriptors() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
}

/// Where each open descriptor points, for reports. A file removed while open reads as its
/// path with " (deleted)" after it: the suffix is left out, so that a descriptor open at both
/// ends (one this process inherited, whose file the parent removed meanwhile) compares equal.
func descriptorTargets() -> [String] {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.sorted().map { fd in
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "?"
        return target.hasSuffix(" (deleted)") ? String(target.dropLast(" (deleted)".count)) : target
    }
}

/// Descriptors open now that were not before, but for libdispatch's timer descriptors (a
/// pending `asyncAfter`, such as a preparation's 30-second timeout, holds one until it fires).
func newDescriptors(since before: [String]) -> [String] {
    var remaining = before
    return descriptorTargets().filter { target in
        if let index = remaining.firstIndex(of: target) {
            remaining.remove(at: index)
            return false
        }
        return target != "anon_inode:[timerfd]"
    }
}

func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Writes one JSON line, its keys in byte order. Not JSONSerialization's `.sortedKeys`: that
/// sorts with Foundation's locale-aware comparison, whose first use maps some 3 MB of ICU
/// collation data, which the soak then counted as the players' growth (its first progress line
/// comes after the resident size it starts from).
func emit(_ object: [String: Any]) {
    FileHandle.standardOutput.write(Data((jsonObject(object) + "\n").utf8))
}

/// An object of the tool's reports in JSON, its keys in byte order.
private func jsonObject(_ object: [String: Any]) -> String {
    let fields = object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
        "\(jsonString(key)):\(jsonValue(object[key]!))"
    }
    return "{" + fields.joined(separator: ",") + "}"
}

/// A value of the tool's reports in JSON: numbers, booleans, strings, lists and objects of them.
private func jsonValue(_ value: Any) -> String {
    switch value {
    case let value as Bool: value ? "true" : "false"
    case let value as any BinaryInteger: "\(value)"
    case let value as Double where value.isFinite: String(value)
    case let value as String: jsonString(value)
    case let values as [Any]: "[" + values.map(jsonValue).joined(separator: ",") + "]"
    case let object as [String: Any]: jsonObject(object)
    default: jsonString(String(describing: value))
    }
}

/// `text` as a JSON string: quotes, backslashes and control characters escaped.
private func jsonString(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped + "\""
}

struct LeakCheckError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func milliseconds(since start: ContinuousClock.Instant) -> Int {
    let elapsed = ContinuousClock.now - start
    return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
}

func waitForFinish(_ events: PlayerEvents) async -> (FinishReason, MediaError?)? {
    for await event in events {
        if case .playbackDidFinish(let reason, let error) = event { return (reason, error) }
    }
    return nil
}

/// Plays a file to the end with a player that is gone when this returns.
func playToEnd(_ file: String) async throws -> FinishReason {
    let player = MoviePlayer(source: FileSource(path: file), videoSink: NullVideoSink(synchronized: false))
    let events = player.events
    try await player.play()
    let (reason, _) = await waitForFinish(events) ?? (.playbackError, nil)
    await player.shutdown()
    return reason
}

/// One good preparation and playback, so GStreamer's plugin registry, thread pools and
/// caches exist before anything is counted.
func warmUp(_ file: String) async throws {
    try await playOnce(file)
    // The player, released when playOnce returned, finishes going on its own threads (its bus
    // among them, with its two descriptors): the counts taken next must not see it.
    guard await waitForReleasedPlayers() else { throw LeakCheckError("the warm-up player did not shut down") }
}

private func playOnce(_ file: String) async throws {
    let player = MoviePlayer(source: FileSource(path: file), videoSink: NullVideoSink(synchronized: false))
    try await player.play()
    await player.shutdown()
}

/// One player's life with every part of the video bin in use: overlays added (the scaler
/// composites) and one removed, a turned picture (the flip is linked in), a swap to another
/// output, a seek; then stopped, and released when this returns.
func oneCycle(_ cycle: Int, file: String) async throws {
    let player = MoviePlayer(source: FileSource(path: file), videoSink: FrameSink(synchronized: false))
    let text = player.overlays.add(try TextOverlay(text: "cycle \(cycle)"))
    player.overlays.add(
        try DrawingOverlay(size: VideoSize(width: 16, height: 16), redraw: .everyFrame) { canvas, _ in
            canvas.clear(to: .red)
        })
    player.videoOrientation = cycle % 2 == 0 ? .rotate90 : .automatic
    try await player.prepareToPlay()
    try await player.play()
    try await player.setVideoSink(FrameSink(format: .rgba, synchronized: false))
    try await player.pause()
    _ = player.overlays.remove(text)
    try await player.seek(to: .milliseconds(500))
    try await player.play()
    player.stop()
}

/// The resident memory in anonymous pages (the heap, malloc's arenas, stacks) and in pages of
/// files (libraries' code and data, as the process first touches them), from /proc/self/status.
func residentSplitKilobytes() -> (anonymous: Int, files: Int) {
    let data = FileHandle(forReadingAtPath: "/proc/self/status")?.readDataToEndOfFile() ?? Data()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    func field(_ name: String) -> Int {
        let line = lines.first { $0.hasPrefix(name + ":") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
            ?? 0
    }
    return (field("RssAnon"), field("RssFile"))
}

/// The process's resident memory, in kilobytes (`/proc/self/statm`).
func residentKilobytes() -> Int {
    let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024 : 0
}

/// Waits until the process has at most `count` threads, or `limit` has passed. A thread's end
/// sends no message that could be awaited (GLib's pool lets its idle ones go on their own, and
/// /proc is all that shows it), so the count is read again every 250 ms.
func waitForThreads(atMost count: Int, within limit: Duration) async {
    let deadline = ContinuousClock.now + limit
    while threadNames().count > count, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(250))
    }
}

/// The resident memory of live data: once the threads GLib keeps idle for a while have ended
/// (down to `threads`, or after 20 s) and malloc has given its free memory back
/// (`GStreamer.returnFreeMemory()`), so that what is compared is what the process still holds,
/// not how the allocator's per-thread arenas happen to be cached at that moment. Memory that
/// leaked is not free, and stays counted.
func settledResidentKilobytes(threads: Int) async -> Int {
    await waitForThreads(atMost: threads, within: .seconds(20))
    await GStreamer.returnFreeMemory()
    return residentKilobytes()
}

/// What glibc's `malloc_info` says of all its arenas: the bytes taken from the system, the
/// bytes in use (taken minus free), and how many free chunks lie between chunks in use. Growth
/// in use is live data (a leak raises it); more free chunks with the same use is fragmentation:
/// pages pinned by scattered small blocks, which `malloc_trim` cannot give back.
///
/// And the arenas' tops: the free memory at the end of each arena. `malloc_trim` gives back the
/// free pages between chunks in every arena, but the top only of the main one (glibc 2.36's
/// `mtrim`); another arena's top shrinks only when a free leaves it above malloc's trim threshold,
/// which follows the largest mapped block freed so far (twice its size). So up to that much per
/// arena stays resident, however the players that used it went: a band of several megabytes over
/// 16 arenas that lands anywhere from run to run, not growth.
struct MallocSummary {
    var systemKB = 0
    var inUseKB = 0
    var freeChunks = 0
    var topsKB = 0

    static func read() -> MallocSummary? {
        // glibc's malloc_info, which Swift's Glibc module does not declare.
        typealias Info = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        _ = unsafeBitCast(symbol, to: Info.self)(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return nil }
        let lines = String(cString: buffer).split(separator: "\n")
        func attribute(_ name: String, of line: Substring) -> Int? {
            guard let range = line.range(of: " " + name + "=\"") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        // Each arena: its free chunks by size (`<size>` for fast and regular bins, `<unsorted>`),
        // then the fast chunks' total and the rest's, which is the regular bins' and the top.
        // The document ends with the totals over every arena, after the last `</heap>`.
        var topsKB = 0
        var binned: Int?  // nil outside an arena
        for line in lines {
            if line.hasPrefix("<heap ") {
                binned = 0
            } else if line.hasPrefix("  <size ") || line.hasPrefix("  <unsorted ") {
                binned? += attribute("total", of: line) ?? 0
            } else if line.hasPrefix("<total type=\"fast\"") {
                binned? -= attribute("size", of: line) ?? 0  // listed with the sizes, not in the rest
            } else if line.hasPrefix("<total type=\"rest\""), let inArena = binned {
                topsKB += max((attribute("size", of: line) ?? 0) - inArena, 0) / 1024
                binned = nil
            }
        }
        // The last of each: the totals over every arena.
        func total(_ name: String, ofLast prefix: String) -> Int? {
            lines.last { $0.contains(prefix) }.flatMap { attribute(name, of: $0) }
        }
        guard let system = total("size", ofLast: "<system type=\"current\""),
            let rest = total("size", ofLast: "<total type=\"rest\""),
            let fast = total("size", ofLast: "<total type=\"fast\""),
            let chunks = total("count", ofLast: "<total type=\"rest\"")
        else { return nil }
        return MallocSummary(
            systemKB: system / 1024, inUseKB: (system - rest - fast) / 1024, freeChunks: chunks, topsKB: topsKB)
    }
}

/// Threads GStreamer and GLib may keep idle after the players are gone (GLib's thread pool keeps
/// two unused threads; GStreamer's task pool and the system clock's thread start on first use):
/// what ResourceTests allows over the starting count.
let allowedIdleThreads = 4

func cycles(_ count: Int, file: String) async throws {
    try await warmUp(file)
    let fdsBefore = openDescriptors()
    let namesBefore = threadNames()
    let threadsBefore = namesBefore.count
    for cycle in 0..<count {
        let start = ContinuousClock.now
        try await oneCycle(cycle, file: file)
        emit(["cycle": cycle, "ms": milliseconds(since: start)])
    }
    // Players released while playing, without stop().
    for _ in 0..<count {
        let player = MoviePlayer(source: FileSource(path: file), videoSink: FrameSink())
        try await player.play()
    }
    // A player can finish shutting down a moment after the last line that held it, on another thread.
    guard await waitForReleasedPlayers() else { throw LeakCheckError("a released player did not shut down") }
    // A joined streaming thread goes back to GLib's pool and ends there (past the pool's two
    // unused threads) when it next runs, which a busy machine can put off: up to 10 s for the
    // count to settle. A thread that leaked never does.
    await waitForThreads(atMost: threadsBefore + allowedIdleThreads, within: .seconds(10))
    let names = threadNames()
    emit([
        "summary": "cycles", "fdsBefore": fdsBefore, "fdsAfter": openDescriptors(), "threadsBefore": threadsBefore,
        "threadsAfter": names.count, "busThreads": names.filter { $0 == "me-bus" }.count,
        "threadNamesBefore": namesBefore.sorted(), "threadNamesAfter": names.sorted(),
    ])
}

/// `count` cycles (``oneCycle(_:file:)``) after `settle` of them, which fill the allocator's
/// arenas and GStreamer's caches: the resident memory, descriptors and threads at the start and at
/// the end, once every player is gone, and the resident memory every 50 cycles.
func soak(_ count: Int, settle: Int, file: String) async throws {
    try await warmUp(file)
    for cycle in 0..<settle { try await oneCycle(cycle, file: file) }
    guard await waitForReleasedPlayers() else { throw LeakCheckError("a released player did not shut down") }
    let fdsBefore = openDescriptors()
    let threadsBefore = threadNames().count
    let rssBefore = await settledResidentKilobytes(threads: threadsBefore)
    let splitBefore = residentSplitKilobytes()
    let mallocBefore = MallocSummary.read()
    let start = ContinuousClock.now
    var samples: [(cycle: Double, kilobytes: Double)] = []
    for cycle in 0..<count {
        try await oneCycle(cycle, file: file)
        if (cycle + 1) % 50 == 0 {
            // As a long-lived app would between its players: the engine leaves freed memory with
            // malloc until asked, and the samples are of what the process holds.
            await GStreamer.returnFreeMemory()
            let resident = residentKilobytes()
            samples.append((Double(cycle + 1), Double(resident)))
            emit(["cycle": cycle + 1, "residentKB": resident, "ms": milliseconds(since: start)])
        }
    }
    // The trend of the samples taken while players live (least squares, from the second on):
    // what a leak would raise cycle after cycle, apart from the level the first cycles reach.
    let trend = samples.dropFirst()
    let meanCycle = trend.map(\.cycle).reduce(0, +) / Double(max(trend.count, 1))
    let meanKB = trend.map(\.kilobytes).reduce(0, +) / Double(max(trend.count, 1))
    let covariance = trend.map { ($0.cycle - meanCycle) * ($0.kilobytes - meanKB) }.reduce(0, +)
    let variance = trend.map { ($0.cycle - meanCycle) * ($0.cycle - meanCycle) }.reduce(0, +)
    let trendKBPer1000 = variance > 0 ? Int((covariance / variance * 1000).rounded()) : 0
    guard await waitForReleasedPlayers() else { throw LeakCheckError("a released player did not shut down") }
    let fdsAfter = openDescriptors()
    let rssAfter = await settledResidentKilobytes(threads: threadsBefore)
    // Counted once GLib's idle threads have had their time to end (the settling above).
    let names = threadNames()
    let splitAfter = residentSplitKilobytes()
    let mallocAfter = MallocSummary.read()
    emit([
        "summary": "soak", "cycles": count, "residentKBBefore": rssBefore, "residentKBAfter": rssAfter,
        // Of the growth: anonymous memory (what a leak raises) and pages of libraries first touched.
        "anonymousGrowthKB": splitAfter.anonymous - splitBefore.anonymous,
        "fileGrowthKB": splitAfter.files - splitBefore.files,
        // Of the anonymous growth: malloc's live data, and its free chunks (fragmentation).
        "mallocInUseKBBefore": mallocBefore?.inUseKB ?? -1, "mallocInUseKBAfter": mallocAfter?.inUseKB ?? -1,
        "mallocFreeChunksBefore": mallocBefore?.freeChunks ?? -1,
        "mallocFreeChunksAfter": mallocAfter?.freeChunks ?? -1,
        // Of the anonymous growth: the arenas' tops, which malloc_trim leaves (MallocSummary).
        "mallocTopsKBBefore": mallocBefore?.topsKB ?? -1, "mallocTopsKBAfter": mallocAfter?.topsKB ?? -1,
        "growthKB": rssAfter - rssBefore, "growthBytesPerCycle": (rssAfter - rssBefore) * 1024 / max(count, 1),
        "trendKBPer1000Cycles": trendKBPer1000,
        "fdsBefore": fdsBefore, "fdsAfter": fdsAfter, "threadsBefore": threadsBefore,
        "threadsAfter": names.count, "busThreads": names.filter { $0 == "me-bus" }.count,
        "ms": milliseconds(since: start),
    ])
}

func badInputs(_ files: [String], good: String) async throws {
    try await warmUp(good)
    let fdsBefore = openDescriptors()
    let threadsBefore = threadNames().count
    for round in 0..<2 {
        for file in files {
            let start = ContinuousClock.now
            let player = MoviePlayer(source: FileSource(path: file), videoSink: NullVideoSink(), audioOutput: .discard)
            var code = "none"
            var finishCode = "none"
            let events = player.events
            let finish = Task { await waitForFinish(events) }
            do {
                try await player.prepareToPlay()
                try await player.play()
            } catch {
                code = error.code.name
            }
            if let (_, error) = await finish.value, let error { finishCode = error.code.name }
            emit([
                "file": file, "round": round, "code": code, "finishCode": finishCode, "ms": milliseconds(since: start),
            ])
        }
    }
    // The next good file plays (a player of its own, released before anything is counted).
    let reason = try await playToEnd(good)
    guard await waitForReleasedPlayers() else { throw LeakCheckError("a released player did not shut down") }
    let names = threadNames()
    emit([
        "summary": "bad-inputs", "goodFileAfterwards": reason.description, "fdsBefore": fdsBefore,
        "fdsAfter": openDescriptors(), "threadsBefore": threadsBefore, "threadsAfter": names.count,
        "busThreads": names.filter { $0 == "me-bus" }.count,
    ])
}

/// A small deterministic generator (SplitMix64), so a stress run can be repeated from its seed.
struct SplitMix: Sendable {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(bound))
    }
}

/// What one stress command did.
enum Outcome: String, Sendable {
    case completed, typedError, hung
}

/// Runs `command`, failing it as hung when it has not returned within `limit` (a hung command
/// is left running: the check reports it and goes on).
func bounded(_ limit: Duration, _ command: @escaping @Sendable () async throws(MediaError) -> Void) async -> Outcome {
    final class Once: Sendable {
        let continuation = Locked<CheckedContinuation<Outcome, Never>?>(nil)
        func resume(_ outcome: Outcome) {
            continuation.withLock { continuation in
                continuation?.resume(returning: outcome)
                continuation = nil
            }
        }
    }
    let once = Once()
    return await withCheckedContinuation { continuation in
        once.continuation.withLock { $0 = continuation }
        Task {
            do throws(MediaError) {
                try await command()
                once.resume(.completed)
            } catch {
                once.resume(.typedError)
            }
        }
        Task {
            try? await Task.sleep(for: limit)  // A deadline, not a wait for the engine.
            once.resume(.hung)
        }
    }
}

/// `count` players at once; each gets `tasks` tasks that give it random commands, then is
/// released, some while playing, some stopped, some shut down.
func stress(_ count: Int, seed: UInt64, files: [String]) async throws {
    try await warmUp(files[0])
    let descriptorsBefore = descriptorTargets()
    let fdsBefore = openDescriptors()
    let threadsBefore = threadNames().count
    let start = ContinuousClock.now
    let outcomes = await withTaskGroup(of: [Outcome].self) { group in
        for index in 0..<count {
            group.addTask {
                var random = SplitMix(state: seed &+ UInt64(index) &* 7919)
                let file = files[random.next(files.count)]
                let player = MoviePlayer(
                    source: FileSource(path: file),
                    videoSink: NullVideoSink(
                        synchronized: ProcessInfo.processInfo.environment["STRESS_SYNCHRONIZED"].map { $0 == "1" }
                            ?? (random.next(2) == 0)),
                    audioOutput: .discard)
                player.shouldAutoplay = random.next(2) == 0
                // STRESS_COMMANDS=1,2,5 narrows the commands drawn (to find which one misbehaves).
                let allowed =
                    ProcessInfo.processInfo.environment["STRESS_COMMANDS"]?.split(separator: ",").compactMap {
                        Int($0)
                    } ?? Array(0..<9)
                let commands = (0..<3).map { _ in (0..<8).map { _ in allowed[random.next(allowed.count)] } }
                let nextFile = files[random.next(files.count)]
                let outcomes = await withTaskGroup(of: [Outcome].self) { tasks in
                    for list in commands {
                        tasks.addTask {
                            var done: [Outcome] = []
                            for command in list {
                                let outcome =
                                    await bounded(
                                        .seconds(
                                            Int(ProcessInfo.processInfo.environment["STRESS_COMMAND_SECONDS"] ?? "")
                                                ?? 20)
                                    ) { () async throws(MediaError) in
                                        switch command {
                                        case 0: try await player.prepareToPlay()
                                        case 1: try await player.play()
                                        case 2: try await player.pause()
                                        case 3: try await player.seek(to: .milliseconds(100 * command), option: .exact)
                                        case 4: try await player.seek(to: .milliseconds(700), option: .nearestKeyFrame)
                                        case 5: try await player.setRate(command % 2 == 0 ? 2 : 0.5)
                                        case 6: player.stop()
                                        case 7: player.source = FileSource(path: nextFile)
                                        default: player.currentPlaybackTime = .milliseconds(300)
                                        }
                                    }
                                if outcome == .hung {
                                    emit([
                                        "hung": command, "player": index, "state": "\(player.playbackState)",
                                        "prepared": player.isPreparedToPlay, "diagnostics": player.diagnostics,
                                    ])
                                }
                                done.append(outcome)
                            }
                            return done
                        }
                    }
                    return await tasks.reduce(into: []) { $0 += $1 }
                }
                switch random.next(3) {
                case 0: await player.shutdown()
                case 1: player.stop()
                default: break  // released as it is, playing or not
                }
                return outcomes
            }
        }
        return await group.reduce(into: []) { $0 += $1 }
    }
    guard await waitForReleasedPlayers() else { throw LeakCheckError("a released player did not shut down") }
    // GStreamer's streaming threads go back to GLib's thread pool, where idle ones end after
    // 15 s: to see the thread count back at its start, wait that long (`make stress` does).
    if let settle = ProcessInfo.processInfo.environment["STRESS_SETTLE_SECONDS"].flatMap(Int.init) {
        try await Task.sleep(for: .seconds(settle))
    }
    let names = threadNames()
    emit([
        "summary": "stress", "players": count, "seed": seed, "ms": milliseconds(since: start),
        "completed": outcomes.filter { $0 == .completed }.count,
        "typedErrors": outcomes.filter { $0 == .typedError }.count, "hung": outcomes.filter { $0 == .hung }.count,
        "fdsBefore": fdsBefore, "fdsAfter": openDescriptors(), "threadsBefore": threadsBefore,
        "threadsAfter": names.count, "busThreads": names.filter { $0 == "me-bus" }.count,
        "playerThreads": names.filter { $0 == "me-player" }.count,
        "threadNames": Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +),
        "newDescriptors": newDescriptors(since: descriptorsBefore),
    ])
}

func thumbnails(_ count: Int, file: String) async throws {
    try await warmUp(file)
    let fdsBefore = openDescriptors()
    let targetsBefore = descriptorTargets()
    let threadsBefore = threadNames().count
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leak-check-thumbs-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for round in 0..<count {
        let start = ContinuousClock.now
        let generator = ThumbnailGenerator(
            source: FileSource(path: file), maximumSize: VideoSize(width: 160, height: 160))
        let times = (0..<10).map { Duration.milliseconds($0 * 190) }
        var images = 0
        var failures: [String] = []
        for option in [SeekOption.exact, .nearestKeyFrame] {
            for await result in generator.images(at: times, option: option) {
                if result.image != nil { images += 1 } else { failures.append("\(option) \(result)") }
            }
        }
        let cancelled = generator.images(at: times + times, option: .exact)
        var seen = 0
        for await _ in cancelled {
            seen += 1
            if seen == 3 { cancelled.cancel() }
        }
        let image = try await generator.image(at: .milliseconds(500))
        try image.write(to: folder.appendingPathComponent("t.png"))
        try image.write(to: folder.appendingPathComponent("t.jpg"))
        await generator.shutdown()
        let player = MoviePlayer(source: FileSource(path: file), videoSink: NullVideoSink())
        player.requestThumbnailImages(at: times, timeOption: .nearestKeyFrame)
        let synchronous = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: player.thumbnailImage(at: .zero, timeOption: .exact) != nil) }
                .start()
        }
        guard images == 20, seen == 20, synchronous else {
            throw LeakCheckError(
                "round \(round): \(images) images \(failures), \(seen) results, synchronous \(synchronous)")
        }
        emit(["round": round, "ms": milliseconds(since: start)])
    }
    // The player's generator is released with the player; its workers end on their own threads.
    guard await waitForReleasedPlayers() else { throw LeakCheckError("a released player did not shut down") }
    VideoImage.releaseEncoders()  // kept between encodings by design
    var names = threadNames()
    for _ in 0..<100 where names.contains("me-thumbs") {
        try await Task.sleep(for: .milliseconds(50))
        names = threadNames()
    }
    emit([
        "summary": "thumbnails", "fdsBefore": fdsBefore, "fdsAfter": openDescriptors(),
        "threadsBefore": threadsBefore, "threadsAfter": names.count,
        "thumbnailThreads": names.filter { $0 == "me-thumbs" }.count,
        "newDescriptors": newDescriptors(since: targetsBefore),
    ])
}

/// Released players tear down on their own threads a moment later; wait for them before
/// counting, on a thread of this check's own (the wait blocks).
func waitForReleasedPlayers() async -> Bool {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: GStreamer.waitForPlayersToShutDown()) }.start()
    }
}

/// At the very end, on the main thread (top-level code), where blocking holds up nothing else.
func deinitialize() {
    GStreamer.deinitializeForLeakCheck()
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "cycles" where arguments.count == 3:
        try await cycles(Int(arguments[1]) ?? 3, file: arguments[2])
    case "bad-inputs" where arguments.count >= 3:
        try await badInputs(Array(arguments.dropFirst(2)), good: arguments[1])
    case "thumbnails" where arguments.count == 3:
        try await thumbnails(Int(arguments[1]) ?? 3, file: arguments[2])
    case "soak" where arguments.count == 4:
        try await soak(Int(arguments[1]) ?? 500, settle: Int(arguments[2]) ?? 20, file: arguments[3])
    case "stress" where arguments.count >= 4:
        try await stress(Int(arguments[1]) ?? 50, seed: UInt64(arguments[2]) ?? 1, files: Array(arguments.dropFirst(3)))
    default:
        FileHandle.standardError.write(
            Data(
                "usage: engine-leak-check cycles N FILE | soak N SETTLE FILE | bad-inputs GOODFILE BADFILE... | thumbnails N FILE | stress N SEED FILE...\n"
                    .utf8
            ))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("engine-leak-check: \(error)\n".utf8))
    exit(1)
}
deinitialize()
