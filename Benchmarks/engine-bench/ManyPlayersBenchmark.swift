import FileSource
import Foundation
@_spi(Benchmarks) import MediaEngineCore
import Synchronization

/// `many-players`: many players in one process.
///
/// - Throughput: 16 players at once, each a 10-second 720p movie with sound (H.264, AAC) played
///   flat out into an unsynchronized frames sink with the default audio output; the frames all
///   of them delivered per second of wall clock, against 16 `gst-launch-1.0 playbin` processes
///   with unsynchronized fakesinks for video and audio, run at once on the same file. Engine and
///   peer alternate, two rounds each; ratio = engine / peer on the better round of each (goal
///   >= 1.2x).
/// - Memory: 64 players prepared and paused on the 2-second 720p movie with sound, each with a
///   frames sink, in a fresh process of this benchmark; the growth of resident memory per
///   player, against 64 bare playbins (fakesinks) paused on the same file in another fresh
///   process. Ratio = playbin / engine (goal >= 1.0: a player holds no more than playbin does).
enum ManyPlayersBenchmark {
    static let players = 16
    static let pausedPlayers = 64
    static let frames = 300

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.hd720Long()
        var engine: [Double] = []
        var peer: [Double] = []
        for _ in 0..<2 {
            engine.append(try await engineThroughput(movie))
            peer.append(try peerThroughput(movie))
        }
        let paused = try BenchmarkMedia.hd720()
        let enginePerPlayer = try childResidentGrowth("engine", movie: paused) / Double(pausedPlayers)
        let playbinPerPlayer = try childResidentGrowth("playbin", movie: paused) / Double(pausedPlayers)
        let best = engine.max()!
        let bestPeer = peer.max()!
        return [
            Measurement("many", "16-players-fps", best, "fps", baseline: bestPeer, ratio: best / bestPeer),
            Measurement(
                "many", "64-paused-MB-per-player", enginePerPlayer / 1024, "MB", baseline: playbinPerPlayer / 1024,
                ratio: playbinPerPlayer / enginePerPlayer),
        ]
    }

    /// Frames delivered by all the players.
    final class FrameCounter: Sendable {
        let count = Atomic<Int>(0)
    }

    /// 16 players at once, flat out: frames per second, all players together.
    static func engineThroughput(_ movie: URL) async throws -> Double {
        let delivered = FrameCounter()
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<players {
                group.addTask {
                    let sink = FrameSink(synchronized: false) { _ in
                        delivered.count.add(1, ordering: .relaxed)
                    }
                    let player = MoviePlayer(source: FileSource(url: movie), videoSink: sink)
                    let events = player.events
                    try await player.play()
                    for await event in events {
                        if case .playbackDidFinish(let reason, let error) = event {
                            if let error { throw BenchmarkError("a player finished with \(reason): \(error)") }
                            break
                        }
                    }
                    await player.shutdown()
                }
            }
            try await group.waitForAll()
        }
        let elapsed = (clock.now - start).seconds
        let count = delivered.count.load(ordering: .relaxed)
        guard count == players * frames else {
            throw BenchmarkError("the players delivered \(count) frames, not \(players * frames)")
        }
        return Double(count) / elapsed
    }

    /// 16 `gst-launch-1.0 playbin` processes at once, unsynchronized fakesinks: frames per second.
    static func peerThroughput(_ movie: URL) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let processes = try (0..<players).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "gst-launch-1.0", "-q", "playbin", "uri=\(movie.absoluteString)", "video-sink=fakesink sync=false",
                "audio-sink=fakesink sync=false",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkError("gst-launch-1.0 playbin failed") }
        }
        return Double(players * frames) / (clock.now - start).seconds
    }

    /// Runs this benchmark again as `--child KIND FILE` and reads the resident memory its paused
    /// players (or playbins) added, in KB.
    static func childResidentGrowth(_ kind: String, movie: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--child", kind, movie.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            let kilobytes = Double(text)
        else { throw BenchmarkError("the \(kind) child failed (\(process.terminationStatus))") }
        return kilobytes
    }

    /// The child: one of `kind` prepared first (plugins loaded, caches filled), then 64 more,
    /// paused; prints the growth of resident memory in KB.
    static func child(kind: String, file: String) async throws {
        let url = URL(fileURLWithPath: file)
        var players: [MoviePlayer] = []
        var playbins: [PlaybinBaseline.Paused] = []
        func addOne() async throws {
            if kind == "engine" {
                let player = MoviePlayer(source: FileSource(url: url), videoSink: FrameSink { _ in })
                player.shouldAutoplay = false
                try await player.prepareToPlay()
                players.append(player)
            } else {
                playbins.append(try PlaybinBaseline.Paused(uri: url.absoluteString))
            }
        }
        try await addOne()
        try await Task.sleep(for: .milliseconds(500))
        let before = residentKilobytes()
        for _ in 0..<pausedPlayers { try await addOne() }
        try await Task.sleep(for: .milliseconds(500))
        print(residentKilobytes() - before)
        for player in players { await player.shutdown() }
        playbins.removeAll()
    }

    /// This process's resident memory, in KB.
    static func residentKilobytes() -> Int {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024 : 0
    }
}
