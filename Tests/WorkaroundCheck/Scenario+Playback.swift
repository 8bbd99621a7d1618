import CMediaEngineCGStreamer
import FileSource
import Foundation
import MediaEngine
import MediaTestSupport

/// Playback through playbin's own elements: the gapless hand-over, the sinks, the overlays and
/// the sound's volume.
extension Scenario {
    static let playback: [Scenario] = [
        // Off: the gapless hand-over from a movie with sound deadlocks in playsink's stream
        // synchronizer: the next movie never starts (the watchdog ends the process).
        Scenario(.gaplessEOS, limit: .seconds(5), arguments: ["MOVIE", "NEXT"]) { arguments, report in
            let frames = FrameRecorder()
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: frames.sink(synchronized: false),
                audioOutput: .unpaced)
            player.shouldAutoplay = false
            try player.setQueue([FileSource(path: arguments[0]), FileSource(path: arguments[1])])
            let events = EventRecorder(player)
            try await player.play()
            try await frames.waitForFrames(1)
            report.set("handedOver", false)
            try await events.waitFor("the hand-over", within: .seconds(60)) { $0 == .queueItemChanged(1) }
            report.set("handedOver", true)
            report.mark("handedOverAfter")
            let (reason, _) = try await events.waitForFinish(within: .seconds(60))
            report.set("finish", "\(reason)")
            report.set("frames", frames.records.count)
        },
        // Off: a sink that says FLUSHING outside a flush (as srtsink does when a pause's unlock
        // races a frame) stops the stream for good: nothing after that frame, and no end.
        Scenario(.sinkFlowGuard, limit: .seconds(4), arguments: ["MOVIE"]) { arguments, report in
            try GStreamer.initialize()
            RefusingSink.register()
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: RefusingSink(), audioOutput: .discard)
            let events = EventRecorder(player)
            try await player.play()
            report.set("finish", "none")
            do {
                let (reason, _) = try await events.waitForFinish(within: .seconds(2))
                report.set("finish", "\(reason)")
            } catch is DeadlineExceeded {}
            report.set("rendered", RefusingSink.rendered.withLock { $0 })
        },
        // Off: GStreamer logs a CRITICAL (the opacity set on a NULL rectangle) for each
        // translucent overlay it converts to AYUV, for a YUV frame.
        Scenario(.overlayGlobalAlpha, arguments: ["MOVIE"]) { arguments, report in
            try GStreamer.initialize()
            CriticalCount.install()
            let frames = FrameRecorder()
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: frames.sink(format: .i420, synchronized: false),
                audioOutput: .discard)
            player.overlays.add(try Square(bitmap: OverlayBitmap(width: 40, height: 40, color: .black), opacity: 0.5))
            let events = EventRecorder(player)
            try await player.play()
            _ = try await events.waitForFinish()
            report.set("frames", frames.records.count)
            report.set("criticals", CriticalCount.count.withLock { $0 })
        },
        // Off: a sink posts its instant-rate request from the thread that brought it the event, and
        // the pipeline handles it there, taking its STATE_LOCK. The event is sticky: a sink linked
        // after the change (an output swap) gets it with the next frame, on a streaming thread;
        // a flushing seek meanwhile holds the STATE_LOCK (gst_element_send_event) and waits for
        // that thread (the queue it pushes from pauses its task): a deadlock. The race's window
        // widened at will: the new sink's request is held until the seek's flush has reached it.
        Scenario(.instantRateRelay, limit: .seconds(5), arguments: ["MOVIE"]) { arguments, report in
            try GStreamer.initialize()
            let armed = Locked(false)
            let held = Locked(false)
            try PostedMessages.intercept(on: "appsink") { sink, message in
                guard message.pointee.type == GST_MESSAGE_INSTANT_RATE_REQUEST, armed.withLock({ $0 }) else {
                    return true
                }
                held.withLock { $0 = true }
                waitForFlush(of: sink, within: .seconds(2))
                return true
            }
            let frames = FrameRecorder()
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: frames.sink(label: "first"), audioOutput: .discard)
            try await player.play()
            try await frames.waitForFrames(5)
            try await player.setRate(2)
            try await frames.waitUntil("frames at rate 2") { $0.count >= 15 }
            armed.withLock { $0 = true }
            try await player.setVideoSink(frames.sink(label: "second"))
            // The new sink's copy of the change comes before its first frame, if it comes at all.
            try await waitUntil(within: .seconds(1)) { held.withLock { $0 } || frames.records.last?.sink == "second" }
            report.set("requestFromTheNewSink", held.withLock { $0 })
            try await player.seek(to: .seconds(10))
            report.mark("sought")
            report.set("rate", player.currentPlaybackRate)
        },
        // The bug (playsink leaks its soft-volume element once per pipeline, GStreamer 1.22.0 to
        // 1.22.2) is on playsink's path for an audio sink without a volume of its own; the engine's
        // audio bin holds its own `volume`, which playsink takes as the sink's whatever the flag.
        // So through the engine, off shows only what the workaround changes (playbin's
        // soft-volume flag set), and nothing leaks either way; a bare playbin with the flag and a
        // plain audio sink shows the leak itself on this GStreamer.
        Scenario(.playsinkVolumeLeak, arguments: ["MOVIE"]) { arguments, report in
            try GStreamer.initialize()
            let volumes = try LiveElements(factory: "volume")
            let playbins = try LiveElements(factory: "playbin")
            do {
                let player = MoviePlayer(
                    source: FileSource(path: arguments[0]), videoSink: FrameSink(synchronized: false),
                    audioOutput: .unpaced)
                player.shouldAutoplay = false
                try await player.prepareToPlay()
                if let playbin = playbins.first() {
                    report.set("softVolume", PlaybinFlags.read(playbin) & PlaybinFlags.softVolume != 0)
                    gst_object_unref(UnsafeMutableRawPointer(playbin))
                }
                report.set("volumesWhilePrepared", volumes.count)
                await player.shutdown()
            }
            try await waitUntil(within: .seconds(1)) { volumes.count == 0 && playbins.count == 0 }
            report.set("volumesLeakedByTheEngine", volumes.count)
            try PlaybinFlags.prerollBare(arguments[0])
            try await waitUntil(within: .seconds(1)) { playbins.count == 0 }
            report.set("volumesLeakedByABarePlaybin", volumes.count)
        },
    ]
}

/// A bitmap drawn translucent at a quarter of the frame's width: scaled, so GStreamer converts
/// its pixels to AYUV for a YUV frame.
private struct Square: VideoOverlay {
    let bitmap: OverlayBitmap
    let opacity: Double
    var placement: OverlayPlacement { OverlayPlacement(anchor: .center, width: .fraction(0.25)) }
    func bitmap(for request: OverlayRenderRequest) -> OverlayBitmap? { bitmap }
}

/// Counts GLib's CRITICAL messages (a failed `g_return_if_fail`) of every domain; the others are
/// written as GLib writes them.
private enum CriticalCount {
    static let count = Locked(0)

    static func install() {
        g_log_set_default_handler(
            { domain, level, message, _ in
                if level.rawValue & G_LOG_LEVEL_CRITICAL.rawValue != 0 { CriticalCount.count.withLock { $0 += 1 } }
                g_log_default_handler(domain, level, message, nil)
            }, nil)
    }
}

/// Holds the calling thread until `sink`'s input is flushing (a flushing seek has reached it), or
/// `limit` has passed.
private func waitForFlush(of sink: UnsafeMutablePointer<GstElement>, within limit: Duration) {
    guard let pad = gst_element_get_static_pad(sink, "sink") else { return }
    defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while pad.pointee.object.flags & GST_PAD_FLAG_FLUSHING.rawValue == 0, clock.now < deadline { usleep(2000) }
}

/// playbin's `flags` (GstPlayFlags), and a playbin of GStreamer's defaults prerolled without the
/// engine.
private enum PlaybinFlags {
    /// GST_PLAY_FLAG_SOFT_VOLUME.
    static let softVolume: UInt32 = 0x10

    /// The flags of `playbin`.
    static func read(_ playbin: UnsafeMutablePointer<GstElement>) -> UInt32 {
        var value = GValue()
        g_value_init(&value, g_type_from_name("GstPlayFlags"))
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(playbin).assumingMemoryBound(to: GObject.self), "flags", &value)
        return g_value_get_flags(&value)
    }

    /// A playbin with its default flags (soft volume among them) and fakesinks, prerolled on
    /// `path`, then set to NULL and released.
    static func prerollBare(_ path: String) throws {
        var error: UnsafeMutablePointer<GError>?
        let pipeline = gst_parse_launch(
            "playbin uri=file://\(path) audio-sink=\"fakesink sync=false\" video-sink=\"fakesink sync=false\"",
            &error)
        guard let pipeline, error == nil else { throw TestMediaError(message: "no playbin") }
        defer { gst_object_unref(UnsafeMutableRawPointer(pipeline)) }
        gst_element_set_state(pipeline, GST_STATE_PAUSED)
        let prerolled = gst_element_get_state(pipeline, nil, nil, 5_000_000_000)
        gst_element_set_state(pipeline, GST_STATE_NULL)
        guard prerolled == GST_STATE_CHANGE_SUCCESS else {
            throw TestMediaError(message: "the playbin did not preroll")
        }
    }
}
