internal import CMediaEngineCGStreamer
internal import CMediaEngineCYUV
internal import CMediaEngineGlue

/// Converts decoded YUV frames (I420 or NV12, as decoders produce them) to packed RGBA or BGRA
/// with libyuv's SIMD code: several times faster than `videoconvert`, and the reason the
/// `frames` sink asks GStreamer for YUV even when the app wants RGBA.
struct PackedConversion {
    /// The YUV-to-RGB matrix and range of the source, from its caps' colorimetry.
    enum Matrix: Int32, Sendable, Equatable {
        case bt601 = 0
        case bt601Full = 1
        case bt709 = 2
        case bt709Full = 3
        case bt2020 = 4
    }

    /// Which matrix GStreamer's caps describe (BT.601 for SD and unknown, BT.709 for HD).
    static func matrix(of info: GstVideoInfo) -> Matrix {
        let full = info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255
        switch info.colorimetry.matrix {
        case GST_VIDEO_COLOR_MATRIX_BT709: return full ? .bt709Full : .bt709
        case GST_VIDEO_COLOR_MATRIX_BT2020: return .bt2020
        default: return full ? .bt601Full : .bt601
        }
    }

    /// Writes `target` pixels (RGBA or BGRA) for a mapped I420 or NV12 source.
    /// - Returns: False when the pair of formats is not one this converter handles.
    static func convert(
        _ source: [FramePlane], format: PixelFormat, width: Int, height: Int, matrix: Matrix,
        to target: PixelFormat, into destination: UnsafeMutableRawPointer, stride: Int
    ) -> Bool {
        // libyuv names formats by 32-bit words: its "ARGB" is B, G, R, A in memory (BGRA), and
        // RGBA comes from the same routine with U and V swapped and the mirrored matrix.
        let swapChroma = target == .rgba
        guard target == .rgba || target == .bgra else { return false }
        // libyuv's own table, not a copy: it must stay 32-byte aligned for the AVX2 code.
        let constants = me_yuv_constants(matrix.rawValue, swapChroma ? 1 : 0)
        let out = destination.assumingMemoryBound(to: UInt8.self)
        func plane(_ index: Int) -> UnsafePointer<UInt8> {
            source[index].buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        }
        let w = Int32(width)
        let h = Int32(height)
        switch format {
        case .i420:
            let (u, v) = swapChroma ? (2, 1) : (1, 2)
            return I420ToARGBMatrix(
                plane(0), Int32(source[0].stride), plane(u), Int32(source[u].stride), plane(v), Int32(source[v].stride),
                out, Int32(stride), constants, w, h) == 0
        case .nv12:
            let convert = swapChroma ? NV21ToARGBMatrix : NV12ToARGBMatrix
            return convert(
                plane(0), Int32(source[0].stride), plane(1), Int32(source[1].stride), out, Int32(stride), constants, w,
                h)
                == 0
        case .rgba, .bgra:
            return false
        }
    }
}

extension PackedConversion {
    /// An owned RGBA copy (rows of `width * 4` bytes) of a frame's planes in any format the
    /// frames sink delivers: YUV through ``convert(_:format:width:height:matrix:to:into:stride:)``,
    /// BGRA with red and blue swapped, RGBA row by row.
    static func rgbaImage(
        of planes: [FramePlane], format: PixelFormat, width: Int, height: Int, matrix: Matrix,
        presentationTime: Duration?
    ) -> VideoImage {
        let stride = width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            let destination = UnsafeMutableRawPointer(base)
            switch format {
            case .i420, .nv12:
                let converted = convert(
                    planes, format: format, width: width, height: height, matrix: matrix, to: .rgba, into: destination,
                    stride: stride)
                precondition(converted, "libyuv did not convert a \(format) frame of \(width)x\(height)")
            case .bgra:
                // libyuv's ABGRToARGB swaps bytes 0 and 2 of each pixel: BGRA to RGBA in memory.
                let source = planes[0].buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                _ = ABGRToARGB(
                    source, Int32(planes[0].stride), destination.assumingMemoryBound(to: UInt8.self), Int32(stride),
                    Int32(width), Int32(height))
            case .rgba:
                for row in 0..<height {
                    let source = planes[0].buffer.baseAddress! + row * planes[0].stride
                    (destination + row * stride).copyMemory(from: source, byteCount: stride)
                }
            }
            count = stride * height
        }
        return VideoImage(
            format: .rgba, width: width, height: height, presentationTime: presentationTime, planes: [pixels],
            strides: [stride], matrix: matrix)
    }
}

/// A reusable destination for converted frames, grown as needed; used by one streaming thread.
final class ConversionScratch {
    private(set) var pointer: UnsafeMutableRawPointer?
    private var capacity = 0

    /// Memory for at least `count` bytes, 64-byte aligned for SIMD stores.
    func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if count > capacity {
            pointer?.deallocate()
            pointer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
            capacity = count
        }
        return pointer!
    }

    deinit {
        pointer?.deallocate()
    }
}
