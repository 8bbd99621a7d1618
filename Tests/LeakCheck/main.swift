// engine-leak-check: runs players through their whole life in a process of its own, so that
// file descriptors, threads and (under GST_TRACERS=leaks) GStreamer objects can be counted
// with nothing else running. The tests run it; `make leaks` runs it under the leaks tracer.
//
//   engine-leak-check cycles N FILE        prepare/play/swap/seek/stop N times with overlays and a
//                                          turned picture, then release players mid-play
//   engine-leak-check bad-inputs FILE...   prepare each file twice, expecting an error each time
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

func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
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
    let player = MoviePlayer(source: FileSource(path: file), videoSink: NullVideoSink(synchronized: false))
    try await player.play()
    await player.shutdown()
}

func cycles(_ count: Int, file: String) async throws {
    try await warmUp(file)
    let fdsBefore = openDescriptors()
    let threadsBefore = threadNames().count
    for cycle in 0..<count {
        let start = ContinuousClock.now
        let player = MoviePlayer(source: FileSource(path: file), videoSink: FrameSink(synchronized: false))
        // Every part of the video bin in use: overlays (the scaler composites), a turned
        // picture (the flip is linked in), a swap to another output.
        player.overlays.add(try TextOverlay(text: "cycle \(cycle)"))
        player.overlays.add(
            try DrawingOverlay(size: VideoSize(width: 16, height: 16), redraw: .everyFrame) { canvas, _ in
                canvas.clear(to: .red)
            })
        player.videoOrientation = cycle % 2 == 0 ? .rotate90 : .automatic
        try await player.prepareToPlay()
        try await player.play()
        try await player.setVideoSink(FrameSink(format: .rgba, synchronized: false))
        try await player.pause()
        try await player.seek(to: .milliseconds(500))
        try await player.play()
        player.stop()
        emit(["cycle": cycle, "ms": milliseconds(since: start)])
    }
    // Players released while playing, without stop().
    for _ in 0..<count {
        let player = MoviePlayer(source: FileSource(path: file), videoSink: FrameSink())
        try await player.play()
    }
    // A player can finish shutting down a moment after the last line that held it, on another thread.
    guard await waitForReleasedPlayers() else { throw LeakCheckError("a released player did not shut down") }
    let names = threadNames()
    emit([
        "summary": "cycles", "fdsBefore": fdsBefore, "fdsAfter": openDescriptors(), "threadsBefore": threadsBefore,
        "threadsAfter": names.count, "busThreads": names.filter { $0 == "me-bus" }.count,
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
    default:
        FileHandle.standardError.write(
            Data("usage: engine-leak-check cycles N FILE | bad-inputs GOODFILE BADFILE...\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("engine-leak-check: \(error)\n".utf8))
    exit(1)
}
deinitialize()
