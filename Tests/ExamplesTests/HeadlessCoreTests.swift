import Foundation
import MediaTestSupport
import Testing

/// MediaEngineCore alone, as a headless app links it (`engine-headless-check`): GStreamer's
/// libraries and libyuv, no X11, Pango, cairo or libavcodec; it still plays a movie into frames,
/// and refuses an X11 window and drawn text with typed errors.
@Suite("Linking only the core")
struct HeadlessCoreTests {
    /// The libraries a window, text or the engine's decoders would bring.
    static let heavyLibraries = ["libX11", "libxcb", "libpango", "libcairo", "libavcodec", "libavutil", "libharfbuzz"]

    /// The shared libraries `program` loads, by file name (`ldd`).
    static func libraries(of program: String) async throws -> [String] {
        let result = try await ProcessRunner.run("ldd", [program])
        #expect(result.status == 0, "ldd \(program): \(result.standardError)")
        return result.standardOutput.split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map { String($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test("a binary on the core alone loads no X11, Pango, cairo or libavcodec; the full product does")
    func linksOnlyWhatItNeeds() async throws {
        let headless = try await Self.libraries(of: BuildProducts.executable("engine-headless-check"))
        #expect(headless.contains { $0.hasPrefix("libgstreamer-1.0") }, "\(headless)")
        for library in Self.heavyLibraries {
            #expect(!headless.contains { $0.hasPrefix(library) }, "\(library) in \(headless)")
        }
        // The umbrella product (mediaplay links it) has them all: the check above can fail.
        let full = try await Self.libraries(of: BuildProducts.executable("mediaplay"))
        for library in ["libX11", "libpangocairo", "libcairo", "libavcodec"] {
            #expect(full.contains { $0.hasPrefix(library) }, "\(library) in \(full)")
        }
    }

    @Test("the core alone plays every frame with GStreamer's decoder, and refuses windows and text typed")
    func playsAndRefuses() async throws {
        let movie = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(
            BuildProducts.executable("engine-headless-check"), [movie.path], environment: ["DISPLAY": ":0"])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let lines = Dictionary(
            result.standardOutput.split(separator: "\n").map { line -> (String, String) in
                let parts = line.split(separator: " ", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { first, _ in first })
        #expect(lines["decoder"]?.hasPrefix("avdec_h264") == true, "\(result.standardOutput)")
        #expect(lines["frames"] == "60")
        #expect(lines["size"] == "320x240")
        #expect(lines["finish"] == "playbackEnded")
        // SMPTE bars' top row: white, yellow, cyan, green, magenta, red, blue.
        let expected: [(Bool, Bool, Bool)] = [
            (true, true, true), (true, true, false), (false, true, true), (false, true, false),
            (true, false, true), (true, false, false), (false, false, true),
        ]
        let colours = (lines["row"] ?? "").split(separator: " ").map { $0.split(separator: ",").compactMap { Int($0) } }
        #expect(colours.count == 7, "\(result.standardOutput)")
        for (colour, bars) in zip(colours, expected) where colour.count == 3 {
            let lit = colour.map { $0 > 160 }
            let dark = colour.map { $0 < 70 }
            #expect(lit[0] == bars.0 && lit[1] == bars.1 && lit[2] == bars.2, "\(colour) for \(bars)")
            #expect(dark[0] != bars.0 && dark[1] != bars.1 && dark[2] != bars.2, "\(colour) for \(bars)")
        }
        let window = lines["window"] ?? ""
        let text = lines["text"] ?? ""
        #expect(window.hasPrefix("unsupportedOperation: X11 windows need"), "\(result.standardOutput)")
        #expect(text.hasPrefix("overlayFailed:") && text.contains("no text renderer"), "\(result.standardOutput)")
    }
}
