import CMediaEngineCGStreamer
import CMediaEngineWorkarounds
import MediaEngine
import MediaTestSupport
import Testing

/// A sink that returns FLUSHING while its pad is not flushing (srtsink, when a pause's unlock
/// races its render) used to stop the stream for good: the element upstream stops its task as for
/// a flush, and no flush comes to start it again. The engine guards the base sinks of every
/// element output (`me_guard_sink_flow`); these tests make such a sink on purpose, an appsink
/// whose callback answers FLUSHING for one frame, and look at what reaches it afterwards.
@Suite("A sink that says flushing outside a flush")
struct SinkFlowGuardTests {
    /// Counts the frames the appsink is given, and answers FLUSHING for the `refused`th.
    final class Sink: Sendable {
        let refused: Int
        let frames = Locked(0)
        init(refusing refused: Int) { self.refused = refused }
    }

    /// Plays 40 frames flat out into an appsink that refuses the 5th, guarded or not, and
    /// returns how many frames reached it and whether the stream ended (EOS) within `seconds`.
    static func play(guarded: Bool, within seconds: UInt) async throws -> (frames: Int, ended: Bool) {
        try GStreamer.initialize()
        let sink = Sink(refusing: 5)
        return try await OwnThread.run {
            var error: UnsafeMutablePointer<GError>?
            let pipeline = gst_parse_launch(
                "videotestsrc num-buffers=40 ! video/x-raw,width=32,height=24,framerate=1000/1 "
                    + "! appsink name=sink sync=false", &error)
            defer { if let pipeline { gst_object_unref(UnsafeMutableRawPointer(pipeline)) } }
            guard let pipeline, error == nil else { throw MediaError(.pipelineFailure, "could not build the pipeline") }
            let appsink = gst_bin_get_by_name(
                UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), "sink")!
            defer { gst_object_unref(UnsafeMutableRawPointer(appsink)) }
            var callbacks = GstAppSinkCallbacks()
            callbacks.new_sample = { appsink, data in
                let sink = Unmanaged<Sink>.fromOpaque(data!).takeUnretainedValue()
                if let sample = gst_app_sink_pull_sample(appsink) {
                    gst_mini_object_unref(UnsafeMutableRawPointer(sample).assumingMemoryBound(to: GstMiniObject.self))
                }
                let count = sink.frames.withLock { frames in
                    frames += 1
                    return frames
                }
                return count == sink.refused ? GST_FLOW_FLUSHING : GST_FLOW_OK
            }
            let retained = Unmanaged.passRetained(sink).toOpaque()
            gst_app_sink_set_callbacks(
                UnsafeMutableRawPointer(appsink).assumingMemoryBound(to: GstAppSink.self), &callbacks, retained,
                { data in Unmanaged<Sink>.fromOpaque(data!).release() })
            if guarded { me_guard_sink_flow(appsink) }
            gst_element_set_state(pipeline, GST_STATE_PLAYING)
            let bus = gst_element_get_bus(pipeline)
            defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
            let message = gst_bus_timed_pop_filtered(
                bus, seconds * 1_000_000_000, GstMessageType(GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
            let ended = message.map { $0.pointee.type == GST_MESSAGE_EOS } ?? false
            if let message {
                gst_mini_object_unref(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GstMiniObject.self))
            }
            gst_element_set_state(pipeline, GST_STATE_NULL)
            return (sink.frames.withLock { $0 }, ended)
        }
    }

    @Test("unguarded, the stream stops at the refused frame: the failure the guard is for")
    func unguarded() async throws {
        let result = try await Self.play(guarded: false, within: 2)
        #expect(result.frames == 5)
        #expect(!result.ended)
    }

    @Test("guarded, only the refused frame is lost and the stream plays to its end")
    func guarded() async throws {
        let result = try await Self.play(guarded: true, within: 20)
        #expect(result.frames == 40)
        #expect(result.ended)
    }
}
