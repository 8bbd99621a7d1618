internal import CMediaEngineCGStreamer

/// An appsink, as its streaming callbacks see it: a borrowed `GstAppSink *` (the sink calling them
/// holds it). Each method names the function it wraps. A struct of one pointer: pulling a frame
/// through it allocates nothing but the sample's own wrapper.
struct AppSink {
    let pointer: UnsafeMutablePointer<GstAppSink>

    init(borrowing pointer: UnsafeMutablePointer<GstAppSink>) {
        self.pointer = pointer
    }

    /// The appsink `element` is (borrowed from it: use while it lives).
    init(_ element: Element) {
        pointer = gcast(element.pointer)
    }

    /// `gst_app_sink_pull_sample`: the next sample, or nil at the end of the stream.
    @inline(__always)
    func pullSample() -> Sample? {
        gst_app_sink_pull_sample(pointer).map { Sample(owning: $0) }
    }

    /// `gst_app_sink_pull_preroll`: the preroll sample, or nil at the end of the stream.
    @inline(__always)
    func pullPreroll() -> Sample? {
        gst_app_sink_pull_preroll(pointer).map { Sample(owning: $0) }
    }

    /// `gst_app_sink_set_caps`.
    func setCaps(_ caps: Caps) {
        gst_app_sink_set_caps(pointer, caps.pointer)
    }

    /// `gst_app_sink_set_callbacks`: `callbacks` called with `data`, which `destroy` frees when
    /// the sink drops them (replaced, or the sink finalized).
    func setCallbacks(
        _ callbacks: inout GstAppSinkCallbacks, data: UnsafeMutableRawPointer, destroy: @escaping GDestroyNotify
    ) {
        gst_app_sink_set_callbacks(pointer, &callbacks, data, destroy)
    }
}
