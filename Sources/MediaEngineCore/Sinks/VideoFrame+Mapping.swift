internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

extension VideoFrame {
    /// Maps a sample's buffer for reading (`gst_video_frame_map`), converts it to `target` when
    /// that is a packed format and the buffer holds YUV (see ``PackedConversion``), hands it to
    /// `body` as a ``VideoFrame`` and unmaps it afterwards.
    /// - Parameters:
    ///   - sample: The sample to map.
    ///   - info: The video info for the sample's caps, parsed by the caller (who may cache it).
    ///   - target: The format `body` wants, or nil for the buffer's own.
    ///   - scratch: Where converted pixels go (reused from frame to frame).
    ///   - index: The frame's ``VideoFrame/index``.
    ///   - body: Reads the frame.
    /// - Returns: What `body` returned, or nil when the buffer cannot be mapped or converted.
    static func mapping<Result>(
        _ sample: Sample, info: inout GstVideoInfo, as target: PixelFormat? = nil, scratch: ConversionScratch? = nil,
        index: Int = 0, _ body: (borrowing VideoFrame) -> Result
    ) -> Result? {
        guard let buffer = sample.buffer else { return nil }
        guard let format = PixelFormat(info.finfo.pointee.format) else { return nil }
        var mapped = GstVideoFrame()
        guard VideoInfo.map(&mapped, buffer, info: &info) else { return nil }
        defer { VideoInfo.unmap(&mapped) }
        let planes = (0..<me_video_frame_plane_count(&mapped)).map { index in
            let stride = Int(me_video_frame_plane_stride(&mapped, index))
            let rows = Int(me_video_frame_plane_height(&mapped, index))
            let start = UnsafeRawPointer(me_video_frame_plane_data(&mapped, index))
            return FramePlane(
                buffer: UnsafeRawBufferPointer(start: start, count: stride * rows), stride: stride, rows: rows)
        }
        let pts = me_buffer_pts(buffer)
        let matrix = PackedConversion.matrix(of: info)
        let width = Int(info.width)
        let height = Int(info.height)
        // The pixels handed over: the buffer's own planes, or the packed conversion of them.
        var delivered = (format: format, planes: planes)
        var storage: ConversionScratch? = nil
        if let target, target != format {
            let stride = width * 4
            let scratch = scratch ?? ConversionScratch()
            let destination = scratch.reserve(stride * height)
            guard
                PackedConversion.convert(
                    planes, format: format, width: width, height: height, matrix: matrix,
                    to: target, into: destination, stride: stride)
            else { return nil }
            let converted = FramePlane(
                buffer: UnsafeRawBufferPointer(start: destination, count: stride * height), stride: stride, rows: height
            )
            delivered = (target, [converted])
            storage = scratch
        }
        // One construction site: the optimizer (Swift 6.3.1, -O) crashes specializing a
        // non-copyable value built inside a nested function.
        let frame = VideoFrame(
            format: delivered.format, width: width, height: height,
            presentationTime: Duration(clockTime: sample.streamTime(of: pts)),
            duration: Duration(clockTime: me_buffer_duration(buffer)),
            runningTime: Duration(clockTime: sample.runningTime(of: pts)),
            isKeyframe: me_buffer_is_keyframe(buffer) != 0, index: index, planes: delivered.planes, sample: sample,
            matrix: matrix)
        return withExtendedLifetime(storage) { body(frame) }
    }
}

extension PixelFormat {
    /// The format for a GStreamer video format, or nil for one the `frames` sink does not deliver.
    /// Read once per frame, so it compares the enum rather than GStreamer's format name.
    init?(_ format: GstVideoFormat) {
        switch format {
        case GST_VIDEO_FORMAT_I420: self = .i420
        case GST_VIDEO_FORMAT_NV12: self = .nv12
        case GST_VIDEO_FORMAT_RGBA: self = .rgba
        case GST_VIDEO_FORMAT_BGRA: self = .bgra
        default: return nil
        }
    }
}

extension VideoImage {
    /// Copies the pixels of a sample's buffer, converted to `format` if given.
    init?(copying sample: Sample, as format: PixelFormat? = nil) {
        var info = GstVideoInfo()
        guard let caps = sample.caps, VideoInfo.read(caps, into: &info),
            let image = VideoFrame.mapping(sample, info: &info, as: format, { $0.makeImage() })
        else { return nil }
        self = image
    }
}
