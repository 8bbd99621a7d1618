// engine-bench: the engine's speed figures, each measured against a plain peer in the same run.
//
//   engine-bench [--only NAME]... [--json]
//
// Benchmarks: decode, ttff, seek, loop-gap, rgba, swap, overlays, controls, teardown, thumbnails, stalls, network, preroll, queue-gap, many-players, qos, sync (run alone: it needs engine-sync-member built beside it). With --json, one object per line:
// {"benchmark": NAME, "metric": STRING, "value": NUMBER, "unit": STRING, "baseline": NUMBER|null, "ratio": NUMBER|null}
// where ratio > 1 means the engine is faster than its peer. Build with -c release.
import Foundation
import MediaEngine

let benchmarks: [(name: String, run: () async throws -> [Measurement])] = [
    ("decode", DecodeBenchmark.run),
    ("ttff", TimeToFirstFrameBenchmark.run),
    ("seek", SeekBenchmark.run),
    ("loop-gap", LoopGapBenchmark.run),
    ("rgba", RGBABenchmark.run),
    ("swap", SwapBenchmark.run),
    ("overlays", OverlaysBenchmark.run),
    ("controls", ControlsBenchmark.run),
    ("teardown", TeardownBenchmark.run),
    ("thumbnails", ThumbnailsBenchmark.run),
    ("stalls", StallsBenchmark.run),
    ("network", NetworkStartBenchmark.run),
    ("preroll", PrerollBenchmark.run),
    ("queue-gap", QueueGapBenchmark.run),
    ("many-players", ManyPlayersBenchmark.run),
    ("qos", QoSBenchmark.run),
    ("sync", SyncBenchmark.run),
]

// many-players measures memory in fresh processes of its own: `--child engine|playbin FILE`.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--child" {
    do {
        try await ManyPlayersBenchmark.child(kind: CommandLine.arguments[2], file: CommandLine.arguments[3])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("engine-bench: child failed: \(error)\n".utf8))
        exit(1)
    }
}

// qos plays each player in a process of its own, starved alone: `--qos-child engine|playbin FILE`.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--qos-child" {
    do {
        try await QoSPlayback.child(kind: CommandLine.arguments[2], file: CommandLine.arguments[3])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("engine-bench: qos child failed: \(error)\n".utf8))
        exit(1)
    }
}

var only: Set<String> = []
var json = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--json": json = true
    case "--only":
        guard let name = arguments.next(), benchmarks.contains(where: { $0.name == name }) else {
            let names = benchmarks.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("engine-bench: --only takes one of: \(names)\n".utf8))
            exit(2)
        }
        only.insert(name)
    default:
        FileHandle.standardError.write(Data("usage: engine-bench [--only NAME]... [--json]\n".utf8))
        exit(2)
    }
}

#if DEBUG
    FileHandle.standardError.write(
        Data("engine-bench: this is a debug build; figures only count from -c release\n".utf8))
#endif

if !json { print("engine-bench on \(GStreamer.version), \(ProcessInfo.processInfo.activeProcessorCount) cores") }
var failed = false
for benchmark in benchmarks where only.isEmpty || only.contains(benchmark.name) {
    do {
        for measurement in try await benchmark.run() {
            print(json ? measurement.json : measurement.line)
        }
    } catch {
        FileHandle.standardError.write(Data("engine-bench: \(benchmark.name) failed: \(error)\n".utf8))
        failed = true
    }
}
exit(failed ? 1 : 0)
