internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue
import Synchronization

/// Hands an appsink's samples to a ``FrameConsumer`` as mapped ``VideoFrame``s.
///
/// The appsink callbacks below are plain C functions: they run on the sink's streaming
/// thread and must not touch any actor.
///
/// `@unchecked Sendable`: the mutable fields are touched only inside the appsink callbacks,
/// which GStreamer serialises for one sink (they run under the sink's preroll lock on its
/// streaming thread), so no two threads use them at once.
final class FrameDelivery: @unchecked Sendable {
    private let consumer: FrameConsumer
    private let scratch = ConversionScratch()
    private var info = GstVideoInfo()
    private var infoCaps: Caps?
    /// The buffer and PTS last delivered as a preroll frame: the same buffer then arrives as
    /// the first sample when playback starts, and is not delivered twice. Nor is a preroll of the
    /// same frame again (a flushing seek to where the movie already stands).
    private var prerollBuffer: UnsafeMutableRawPointer?
    private var prerollPTS: GstClockTime = clockTimeNone
    /// How many frames this delivery handed over: the next frame's ``VideoFrame/index``.
    private var delivered = 0
    /// The next preroll of the same frame is delivered after all: it was drawn again with new
    /// overlays (set from the player's thread, read on the streaming thread).
    private let repeatWanted = Atomic<Bool>(false)
    /// Set by ``close()`` (the player stopped, or is gone): nothing more reaches the consumer.
    private let closed = Atomic<Bool>(false)

    init(consumer: FrameConsumer) {
        self.consumer = consumer
    }

    /// Delivers the next preroll even if it repeats the last one's frame (a paused frame shown
    /// again with changed overlays).
    func deliverNextRepeat() {
        repeatWanted.store(true, ordering: .releasing)
    }

    /// Hands the consumer nothing more, from any thread: no callback of its starts after this
    /// returns (one already running finishes). The player calls it when it stops, before its
    /// pipeline, torn down on another thread, stops pushing frames.
    func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
    }

    private var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }

    /// Installs the callbacks on `appsink`; the sink keeps this object alive until it is destroyed.
    func install(on appsink: Element) {
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_preroll = { sink, data in
            FrameDelivery.from(data).deliver(from: sink!, preroll: true)
        }
        callbacks.new_sample = { sink, data in
            FrameDelivery.from(data).deliver(from: sink!, preroll: false)
        }
        callbacks.eos = { _, data in
            let delivery = FrameDelivery.from(data)
            if !delivery.isClosed { delivery.consumer.endOfStream?() }
        }
        let data = Unmanaged.passRetained(self).toOpaque()
        AppSink(appsink).setCallbacks(
            &callbacks, data: data, destroy: { data in Unmanaged<FrameDelivery>.fromOpaque(data!).release() })
    }

    private static func from(_ data: gpointer?) -> FrameDelivery {
        Unmanaged<FrameDelivery>.fromOpaque(data!).takeUnretainedValue()
    }

    private func deliver(from sink: UnsafeMutablePointer<GstAppSink>, preroll: Bool) -> GstFlowReturn {
        let appsink = AppSink(borrowing: sink)
        guard let sample = preroll ? appsink.pullPreroll() : appsink.pullSample() else { return GST_FLOW_EOS }
        guard !isClosed, let buffer = sample.buffer, let caps = sample.caps else { return GST_FLOW_OK }
        let pts = me_buffer_pts(buffer)
        if preroll {
            let repeated = prerollBuffer != nil && prerollPTS == pts && pts != clockTimeNone
            prerollBuffer = UnsafeMutableRawPointer(buffer)
            prerollPTS = pts
            if repeated && !repeatWanted.exchange(false, ordering: .acquiringAndReleasing) { return GST_FLOW_OK }
        } else if prerollBuffer == UnsafeMutableRawPointer(buffer) && prerollPTS == pts {
            prerollBuffer = nil
            return GST_FLOW_OK
        } else {
            prerollBuffer = nil
        }
        if infoCaps?.pointer != caps {
            guard VideoInfo.read(caps, into: &info) else { return GST_FLOW_NOT_NEGOTIATED }
            infoCaps = Caps(borrowing: caps)
        }
        let handed: Void? = VideoFrame.mapping(
            sample, info: &info, as: consumer.format, scratch: scratch, index: delivered
        ) { frame in
            // Again after mapping (an RGBA frame's conversion takes a while): as late as can be.
            if !isClosed { consumer.handler(frame) }
        }
        guard handed != nil else { return GST_FLOW_NOT_NEGOTIATED }
        delivered += 1
        return GST_FLOW_OK
    }
}
