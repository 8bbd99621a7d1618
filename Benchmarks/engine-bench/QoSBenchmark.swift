import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `qos`: a board too slow for its video, in two parts.
///
/// **Decoders.** The 1080p H.264 movie (B-frames, 30 fps) plays to a display-like sink
/// (`fakesink sync=true qos=true max-lateness=20ms`: a picture later than that is not shown) with
/// the decoder kept to a fraction of one core: the whole pipeline pinned to core 1 in a CPU
/// cgroup allowed a seventh of it (the edge where a decoder just keeps up on this box) and a tenth
/// (where neither does), as the players below (``CPUQuota``; where no cgroup can be made, at nice
/// 8 and nice 10 beside a busy loop on the same core, a share that moves with the machine's other
/// load). The engine's decoder (`meh264dec`, from the build's
/// `libgstmediaengine.so`) and `avdec_h264` run the same gst-launch-1.0 line, turn about, in the
/// same run. Pictures shown (of 300), medians; ratio = ours / avdec_h264's, 1 or more meets the
/// goal. (No queue in that line: the sink's wait for each picture's time holds up the decoder.)
///
/// **Players.** The engine (`MoviePlayer` with a frames sink) against a bare playbin, on the same
/// movie with sound, each in a process of its own given a seventh and a tenth of core 1 by a CPU
/// cgroup's quota (``QoSPlayback``, ``CPUQuota``): pictures shown, and the sound's buffers that
/// came more than 10 ms late and 190 ms late (gaps a sound card would play), medians.
enum QoSBenchmark {
    static let rounds = 3
    static let core = "1"
    /// The shares of the core: a cgroup quota (microseconds of every 10 ms), or where no cgroup
    /// can be made the niceness that leaves about as much beside a busy loop.
    static let shares: [(quota: Int, niceness: String, name: String)] = [
        (1429, "8", "seventh-core-shown"), (1000, "10", "tenth-core-shown"),
    ]

    static func run() async throws -> [Measurement] {
        let pluginFolder = try Self.pluginFolder()
        return try decoders(pluginFolder: pluginFolder) + players()
    }

    /// The decoders, `meh264dec` against `avdec_h264`, in a gst-launch-1.0 line each, pinned to
    /// the core in a CPU cgroup allowed a seventh and a tenth of it (``CPUQuota``), as the players
    /// below; where no cgroup can be made, by niceness beside a busy loop (the metric is then named
    /// `decoder-nice-*`: that share moved with the rest of the machine's load, from 238 against
    /// 290 pictures in one run to 10 against 4 in the next).
    static func decoders(pluginFolder: URL) throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHD()
        let registry = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bench-qos-registry.bin")
        defer { try? FileManager.default.removeItem(at: registry) }
        // The registry scan happens once, before anything is measured.
        _ = try shown(movie, decoder: "meh264dec", plugins: pluginFolder, registry: registry, starvation: .none)
        var results: [Measurement] = []
        for share in shares {
            try Self.starved(share) { starvation in
                var ours: [Double] = []
                var peer: [Double] = []
                for _ in 0..<rounds {
                    ours.append(
                        Double(
                            try shown(
                                movie, decoder: "meh264dec", plugins: pluginFolder, registry: registry,
                                starvation: starvation)))
                    peer.append(
                        Double(
                            try shown(
                                movie, decoder: "avdec_h264", plugins: pluginFolder, registry: registry,
                                starvation: starvation)))
                }
                FileHandle.standardError.write(
                    Data("qos decoders \(share.name): meh264dec \(ours), avdec_h264 \(peer)\n".utf8))
                let value = ours.median
                let baseline = peer.median
                let name = (starvation.isQuota ? "decoder-quota-" : "decoder-nice-") + share.name
                results.append(Measurement("qos", name, value, "frames", baseline: baseline, ratio: value / baseline))
            }
        }
        return results
    }

    /// Runs `body` with the core starved to `share`: in a CPU cgroup of that quota, or where none
    /// can be made, at the share's niceness beside a busy loop; removes the group, or kills the
    /// loop, after.
    static func starved(
        _ share: (quota: Int, niceness: String, name: String), _ body: (QoSPlayback.Starvation) throws -> Void
    )
        throws
    {
        if let group = CPUQuota(quota: share.quota) {
            defer { group.remove() }
            try body(.quota(group))
            return
        }
        let busy = try Self.busyLoop()
        defer {
            // SIGKILL: a shell started by Process may not act on SIGTERM (seen here: the loops of
            // earlier runs were still busy long after their terminate()).
            kill(busy.processIdentifier, SIGKILL)
            busy.waitUntilExit()
        }
        try body(.niceness(share.niceness))
    }

    /// The players, starved: the engine (`MoviePlayer`) against a bare playbin, on the 1080p movie
    /// with sound (``QoSPlayback``), turn about, each pinned to the core in a CPU cgroup allowed a
    /// seventh and a tenth of it (``CPUQuota``; where no cgroup can be made, by niceness beside a
    /// busy loop, as the decoders above). Pictures shown (of 300), sound buffers (of 469) more
    /// than 10 ms and more than 190 ms late, and the worst lateness, medians.
    static func players() throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHDWithSound()
        // Unstarved first: caches filled, and a check that both play the whole movie.
        _ = try QoSPlayback.run(kind: "engine", movie: movie, core: core, starvation: .none)
        _ = try QoSPlayback.run(kind: "playbin", movie: movie, core: core, starvation: .none)
        var results: [Measurement] = []
        for share in shares {
            try Self.starved(share) { starvation in
                var ours: [QoSPlayback.Result] = []
                var peer: [QoSPlayback.Result] = []
                for _ in 0..<rounds {
                    ours.append(try QoSPlayback.run(kind: "engine", movie: movie, core: core, starvation: starvation))
                    peer.append(try QoSPlayback.run(kind: "playbin", movie: movie, core: core, starvation: starvation))
                }
                let name = (starvation.isQuota ? "player-quota-" : "player-nice-") + share.name
                let shown = ours.map { Double($0.shown) }.median
                let peerShown = peer.map { Double($0.shown) }.median
                results.append(Measurement("qos", name, shown, "frames", baseline: peerShown, ratio: shown / peerShown))
                results.append(
                    Measurement(
                        "qos", name.replacingOccurrences(of: "-shown", with: "-audio-late"),
                        ours.map { Double($0.audioLate) }.median, "buffers",
                        baseline: peer.map { Double($0.audioLate) }.median, ratio: nil))
                results.append(
                    Measurement(
                        "qos", name.replacingOccurrences(of: "-shown", with: "-audio-gaps"),
                        ours.map { Double($0.audioGaps) }.median, "buffers",
                        baseline: peer.map { Double($0.audioGaps) }.median, ratio: nil))
                results.append(
                    Measurement(
                        "qos", name.replacingOccurrences(of: "-shown", with: "-worst-audio-late"),
                        ours.map { $0.worstAudioLateness.milliseconds }.median, "ms",
                        baseline: peer.map { $0.worstAudioLateness.milliseconds }.median, ratio: nil))
                for (kind, runs) in [("engine", ours), ("playbin", peer)] {
                    let each = runs.map {
                        "\($0.shown) shown, \($0.audioLate)/\($0.audioBuffers) late, \($0.audioGaps) gaps, "
                            + "worst \(Int($0.worstAudioLateness.milliseconds)) ms"
                    }
                    FileHandle.standardError.write(Data("qos \(name) \(kind): \(each.joined(separator: "; "))\n".utf8))
                }
            }
        }
        return results
    }

    /// The folder of the loadable plugin beside this executable (`swift build -c release` builds it).
    static func pluginFolder() throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("libgstmediaengine.so").path) else {
            throw BenchmarkError(
                "no libgstmediaengine.so in \(folder.path): build it first (swift build -c release --product gstmediaengine)"
            )
        }
        return folder
    }

    /// A busy loop at normal priority on the pipeline's core, until terminated.
    static func busyLoop() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["taskset", "-c", core, "sh", "-c", "while :; do :; done"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// How many pictures the sink showed: fakesink's `last-message` says "chain" for each picture
    /// it rendered, never for one it dropped as too late.
    static func shown(
        _ movie: URL, decoder: String, plugins: URL, registry: URL, starvation: QoSPlayback.Starvation
    ) throws -> Int {
        let line = [
            "gst-launch-1.0", "--gst-plugin-path=\(plugins.path)", "-v", "filesrc", "location=\(movie.path)", "!",
            "qtdemux", "!", "h264parse", "!", decoder, "!", "fakesink", "sync=true", "qos=true",
            "max-lateness=20000000", "silent=false",
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = starvation.command(line, core: core)
        var environment = ProcessInfo.processInfo.environment
        environment["GST_REGISTRY"] = registry.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("gst-launch-1.0 with \(decoder) failed (\(process.terminationStatus))")
        }
        return text.split(separator: "\n").filter { $0.contains("last-message = chain") }.count
    }
}
