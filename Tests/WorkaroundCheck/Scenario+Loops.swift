import CMediaEngineCGStreamer
import FileSource
import Foundation
import MediaEngine
import MediaTestSupport

/// Repeat mode's gapless loops (non-flushing segment seeks).
extension Scenario {
    static let loops: [Scenario] = [
        // Off: each pass starts a frame early on the running time (the demuxer's next segment
        // starts at its last buffer's start): no interval between the passes' frames.
        Scenario(.loopRunningTime, arguments: ["MOVIE"]) { arguments, report in
            let frames = FrameRecorder()
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: frames.sink(synchronized: false),
                audioOutput: .discard)
            player.repeatMode = .one
            try await player.play()
            try await frames.waitForFrames(120)
            player.repeatMode = .none
            let records = frames.records
            let times = records.prefix(120).map { $0.runningTime ?? .zero }
            let gap = times[60] - times[59]
            report.set("numbers", records.prefix(62).map { $0.number ?? -1 })
            report.set("gapMicroseconds", Int((gap.inSeconds * 1e6).rounded()))
            report.set("intervalMicroseconds", Int(((times[30] - times[29]).inSeconds * 1e6).rounded()))
        },
        // Off: the loop's seek goes in with gst_element_send_event, which holds the pipeline's
        // state lock until the demuxer takes the seek; the demuxer takes a seek that does not
        // flush once its streaming thread has stopped, and that thread, pushing into a full
        // queue, waits for PLAYING; GStreamer's own return to PLAYING (after a flushing seek
        // while playing, gst_bin_continue_func) waits for the state lock: a deadlock. The race
        // forced: the seek's first frame is held in the sink (the pipeline on its way back to
        // PLAYING) until the loop has been sent, and qtdemux's streaming thread, once it has
        // posted the segment's end, waits for PLAYING as it would in a full queue.
        Scenario(.upstreamLoopSeek, limit: .seconds(5), arguments: ["MOVIE"]) { arguments, report in
            try GStreamer.initialize()
            let loopThroughThePipeline = Locked(false)
            report.set("loopThroughThePipeline", false)
            try SentEvents.intercept(on: "playbin") { _, event in
                guard event.pointee.type == GST_EVENT_SEEK else { return }
                var flags = GstSeekFlags(rawValue: 0)
                gst_event_parse_seek(event, nil, nil, &flags, nil, nil, nil, nil)
                guard flags.rawValue & GST_SEEK_FLAG_FLUSH.rawValue == 0 else { return }
                loopThroughThePipeline.withLock { $0 = true }
                report.set("loopThroughThePipeline", true)
            }
            try PostedMessages.intercept(on: "qtdemux", { _, _ in true }) { demuxer, kind in
                guard kind == GST_MESSAGE_SEGMENT_DONE else { return }
                waitForPlaying(topLevel(of: demuxer), within: .seconds(60))
            }
            let holding = Locked(false)
            let numbers = Locked<[Int]>([])
            let sink = FrameSink(dropsLateFrames: false) { frame in
                let number = FrameNumber.read(frame) ?? -1
                numbers.withLock { $0.append(number) }
                let holds = holding.withLock { holding in
                    defer { holding = false }
                    return holding
                }
                guard holds else { return }
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(1)
                while !loopThroughThePipeline.withLock({ $0 }), clock.now < deadline { usleep(2000) }
            }
            let player = MoviePlayer(source: FileSource(path: arguments[0]), videoSink: sink, audioOutput: .discard)
            player.repeatMode = .one
            try await player.play()
            try await waitUntil(within: .seconds(3)) { numbers.withLock { $0.count } >= 10 }
            holding.withLock { $0 = true }
            try await player.seek(to: .milliseconds(1800))
            let sought = numbers.withLock { $0.count }
            report.mark("sought")
            try await waitUntil(within: .seconds(3)) { numbers.withLock { $0.dropFirst(sought).contains(0) } }
            report.set("looped", numbers.withLock { $0.dropFirst(sought).contains(0) })
            report.set("afterTheSeek", numbers.withLock { Array($0.dropFirst(sought).prefix(12)) })
        },
    ]
}

/// Holds the calling thread until `pipeline` is PLAYING with no state change pending, or `limit`
/// has passed.
private func waitForPlaying(_ pipeline: UnsafeMutablePointer<GstElement>, within limit: Duration) {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while pipeline.pointee.current_state != GST_STATE_PLAYING
        || pipeline.pointee.pending_state != GST_STATE_VOID_PENDING,
        clock.now < deadline
    {
        usleep(2000)
    }
}
