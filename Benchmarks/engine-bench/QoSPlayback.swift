import FileSource
import Foundation
import MediaEngine
@_spi(Benchmarks) import MediaEngineCore

#if canImport(Glibc)
    import Glibc
#endif

/// One player of the `qos` benchmark, in a process of its own (`engine-bench --qos-child KIND
/// FILE`) so that `taskset` and `nice` starve it alone: the engine (`MoviePlayer`, its own
/// decoder and output, an I420 frames sink that drops late frames) or a bare playbin
/// (`avdec_h264`, `fakesink sync=true qos=true max-lateness=20000000`, the engine's own late
/// limit). Both send their sound to `fakesink name=qos-audio sync=true`.
///
/// What is counted:
/// - **Pictures shown**: the frames the engine's sink delivered; the pictures playbin's sink
///   rendered (its `stats`). Both sinks drop a picture more than 20 ms late (except one a
///   second, which `GstBaseSink` renders anyway).
/// - **Sound**: the audio sink's lateness, read from GStreamer's own log (`GST_DEBUG=basesink:5`,
///   the line `clock returned N, jitter J` that `gst_base_sink_do_sync` writes for each buffer,
///   for the element named `qos-audio`). The fakesink renders each buffer at its time, with
///   nothing written ahead, so its lateness is how late the sound's threads got the CPU. Two
///   counts: buffers **late** by more than 10 ms (one segment of `GstAudioBaseSink`'s ring buffer
///   at its default `latency-time`: a glitch for a sink that writes nothing ahead), and **gaps**,
///   buffers late by more than 190 ms, where the ring buffer of an audio sink at its defaults
///   (`buffer-time` 200 ms, `latency-time` 10 ms; pulsesink's, alsasink's) would have run dry and
///   played silence; and the worst lateness. The log costs both players the same. The end of
///   stream's wait, which the sink logs the same way, is not a sound buffer and is not counted.
enum QoSPlayback {
    /// The audio lateness counted as late, in nanoseconds: a ring buffer segment.
    static let lateLimit: Int64 = 10_000_000
    /// The audio lateness counted as a gap, in nanoseconds: a default ring buffer's 200 ms less
    /// the segment being played.
    static let gapLimit: Int64 = 190_000_000

    struct Result {
        var shown: Int
        var audioBuffers: Int
        var audioLate: Int
        var audioGaps: Int
        var worstAudioLateness: Duration
    }

    /// The child: plays `file` to its end with `kind`'s player, prints the pictures shown.
    static func child(kind: String, file: String) async throws {
        let url = URL(fileURLWithPath: file)
        let audio = "fakesink name=qos-audio sync=true"
        if kind == "engine" {
            let sink = FrameSink(format: .i420, synchronized: true)
            let player = MoviePlayer(
                source: FileSource(url: url), videoSink: sink,
                audioOutput: .element(
                    ElementDescription(factory: "fakesink", properties: ["name": "qos-audio", "sync": true])))
            let events = player.events
            try await player.play()
            for await event in events {
                guard case .playbackDidFinish(let reason, let error) = event else { continue }
                guard reason == .playbackEnded else {
                    throw BenchmarkError("the engine did not play to the end: \(String(describing: error))")
                }
                break
            }
            await player.shutdown()
            print(sink.framesDelivered)
        } else {
            let playback = try PlaybinBaseline.play(
                uri: url.absoluteString, videoSink: "fakesink sync=true qos=true max-lateness=20000000",
                audioSink: audio, timeout: .seconds(300))
            print(playback.rendered)
        }
    }

    /// How a child is starved.
    enum Starvation {
        /// Not at all.
        case none
        /// Pinned to the core at this niceness, beside the benchmark's busy loop.
        case niceness(String)
        /// Pinned to the core, in a CPU cgroup allowed this many microseconds of every 10 ms
        /// (``CPUQuota``).
        case quota(CPUQuota)

        /// Whether the share is a cgroup's quota.
        var isQuota: Bool {
            if case .quota = self { true } else { false }
        }

        /// `command`, run starved this way on `core`.
        func command(_ command: [String], core: String) -> [String] {
            switch self {
            case .none: command
            case .niceness(let niceness): ["taskset", "-c", core, "nice", "-n", niceness] + command
            case .quota(let quota): quota.command(["taskset", "-c", core] + command)
            }
        }
    }

    /// Runs one child of `kind` on `movie`, starved as `starvation` says on `core`, and reads
    /// what it showed and how its sound went.
    static func run(kind: String, movie: URL, core: String, starvation: Starvation) throws -> Result {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bench-qos-\(kind).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let child = [CommandLine.arguments[0], "--qos-child", kind, movie.path]
        process.arguments = starvation.command(child, core: core)
        var environment = ProcessInfo.processInfo.environment
        environment["GST_DEBUG"] = "basesink:5"
        environment["GST_DEBUG_NO_COLOR"] = "1"
        environment["GST_DEBUG_FILE"] = log.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let shown = Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "")
        else { throw BenchmarkError("the \(kind) qos child failed (\(process.terminationStatus))") }
        var result = Result(shown: shown, audioBuffers: 0, audioLate: 0, audioGaps: 0, worstAudioLateness: .zero)
        let logText = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // Each `clock returned` line follows the `got times` line of what it waited for: the
        // end of stream has no end time (`stop: 99:99:99.999999999`). Its wait is not sound (the
        // stream synchronizer holds it until the video ends too: 0.6 s after the last sound
        // buffer for the engine, 6 s for playbin at a tenth) and is not counted.
        var waitingForEndOfStream = false
        for line in logText.split(separator: "\n") where line.contains("<qos-audio>") {
            if line.contains("gst_base_sink_get_sync_times"), let stop = line.range(of: "stop: ") {
                waitingForEndOfStream = line[stop.upperBound...].hasPrefix("99:99:99")
                continue
            }
            guard !waitingForEndOfStream, let lateness = jitter(in: line) else { continue }
            result.audioBuffers += 1
            if lateness > lateLimit { result.audioLate += 1 }
            if lateness > gapLimit { result.audioGaps += 1 }
            result.worstAudioLateness = max(result.worstAudioLateness, .nanoseconds(max(lateness, 0)))
        }
        return result
    }

    /// The jitter of a `clock returned N, jitter [-| ]H:MM:SS.NNNNNNNNN` line, in nanoseconds
    /// (positive: late).
    static func jitter(in line: Substring) -> Int64? {
        guard let marker = line.range(of: "clock returned ") else { return nil }
        let rest = line[marker.upperBound...]
        guard let comma = rest.range(of: ", jitter ") else { return nil }
        let value = rest[comma.upperBound...]
        guard let sign = value.first else { return nil }
        let fields = value.dropFirst().split(whereSeparator: { $0 == ":" || $0 == "." })
        guard fields.count == 4, let hours = Int64(fields[0]), let minutes = Int64(fields[1]),
            let seconds = Int64(fields[2]), let nanoseconds = Int64(fields[3].prefix(9))
        else { return nil }
        let magnitude = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000 + nanoseconds
        return sign == "-" ? -magnitude : magnitude
    }
}

/// A CPU cgroup (version 1's `cpu` controller, under `/sys/fs/cgroup/cpu`) whose processes get at
/// most `quota` microseconds of CPU time in every 10 ms period (`cpu.cfs_quota_us`,
/// `cpu.cfs_period_us`): a fraction of a core that does not depend on what else the machine runs,
/// as a niceness beside a busy loop does (measured here: "a tenth" by niceness gave a child 12-17 %
/// of the core, by the load of other processes). A short period keeps the starvation even: the
/// process runs at most 1 ms in 10, never 10 ms then 90 ms not at all.
struct CPUQuota {
    let directory: URL
    let quota: Int
    static let period = 10_000

    /// Makes the group, or returns nil where this process may not (no cgroup v1 `cpu`, not root).
    init?(quota: Int) {
        let directory = URL(fileURLWithPath: "/sys/fs/cgroup/cpu/engine-bench-qos-\(getpid())-\(quota)")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)) != nil
        else { return nil }
        self.directory = directory
        self.quota = quota
        do {
            try "\(Self.period)".write(
                to: directory.appendingPathComponent("cpu.cfs_period_us"), atomically: false, encoding: .utf8)
            try "\(quota)".write(
                to: directory.appendingPathComponent("cpu.cfs_quota_us"), atomically: false, encoding: .utf8)
        } catch {
            remove()
            return nil
        }
    }

    /// `command`, run inside the group: a shell that moves itself in, then becomes the command.
    func command(_ command: [String]) -> [String] {
        let procs = directory.appendingPathComponent("cgroup.procs").path
        return ["sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", procs] + command
    }

    /// Removes the group (empty once its processes ended).
    func remove() {
        rmdir(directory.path)
    }
}
