import Foundation
import MediaTestSupport
import Testing

/// The engine's elements as a loadable GStreamer plugin (`libgstmediaengine.so`, the
/// `gstmediaengine` product): found by gst-inspect-1.0 and used by a gst-launch-1.0 line, with no
/// Swift in the process.
@Suite("GStreamer plugin")
struct GStreamerPluginTests {
    /// gst-launch-1.0 and gst-inspect-1.0 with the build folder as a plugin path, and a registry
    /// of their own (the user's cache is left alone).
    static func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> ProcessRunner.Result {
        let registry = try TestMedia.scratchDirectory().appendingPathComponent("registry.bin")
        defer { try? FileManager.default.removeItem(at: registry.deletingLastPathComponent()) }
        return try await ProcessRunner.run(
            tool, ["--gst-plugin-path=\(BuildProducts.directory.path)"] + arguments,
            environment: environment.merging(["GST_REGISTRY": registry.path]) { _, own in own })
    }

    /// The plugin's elements, each with the properties of its own (not its base class's).
    static let elements: [(name: String, ownProperties: [String])] = [
        ("meh264dec", []), ("meh265dec", []),
        (
            "mescaler",
            [
                "width", "height", "mode", "from-mode", "progress", "background", "view-x", "view-y", "view-width",
                "view-height", "compositing", "frames-copied", "frames-claimed", "n-threads",
            ]
        ),
        ("meframeselect", ["every", "times"]), ("mebackdrop", ["color"]), ("meoutputbin", ["last-stream-time"]),
    ]

    @Test("gst-inspect-1.0 lists the plugin and its six elements")
    func inspect() async throws {
        let plugin = try await Self.run("gst-inspect-1.0", ["mediaengine"])
        #expect(plugin.status == 0, "\(plugin.standardError)")
        for (element, _) in Self.elements {
            #expect(plugin.standardOutput.contains("\(element):"), "\(element) in \(plugin.standardOutput)")
        }
        let decoder = try await Self.run("gst-inspect-1.0", ["meh264dec"])
        #expect(decoder.status == 0 && decoder.standardOutput.contains("Codec/Decoder/Video"))
    }

    @Test("gst-inspect-1.0 documents each element: its metadata, and a description for every property")
    func documented() async throws {
        for (element, own) in Self.elements {
            let result = try await Self.run("gst-inspect-1.0", [element])
            #expect(result.status == 0, "\(element): \(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for field in ["Long-name", "Klass", "Description", "Author"] {
                let line = lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(field) }
                let value = line.map { $0.trimmingCharacters(in: .whitespaces).dropFirst(field.count) }
                #expect(value?.trimmingCharacters(in: .whitespaces).isEmpty == false, "\(element): \(field)")
            }
            // A property's line: two spaces, its name, spaces, ": " and its blurb (the nick is not shown).
            guard let start = lines.firstIndex(of: "Element Properties:") else {
                Issue.record("\(element): no Element Properties in \(result.standardOutput)")
                continue
            }
            var blurbs: [String: String] = [:]
            for line in lines[(start + 1)...] {
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let colon = line.range(of: " : ") else { continue }
                let name = line[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
                blurbs[name] = String(line[colon.upperBound...]).trimmingCharacters(in: .whitespaces)
            }
            for property in own {
                #expect(blurbs[property] != nil, "\(element) lists \(property): \(blurbs.keys.sorted())")
            }
            for (property, blurb) in blurbs {
                #expect(!blurb.isEmpty && blurb != property, "\(element)'s \(property) is described: '\(blurb)'")
            }
        }
    }

    @Test("a gst-launch-1.0 line decodes with meh264dec and scales with mescaler, no Swift involved")
    func launch() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numbered)
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent("frame.png")
        let result = try await Self.run(
            "gst-launch-1.0",
            [
                "-q", "filesrc", "location=\(movie.path)", "!", "qtdemux", "!", "h264parse", "!", "meh264dec", "!",
                "mescaler", "width=160", "height=90", "!", "videoconvert", "!", "pngenc", "snapshot=true", "!",
                "filesink", "location=\(picture.path)",
            ])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = [UInt8](try Data(contentsOf: picture))
        #expect(bytes.count > 24 && bytes[1...3] == Array("PNG".utf8)[...])
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 160 && height == 90, "the scaler's size: \(width)x\(height)")
    }

    @Test("late pictures: meh264dec skips the pictures no other refers to, as avdec_h264 does, and plays to the end")
    func skipsWhenLate() async throws {
        // A downstream that takes 200 ms per picture of a 30 fps movie: from the second picture on
        // they reach the sink late, whatever the machine's load, and the sink says so upstream
        // (QoS) while the decoder has pictures still to decode. (At 60 ms a picture, a busy
        // machine's decoder was once never late when a picture came in.)
        let movie = try await TestMedia.url(for: TestMedia.ballWithBFrames)
        let result = try await Self.run(
            "gst-launch-1.0",
            [
                "-q", "filesrc", "location=\(movie.path)", "!",
                "qtdemux", "!", "h264parse", "!", "meh264dec", "!", "identity", "sleep-time=200000", "!", "fakesink",
                "sync=true", "qos=true",
            ],
            environment: ["GST_DEBUG": "melibavdec:5", "GST_DEBUG_NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.standardError.suffix(2000))")
        let qos = result.standardError.split(separator: "\n").compactMap { line in
            line.range(of: "QoS: ").map { String(line[$0.upperBound...]) }
        }
        // The base class drops the late pictures it decoded, so downstream keeps catching up and
        // the decoder is usually only a little late here (a busy machine can put it further
        // behind: keyframes only). The policy's steps are LibavSkipPolicyTests'; engine-bench
        // --only qos measures what they show.
        #expect(
            qos.contains {
                $0.hasPrefix("late: skipping pictures no other picture refers to") || $0.hasPrefix("keyframes only")
            },
            "\(qos)")
    }
}
