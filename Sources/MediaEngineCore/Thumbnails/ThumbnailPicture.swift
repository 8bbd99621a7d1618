internal import CMediaEngineCGStreamer
internal import CMediaEngineCYUV
internal import CMediaEngineGlue
internal import CMediaEngineThumbnails

/// Turns a decoded picture into the thumbnail: fitted into the maximum size by its display
/// aspect ratio (pixel aspect ratio applied), turned by the orientation tag, converted to RGBA;
/// all with libyuv (box-filter scaling, then rotation of the small picture, then conversion).
enum ThumbnailPicture {
    /// The largest side the engine makes (as the player's natural size).
    static let largestSide = 16384

    /// The picture's size: `width`x`height` stored pixels with a pixel aspect ratio, turned a
    /// quarter when `quarterTurn`, fitted into `maximum` (never enlarged).
    static func size(
        width: Int, height: Int, parN: Int, parD: Int, quarterTurn: Bool, maximum: VideoSize?
    ) -> VideoSize {
        var displayWidth = Double(width)
        if parN > 0, parD > 0 { displayWidth = Double(width) * Double(parN) / Double(parD) }
        var shown = (w: displayWidth, h: Double(height))
        if quarterTurn { shown = (shown.h, shown.w) }
        var scale = 1.0
        if let maximum, maximum.width > 0, maximum.height > 0 {
            scale = min(1, Double(maximum.width) / shown.w, Double(maximum.height) / shown.h)
        }
        scale = min(scale, Double(largestSide) / shown.w, Double(largestSide) / shown.h)
        func side(_ value: Double) -> Int { Int(max(1, min(Double(largestSide), (value * scale).rounded()))) }
        return VideoSize(width: side(shown.w), height: side(shown.h))
    }

    /// The thumbnail for a decoded sample.
    /// - Parameters:
    ///   - sample: The picture (any raw format; I420 and NV12 directly).
    ///   - orientation: `me_thumbnailer_orientation`'s code.
    ///   - maximum: The size to fit in, or nil for the display size.
    /// - Returns: The RGBA image, or nil when the picture cannot be mapped.
    static func image(of sample: Sample, orientation: Int, maximum: VideoSize?) -> VideoImage? {
        var sample = sample
        var info = GstVideoInfo()
        guard let caps = sample.caps, VideoInfo.read(caps, into: &info) else { return nil }
        if info.finfo.pointee.format != GST_VIDEO_FORMAT_I420 && info.finfo.pointee.format != GST_VIDEO_FORMAT_NV12 {
            guard let converted = me_sample_to_i420(sample.pointer) else { return nil }
            sample = Sample(owning: converted)
            guard let caps = sample.caps, VideoInfo.read(caps, into: &info) else { return nil }
        }
        let presentationTime = sample.buffer.flatMap { Duration(clockTime: sample.streamTime(of: me_buffer_pts($0))) }
        let turns = orientation % 4
        let mirrored = orientation >= 4
        let output = size(
            width: Int(info.width), height: Int(info.height), parN: Int(info.par_n), parD: Int(info.par_d),
            quarterTurn: turns % 2 == 1, maximum: maximum)
        // Scaled in the stored orientation, then turned.
        let scaled = turns % 2 == 1 ? VideoSize(width: output.height, height: output.width) : output
        return VideoFrame.mapping(sample, info: &info) { frame in
            render(frame, scaled: scaled, output: output, turns: turns, mirrored: mirrored, time: presentationTime)
        } ?? nil
    }

    private static func render(
        _ frame: borrowing VideoFrame, scaled: VideoSize, output: VideoSize, turns: Int, mirrored: Bool,
        time: Duration?
    ) -> VideoImage? {
        // Plain values first: Swift 6.3.1 crashes compiling closures that capture a borrowed frame.
        let format = frame.format
        let width = Int32(frame.width)
        let height = Int32(frame.height)
        let matrix = frame.matrix
        let source = frame.planes.map { $0.buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) }
        let sourceStrides = frame.planes.map { Int32($0.stride) }
        var planes = I420Planes(width: scaled.width, height: scaled.height)
        let ok = planes.mutate { y, u, v, strides in
            switch format {
            case .i420:
                I420Scale(
                    source[0], sourceStrides[0], source[1], sourceStrides[1], source[2], sourceStrides[2], width,
                    height, y, strides[0], u, strides[1], v, strides[2], Int32(scaled.width), Int32(scaled.height),
                    kFilterBox) == 0
            case .nv12:
                scaleNV12(
                    source, sourceStrides, width: Int(width), height: Int(height), into: (y, u, v), strides: strides,
                    size: scaled)
            case .rgba, .bgra:
                false
            }
        }
        guard ok else { return nil }
        if mirrored { planes = planes.mirrored() }
        if turns != 0 { planes = planes.rotated(quarterTurns: turns) }
        return planes.rgbaImage(matrix: matrix, time: time)
    }

    private static func scaleNV12(
        _ source: [UnsafePointer<UInt8>], _ sourceStrides: [Int32], width: Int, height: Int,
        into destination: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>),
        strides: [Int32], size: VideoSize
    ) -> Bool {
        // Scale as NV12, then split the chroma.
        let chromaWidth = (size.width + 1) / 2
        let chromaHeight = (size.height + 1) / 2
        let y = destination.0
        let uv = UnsafeMutablePointer<UInt8>.allocate(capacity: chromaWidth * 2 * chromaHeight)
        defer { uv.deallocate() }
        guard
            NV12Scale(
                source[0], sourceStrides[0], source[1], sourceStrides[1], Int32(width), Int32(height), y, strides[0],
                uv, Int32(chromaWidth * 2), Int32(size.width), Int32(size.height), kFilterBox) == 0
        else { return false }
        SplitUVPlane(
            uv, Int32(chromaWidth * 2), destination.1, strides[1], destination.2, strides[2], Int32(chromaWidth),
            Int32(chromaHeight))
        return true
    }
}

/// An owned I420 picture, for the thumbnail's scaling, turning and conversion.
struct I420Planes {
    let width: Int
    let height: Int
    var y: [UInt8]
    var u: [UInt8]
    var v: [UInt8]

    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        y = [UInt8](repeating: 0, count: width * height)
        u = [UInt8](repeating: 128, count: ((width + 1) / 2) * ((height + 1) / 2))
        v = u
    }

    mutating func mutate<Result>(
        _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, [Int32]) ->
            Result
    ) -> Result {
        let strides = [Int32(width), Int32(chromaWidth), Int32(chromaWidth)]
        return y.withUnsafeMutableBufferPointer { y in
            u.withUnsafeMutableBufferPointer { u in
                v.withUnsafeMutableBufferPointer { v in
                    body(y.baseAddress!, u.baseAddress!, v.baseAddress!, strides)
                }
            }
        }
    }

    /// Mirrored left to right.
    func mirrored() -> I420Planes {
        var source = self
        var target = I420Planes(width: width, height: height)
        source.mutate { sy, su, sv, ss in
            target.mutate { ty, tu, tv, ts in
                _ = I420Mirror(
                    sy, ss[0], su, ss[1], sv, ss[2], ty, ts[0], tu, ts[1], tv, ts[2], Int32(width), Int32(height))
            }
        }
        return target
    }

    /// Turned clockwise by `quarterTurns` quarters (1-3).
    func rotated(quarterTurns: Int) -> I420Planes {
        let mode: RotationMode = quarterTurns == 1 ? kRotate90 : quarterTurns == 2 ? kRotate180 : kRotate270
        var source = self
        var target =
            quarterTurns == 2 ? I420Planes(width: width, height: height) : I420Planes(width: height, height: width)
        source.mutate { sy, su, sv, ss in
            target.mutate { ty, tu, tv, ts in
                _ = I420Rotate(
                    sy, ss[0], su, ss[1], sv, ss[2], ty, ts[0], tu, ts[1], tv, ts[2], Int32(width), Int32(height), mode)
            }
        }
        return target
    }

    /// Converted to RGBA with the movie's matrix.
    func rgbaImage(matrix: PackedConversion.Matrix, time: Duration?) -> VideoImage {
        y.withUnsafeBytes { y in
            u.withUnsafeBytes { u in
                v.withUnsafeBytes { v in
                    PackedConversion.rgbaImage(
                        of: [
                            FramePlane(buffer: y, stride: width, rows: height),
                            FramePlane(buffer: u, stride: chromaWidth, rows: chromaHeight),
                            FramePlane(buffer: v, stride: chromaWidth, rows: chromaHeight),
                        ], format: .i420, width: width, height: height, matrix: matrix, presentationTime: time)
                }
            }
        }
    }
}
