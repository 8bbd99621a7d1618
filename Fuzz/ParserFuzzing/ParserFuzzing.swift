import FileSource
import Foundation
import MediaEngineCore

/// One input through each of the engine's own parsers: what the fuzz targets (`Fuzz/Fuzz*`) run
/// for every input libFuzzer makes, and what `FuzzRegressionTests` replays for every kept input.
///
/// A parser may refuse an input with a typed error; a trap, an out-of-bounds access (AddressSanitizer),
/// a hang or a broken invariant below is a finding.
package enum ParserFuzzing {
    /// `ContainerInspector.isTruncated(bytes:)`: MP4 box sizes, EBML sizes;
    /// `ContainerInspector.truncation(bytes:)`: MP4 sample offsets, sizes and chunks, Matroska
    /// clusters and blocks, whose playable part must be from zero to the stated duration; and
    /// `MP4KeyframeIndex.keyframeTimes(bytes:)`: MP4 sample tables and edit lists, whose times
    /// must be ascending and not negative.
    /// - Parameter bytes: A whole file's bytes.
    package static func containerInspector(_ bytes: [UInt8]) {
        _ = ContainerInspector.isTruncated(bytes: bytes)
        if let truncation = ContainerInspector.truncation(bytes: bytes) {
            precondition(truncation.playableDuration >= .zero, "negative playable part \(truncation)")
            precondition(truncation.duration.map { truncation.playableDuration <= $0 } ?? true, "\(truncation)")
        }
        if let times = MP4KeyframeIndex.keyframeTimes(bytes: bytes) {
            precondition(!times.isEmpty && times.first! >= 0, "bad keyframe times \(times.prefix(4))")
            precondition(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "keyframe times out of order")
        }
    }

    /// `SubtitleParser.cues(parsing:)`: SRT and WebVTT. Cues it returns must have a start before
    /// their end, both from zero to the latest time a GStreamer clock holds.
    /// - Parameter bytes: A subtitle file's bytes.
    package static func subtitles(_ bytes: [UInt8]) {
        let cues: [TextCue]
        do {
            cues = try SubtitleParser.cues(parsing: bytes)
        } catch {
            precondition(error.code == .invalidSubtitles || error.code == .tooLarge, "unexpected error \(error)")
            return
        }
        precondition(!cues.isEmpty, "no cues and no error")
        for cue in cues {
            precondition(cue.start >= .zero && cue.start < cue.end && cue.end <= latestClockTime, "bad cue \(cue)")
        }
    }

    /// `VideoSinkSpecification(parsing:)`, then the options of the `images`, `frames` and `null`
    /// sinks made from its options (the `images` sink's `folder=` is a scratch folder unless the
    /// input names one). Every spec the parser accepts has a valid name.
    /// - Parameter bytes: A specification's bytes (not necessarily UTF-8: repaired as a command line would be).
    package static func sinkOptions(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let specification = try? VideoSinkSpecification(parsing: text) else { return }
        precondition(
            !specification.name.isEmpty
                && specification.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
            "accepted a bad name in \(text)")
        for name in ["images", "frames", "null"] {
            var options = specification.options
            if name == "images", options["folder"] == nil { options["folder"] = imageFolder }
            _ = try? registry.makeSink(named: name, options: options)
        }
    }

    /// Work done once before fuzzing `sinkOptions`: the registry, the scratch folder and
    /// GStreamer's initialization (the `images` sink checks its elements exist).
    package static func prepareSinkOptions() {
        sinkOptions(Array("images:every=1".utf8))
    }

    /// What a GStreamer clock time (nanoseconds in 64 bits) holds.
    private static let latestClockTime: Duration = .nanoseconds(Int64.max)

    /// A registry of the built-in sinks that sees no display.
    private static let registry = VideoSinkRegistry(builtIns: true, environment: [:])

    /// A writable folder for the `images` sink, shared by every run (the sink only checks it; nothing is written).
    private static let imageFolder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift-media-engine-fuzz-images")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }()
}
