internal import CGStreamer
internal import CGStreamerShim

extension VideoFrame {
    /// Maps a sample's buffer for reading (`gst_video_frame_map`), hands it to `body` as a
    /// ``VideoFrame`` and unmaps it afterwards.
    /// - Parameters:
    ///   - sample: The sample to map.
    ///   - info: The video info for the sample's caps, parsed by the caller (who may cache it).
    ///   - body: Reads the frame.
    /// - Returns: What `body` returned, or nil when the buffer cannot be mapped or has an
    ///   unsupported format.
    static func mapping<Result>(
        _ sample: Sample, info: inout GstVideoInfo, _ body: (borrowing VideoFrame) -> Result
    ) -> Result? {
        guard let buffer = sample.buffer else { return nil }
        let formatName = String(cString: gst_video_format_to_string(info.finfo.pointee.format))
        guard let format = PixelFormat(gstreamerName: formatName) else { return nil }
        var mapped = GstVideoFrame()
        guard gst_video_frame_map(&mapped, &info, buffer, GST_MAP_READ) != 0 else { return nil }
        defer { gst_video_frame_unmap(&mapped) }
        let planes = (0..<me_video_frame_plane_count(&mapped)).map { index in
            let stride = Int(me_video_frame_plane_stride(&mapped, index))
            let rows = Int(me_video_frame_plane_height(&mapped, index))
            let start = UnsafeRawPointer(me_video_frame_plane_data(&mapped, index))
            return FramePlane(
                buffer: UnsafeRawBufferPointer(start: start, count: stride * rows), stride: stride, rows: rows)
        }
        let pts = me_buffer_pts(buffer)
        let frame = VideoFrame(
            format: format, width: Int(info.width), height: Int(info.height),
            presentationTime: Duration(clockTime: sample.streamTime(of: pts)),
            duration: Duration(clockTime: me_buffer_duration(buffer)),
            runningTime: Duration(clockTime: sample.runningTime(of: pts)),
            isKeyframe: me_buffer_is_keyframe(buffer) != 0, planes: planes, sample: sample)
        return body(frame)
    }
}

extension VideoImage {
    /// Copies the pixels of a sample's buffer.
    init?(copying sample: Sample) {
        var info = GstVideoInfo()
        guard let caps = sample.caps, gst_video_info_from_caps(&info, caps) != 0,
            let image = VideoFrame.mapping(sample, info: &info, { $0.makeImage() })
        else { return nil }
        self = image
    }
}
