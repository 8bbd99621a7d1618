import Foundation

/// `qos`: a board too slow for its video. The 1080p H.264 movie (B-frames, 30 fps) plays to a
/// display-like sink (`fakesink sync=true qos=true max-lateness=20ms`: a picture later than that
/// is not shown) with the decoder kept to a fraction of one core: the whole pipeline pinned to
/// core 1 at nice 8 beside a busy loop at nice 0 on the same core, which leaves it about a seventh
/// of it (CFS weights 172 and 1024), where neither decoder keeps up with every picture. The engine's decoder (`meh264dec`, from the build's
/// `libgstmediaengine.so`) and `avdec_h264` run the same gst-launch-1.0 line, turn about, in
/// the same run. Pictures shown (of 300); ratio = ours / avdec_h264's, 1 or more meets the goal.
enum QoSBenchmark {
    static let rounds = 3
    static let core = "1"
    static let niceness = "8"

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHD()
        let pluginFolder = try Self.pluginFolder()
        let registry = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bench-qos-registry.bin")
        defer { try? FileManager.default.removeItem(at: registry) }
        // The registry scan happens once, before anything is measured.
        _ = try shown(movie, decoder: "meh264dec", plugins: pluginFolder, registry: registry, limited: false)
        let busy = try Self.busyLoop()
        defer { busy.terminate() }
        var ours: [Double] = []
        var peer: [Double] = []
        for _ in 0..<rounds {
            ours.append(Double(try shown(movie, decoder: "meh264dec", plugins: pluginFolder, registry: registry)))
            peer.append(Double(try shown(movie, decoder: "avdec_h264", plugins: pluginFolder, registry: registry)))
        }
        let value = ours.median
        let baseline = peer.median
        return [
            Measurement("qos", "1080p-seventh-core-shown", value, "frames", baseline: baseline, ratio: value / baseline)
        ]
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
    static func shown(_ movie: URL, decoder: String, plugins: URL, registry: URL, limited: Bool = true) throws -> Int {
        let line = [
            "gst-launch-1.0", "--gst-plugin-path=\(plugins.path)", "-v", "filesrc", "location=\(movie.path)", "!",
            "qtdemux", "!", "h264parse", "!", decoder, "!", "fakesink", "sync=true", "qos=true",
            "max-lateness=20000000", "silent=false",
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = limited ? ["taskset", "-c", core, "nice", "-n", niceness] + line : line
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
