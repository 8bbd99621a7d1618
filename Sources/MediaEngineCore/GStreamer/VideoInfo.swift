internal import CMediaEngineCGStreamer

/// `GstVideoInfo` read from caps, and frames mapped with it, each by the function its doc names.
/// Called per frame: plain calls, the frame mapped into the caller's own `GstVideoFrame`.
enum VideoInfo {
    /// `gst_video_info_from_caps` into `info`; false for caps that are not raw video.
    @inline(__always)
    static func read(_ caps: UnsafeMutablePointer<GstCaps>, into info: inout GstVideoInfo) -> Bool {
        gst_video_info_from_caps(&info, caps) != 0
    }

    /// Maps `buffer` for reading into `frame` as `info` says (`gst_video_frame_map`); false when it
    /// cannot be mapped. Every successful map is paired with ``unmap(_:)`` (a `defer` right after).
    @inline(__always)
    static func map(
        _ frame: inout GstVideoFrame, _ buffer: UnsafeMutablePointer<GstBuffer>, info: inout GstVideoInfo
    ) -> Bool {
        gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0
    }

    /// `gst_video_frame_unmap`.
    @inline(__always)
    static func unmap(_ frame: inout GstVideoFrame) {
        gst_video_frame_unmap(&frame)
    }
}
