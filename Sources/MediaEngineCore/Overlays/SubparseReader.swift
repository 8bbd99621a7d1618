internal import CMediaEngineCGStreamer

import struct Foundation.URL

/// Subtitle files that ``SubtitleParser`` does not read, read by GStreamer's `subparse`:
/// SAMI (`.smi`), MicroDVD (`.sub`, frame numbers at `subparse`'s default 23.976 fps), MPL2, LRC,
/// and SubRip or WebVTT in another encoding than UTF-8 (`subparse` guesses it: Latin-1 and the
/// like). `filesrc ! subparse ! appsink`, run to its end outside any player; each text buffer
/// becomes a ``TextCue`` as a subtitle stream's does (``SubtitleDelivery``: markup dropped,
/// blank cues left out, a cue without a duration shown for 4 seconds).
///
/// Measured on 2026-12-04 (BENCHMARKS.md, "Why by hand"): `subparse` refuses every subtitle file
/// of the fuzz regressions that ``SubtitleParser`` refuses, with an error, never a crash or a
/// hang; it is kept to a fallback because it reads the whole file into memory again and runs a
/// pipeline (a few milliseconds), and because SRT and WebVTT in UTF-8, nearly every file, need
/// neither.
enum SubparseReader {
    /// The longest the pipeline may take to read a file (a 16 MiB file takes well under a second).
    static let deadline: GstClockTime = 10 * 1_000_000_000

    /// Reads `url` with `subparse`.
    /// - Parameter url: A file URL, already read once and within ``SubtitleParser``'s size bound.
    /// - Returns: The cues, in the file's order.
    /// - Throws: ``MediaError/Code/invalidSubtitles`` when `subparse` does not recognise the file
    ///   or it holds no cue, ``MediaError/Code/tooLarge`` past ``SubtitleParser/maximumCueCount``
    ///   cues, ``MediaError/Code/timedOut`` past ``deadline``, or the pipeline's failures.
    static func cues(contentsOf url: URL) throws(MediaError) -> [TextCue] {
        let source = try Element.make("filesrc")
        try source.set("location", .string(url.path))
        let parser = try Element.make("subparse")
        let sink = try Element.make("appsink")
        try sink.set(["sync": .bool(false), "max-buffers": .int(0)])
        let pipeline = Bin(sinking: gcast(gst_pipeline_new(nil)))
        try pipeline.addAndLink([source, parser, sink])
        defer { pipeline.setState(GST_STATE_NULL) }
        guard let bus = pipeline.bus else { throw MediaError(.pipelineFailure, "the subtitle pipeline has no bus") }
        pipeline.setState(GST_STATE_PLAYING)
        var cues: [TextCue] = []
        let appsink = AppSink(sink)
        var waited: GstClockTime = 0
        let step: GstClockTime = 100_000_000
        while true {
            if let message = gst_bus_pop_filtered(bus.pointer, GST_MESSAGE_ERROR).map(Message.init(owning:)) {
                let reason = message.failure(isError: true).message ?? "failed"
                throw MediaError(
                    .invalidSubtitles,
                    "\(url.path): not subtitles that the engine or GStreamer's subparse reads (SubRip, WebVTT, "
                        + "SAMI, MicroDVD, MPL2, LRC): \(reason)")
            }
            guard let sample = gst_app_sink_try_pull_sample(appsink.pointer, step).map(Sample.init(owning:)) else {
                if gst_app_sink_is_eos(appsink.pointer) != 0 { break }
                waited += step
                if waited >= deadline {
                    throw MediaError(.timedOut, "\(url.path): subparse did not finish reading in 10 seconds")
                }
                continue
            }
            guard let cue = SubtitleDelivery.cue(from: sample) else { continue }
            cues.append(cue)
            if cues.count > SubtitleParser.maximumCueCount {
                throw MediaError(.tooLarge, "\(url.path): more than \(SubtitleParser.maximumCueCount) cues")
            }
        }
        guard !cues.isEmpty else { throw MediaError(.invalidSubtitles, "\(url.path): the subtitles hold no cues") }
        return cues
    }
}
