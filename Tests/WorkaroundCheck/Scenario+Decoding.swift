import CMediaEngineCGStreamer
import FileSource
import Foundation
import MediaEngine
import MediaTestSupport

/// What reaches the app from a movie's streams: keyframe marks, the decoder's own pictures, timed
/// metadata, and the error of a movie that cannot be read.
extension Scenario {
    static let decoding: [Scenario] = [
        // Off: every picture says keyframe.
        Scenario(.keyframeFlags, arguments: ["MOVIE"]) { arguments, report in
            let frames = FrameRecorder()
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: frames.sink(synchronized: false),
                audioOutput: .discard)
            let events = EventRecorder(player)
            try await player.play()
            _ = try await events.waitForFinish()
            let records = frames.records
            report.set("frames", records.count)
            report.set("keyframes", records.indices.filter { records[$0].isKeyframe })
        },
        // Off: the frames sink gets copies in GStreamer's default layout (a row as wide as the picture).
        Scenario(.appsinkVideoMeta, arguments: ["MOVIE"]) { arguments, report in
            let strides = Locked<Set<Int>>([])
            let width = Locked(0)
            let sink = FrameSink(format: .i420, synchronized: false) { frame in
                let stride = frame.stride(ofPlane: 0)
                strides.withLock { _ = $0.insert(stride) }
                width.withLock { $0 = frame.width }
            }
            let player = MoviePlayer(source: FileSource(path: arguments[0]), videoSink: sink, audioOutput: .discard)
            let events = EventRecorder(player)
            try await player.play()
            _ = try await events.waitForFinish()
            report.set("decoder", player.videoDecoder ?? "none")
            report.set("width", width.withLock { $0 })
            report.set("strides", strides.withLock { $0 }.sorted())
        },
        // Off: no ID3 item of the MPEG-TS metadata stream reaches the app.
        Scenario(.tsdemuxID3, arguments: ["MOVIE"]) { arguments, report in
            try await recordTimedMetadata(of: arguments[0], report)
        },
        // Off: the ID3 tag in front of packed AAC is skipped unread.
        Scenario(.aacID3, arguments: ["AUDIO"]) { arguments, report in
            try await recordTimedMetadata(of: arguments[0], report)
        },
        // Off: a demuxer that gives up while decodebin sets it up fails the movie only at the
        // preparation's time limit (2 s here), as timedOut. decodebin keeps back the errors an
        // element posts while it sets it up, and drops them once that has gone well: a race
        // with the demuxer's streaming thread, which decodebin's thread almost always wins
        // (qtdemux's loop waits for its pad's stream lock, which decodebin releases just before
        // it stops filtering). The race's losing outcome made certain: qtdemux's errors dropped.
        Scenario(.stalledDemuxer, arguments: ["MOVIE"]) { arguments, report in
            try GStreamer.initialize()
            try PostedMessages.intercept(on: "qtdemux") { _, message in message.pointee.type != GST_MESSAGE_ERROR }
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: NullVideoSink(), audioOutput: .discard,
                preparationTimeout: .seconds(2))
            player.shouldAutoplay = false
            await report.recordPreparation(of: player)
            report.mark("failedAfter")
        },
    ]

    /// Plays `path` to its end, flat out, and records the keys of the timed-metadata items that
    /// reached the app and the time the first arrived.
    private static func recordTimedMetadata(of path: String, _ report: Measurements) async throws {
        let player = MoviePlayer(
            source: FileSource(path: path), videoSink: FrameSink(synchronized: false), audioOutput: .unpaced)
        let events = EventRecorder(player)
        try await player.play()
        _ = try await events.waitForFinish()
        let items = events.events.compactMap { event -> [TimedMetadataItem]? in
            if case .timedMetadataChanged(let items) = event { return items }
            return nil
        }.flatMap { $0 }
        report.set("items", items.count)
        report.set("keys", items.map(\.key).joined(separator: ","))
    }
}
