internal import CGStreamer
internal import CGStreamerShim

extension VideoFrame {
    /// Maps a sample's buffer for reading (`gst_video_frame_map`), converts it to `target` when
    /// that is a packed format and the buffer holds YUV (see ``PackedConversion``), hands it to
    /// `body` as a ``VideoFrame`` and unmaps it afterwards.
    /// - Parameters:
    ///   - sample: The sample to map.
    ///   - info: The video info for the sample's caps, parsed by the caller (who may cache it).
    ///   - target: The format `body` wants, or nil for the buffer's own.
    ///   - scratch: Where converted pixels go (reused from frame to frame).
    ///   - body: Reads the frame.
    /// - Returns: What `body` returned, or nil when the buffer cannot be mapped or converted.
    static func mapping<Result>(
        _ sample: Sample, info: inout GstVideoInfo, as target: PixelFormat? = nil, scratch: ConversionScratch? = nil,
        _ body: (borrowing VideoFrame) -> Result
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
        let width = Int(info.width)
        let height = Int(info.height)
        var delivered = format
        var deliveredPlanes = planes
        if let target, target != format {
            let stride = width * 4
            let storage = scratch ?? ConversionScratch()
            let destination = storage.reserve(stride * height)
            guard
                PackedConversion.convert(
                    planes, format: format, width: width, height: height, matrix: PackedConversion.matrix(of: info),
                    to: target, into: destination, stride: stride)
            else { return nil }
            delivered = target
            deliveredPlanes = [
                FramePlane(
                    buffer: UnsafeRawBufferPointer(start: destination, count: stride * height), stride: stride,
                    rows: height)
            ]
            return withExtendedLifetime(storage) {
                body(
                    VideoFrame(
                        format: delivered, width: width, height: height,
                        presentationTime: Duration(clockTime: sample.streamTime(of: pts)),
                        duration: Duration(clockTime: me_buffer_duration(buffer)),
                        runningTime: Duration(clockTime: sample.runningTime(of: pts)),
                        isKeyframe: me_buffer_is_keyframe(buffer) != 0, planes: deliveredPlanes, sample: sample))
            }
        }
        return body(
            VideoFrame(
                format: delivered, width: width, height: height,
                presentationTime: Duration(clockTime: sample.streamTime(of: pts)),
                duration: Duration(clockTime: me_buffer_duration(buffer)),
                runningTime: Duration(clockTime: sample.runningTime(of: pts)),
                isKeyframe: me_buffer_is_keyframe(buffer) != 0, planes: deliveredPlanes, sample: sample))
    }
}

extension VideoImage {
    /// Copies the pixels of a sample's buffer, converted to `format` if given.
    init?(copying sample: Sample, as format: PixelFormat? = nil) {
        var info = GstVideoInfo()
        guard let caps = sample.caps, gst_video_info_from_caps(&info, caps) != 0,
            let image = VideoFrame.mapping(sample, info: &info, as: format, { $0.makeImage() })
        else { return nil }
        self = image
    }
}
