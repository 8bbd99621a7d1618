// {movie} ! playbin ! {frames: RGBA 32x18} -> one column of average colour per frame -> barcode PNG
//
// A complete video-sink plugin, written only against MediaEngineCore's public API and loaded at run
// time: `mediaplay --plugin-dir DIR --sink barcode:file=OUT.png MOVIE` writes the movie's
// "barcode", one column per frame in the frame's average colour, when the movie ends.
// Build it into DIR with `Examples/custom-sink/build-plugin.sh DIR` (see README.md).
import Foundation
import MediaEngineCore
import Synchronization

/// The sink: frames (RGBA, scaled down by the engine, so averaging costs little) are averaged
/// as they come; at the end of the movie the columns are written as a PNG.
final class BarcodeSink: VideoSink {
    /// Where the PNG goes.
    let file: URL
    /// How tall the barcode is, in pixels.
    let height: Int
    private let columns = Columns()

    /// `file=PATH` (required) and `height=N` (1 to 4096, default 100), read by the engine's
    /// `VideoSinkOptions`: an unknown key or a bad value is `invalidArgument`, naming it.
    init(options: [String: String]) throws(MediaError) {
        let options = VideoSinkOptions(options, sink: "barcode")
        try options.rejectUnknownKeys(allowed: ["file", "height"])
        file = try options.requiredPath("file")
        height = try options.int("height", in: 1...4096) ?? 100
    }

    /// Frames for Swift: what `--list-sinks` shows, read from the type without making a sink.
    static var capabilities: VideoSinkCapabilities { .frames }

    func makeOutput() throws(MediaError) -> VideoOutput {
        // A fresh consumer per pipeline, as VideoSink asks; the columns start again with it.
        let columns = columns
        let file = file
        let height = height
        columns.reset()
        var consumer = FrameConsumer(format: .rgba, size: VideoSize(width: 32, height: 18), synchronized: false) {
            frame in
            var sum = (red: 0, green: 0, blue: 0)
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let color = frame.color(atX: x, y: y)
                    sum.red += Int(color.red)
                    sum.green += Int(color.green)
                    sum.blue += Int(color.blue)
                }
            }
            let count = max(1, frame.width * frame.height)
            columns.append([UInt8(sum.red / count), UInt8(sum.green / count), UInt8(sum.blue / count), 255])
        }
        consumer.endOfStream = {
            let colors = columns.all
            guard !colors.isEmpty else { return }
            var pixels: [UInt8] = []
            pixels.reserveCapacity(colors.count * height * 4)
            for _ in 0..<height {
                for color in colors { pixels += color }
            }
            do throws(MediaError) {
                try VideoImage(rgbaWidth: colors.count, height: height, pixels: pixels).write(to: file)
            } catch {
                FileHandle.standardError.write(Data("barcode: cannot write \(file.path): \(error.message)\n".utf8))
            }
        }
        return .frames(consumer)
    }
}

/// The average colours so far; the frame callback appends, the end reads.
final class Columns: Sendable {
    private let colors = Mutex<[[UInt8]]>([])

    var all: [[UInt8]] { colors.withLock { $0 } }
    func append(_ color: [UInt8]) { colors.withLock { $0.append(color) } }
    func reset() { colors.withLock { $0.removeAll() } }
}

// MARK: The plugin's entry points

/// The plugin contract's version this plugin was compiled against, asked by the loading engine
/// before it runs any other code of the plugin (it refuses a plugin built for another version).
@_cdecl("media_engine_sink_plugin_abi_version")
public func barcodeSinkABIVersion() -> Int32 {
    #if WRONG_ABI
        // Built with -D WRONG_ABI by the tests: a plugin for another engine, which must be refused.
        VideoSinkPluginABI.version + 1
    #else
        VideoSinkPluginABI.version
    #endif
}

/// Registers the `barcode` sink into the registry the engine is loading plugins into, `handle`
/// naming it. Returns 0 when registered, 1 when the engine is to report the plugin refused.
@_cdecl("media_engine_sink_plugin_register")
public func barcodeSinkRegister(_ handle: Int) -> Int32 {
    VideoSinkPluginABI.register(handle) { registry throws(MediaError) in
        try registry.register(
            "barcode", summary: "the movie's barcode: a column of average colour per frame, as a PNG (file=PATH)"
        ) { options throws(MediaError) in try BarcodeSink(options: options) }
    }
}
