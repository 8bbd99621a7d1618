/// One decoded frame, mapped in memory without a copy, valid only inside the callback that
/// receives it.
///
/// `VideoFrame` is non-copyable and handed to callbacks `borrowing`, so the compiler refuses
/// code that would keep it after the callback returns (the engine unmaps the frame then).
/// Read its pixels with ``withBytes(ofPlane:_:)`` or ``color(atX:y:)``, or keep an owned copy
/// with ``makeImage()`` (as delivered) or ``makeRGBAImage()`` (converted to RGBA).
///
/// Swift 6.3.1 crashes (signal 11) compiling a nested function or closure that captures a
/// borrowed `VideoFrame`. Pass the frame to such a helper as a `borrowing` parameter instead
/// (`func centre(_ frame: borrowing VideoFrame) -> RGBAColor`), or use the helpers here, which
/// cover the common work: a pixel's colour, an RGBA copy, the frame's number and times
/// (``index``, ``presentationTime`` and `Duration/inSeconds`).
public struct VideoFrame: ~Copyable {
    /// The layout of the pixels.
    public let format: PixelFormat
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The frame's position in the movie (stream time), if it has one.
    public let presentationTime: Duration?
    /// How long the frame is shown, if known.
    public let duration: Duration?
    /// The frame's running time in its segment (`gst_segment_to_running_time`): it grows across a
    /// gapless loop's passes and is reset by flushing seeks. A rate set with a seek shows in it
    /// (at 2x it grows half as fast as ``presentationTime``); an instant rate change does not,
    /// since GStreamer applies that in the sink.
    public let runningTime: Duration?
    /// Whether the frame was a keyframe in the compressed stream.
    public let isKeyframe: Bool
    /// The frame's number among the frames its sink delivered: 0 for the first frame the sink's
    /// output handed over after the player attached it (when preparing the movie, or when
    /// ``MoviePlayer/setVideoSink(_:)`` moved the video to it), then 1, 2, ... in delivery order.
    /// Seeks, loops and rate changes do not reset it; frames a sink skips (``FrameSink``'s
    /// `every`) are not counted. For the frame's place in the movie, read ``presentationTime``.
    public let index: Int

    let planes: [FramePlane]
    let sample: Sample
    /// The YUV-to-RGB matrix the movie's caps give, for ``makeRGBAImage()``.
    let matrix: PackedConversion.Matrix

    /// The number of planes (3 for I420, 2 for NV12, 1 for RGBA and BGRA).
    public var planeCount: Int { planes.count }

    /// The distance in bytes between the starts of two rows of a plane.
    /// - Parameter plane: The plane's index.
    /// - Returns: The stride in bytes.
    public func stride(ofPlane plane: Int) -> Int { planes[plane].stride }

    /// The number of rows in a plane (half the height for the chroma planes of 4:2:0 formats).
    /// - Parameter plane: The plane's index.
    /// - Returns: The number of rows.
    public func rows(ofPlane plane: Int) -> Int { planes[plane].rows }

    /// Gives `body` the bytes of a plane (``rows(ofPlane:)`` rows of ``stride(ofPlane:)`` bytes)
    /// without copying them.
    /// - Parameters:
    ///   - plane: The plane's index.
    ///   - body: Reads the bytes; the span is valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withBytes<Result, Failure: Error>(
        ofPlane plane: Int, _ body: (RawSpan) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let buffer = planes[plane].buffer
        return try body(buffer.bytes)
    }

    /// The colour of the pixel at (`x`, `y`), converted to RGBA (limited-range BT.601 for YUV
    /// formats), for any format the frames sink delivers: I420, NV12, RGBA or BGRA.
    /// - Parameters:
    ///   - x: Column, from 0 at the left.
    ///   - y: Row, from 0 at the top.
    /// - Returns: The pixel's colour.
    public func color(atX x: Int, y: Int) -> RGBAColor {
        precondition(
            x >= 0 && x < width && y >= 0 && y < height, "(\(x), \(y)) is outside the \(width)x\(height) frame")
        return PixelReader.color(format: format, x: x, y: y, strides: planes.map(\.stride)) { plane, offset in
            planes[plane].buffer[offset]
        }
    }

    /// An owned copy of the frame, in the format it was delivered in, that may outlive the
    /// callback and cross threads.
    /// - Returns: The copy.
    public func makeImage() -> VideoImage {
        VideoImage(
            format: format, width: width, height: height, presentationTime: presentationTime,
            planes: planes.map { Array($0.buffer) }, strides: planes.map(\.stride), matrix: matrix)
    }

    /// An owned copy of the frame converted to RGBA (one plane, rows of `width * 4` bytes), from
    /// any format the frames sink delivers. YUV is converted with libyuv and the matrix the
    /// movie's caps name (BT.601 for SD and unknown, BT.709 for HD), as a sink asked for
    /// ``PixelFormat/rgba`` would; BGRA has its channels swapped; RGBA is copied.
    /// - Returns: The RGBA copy.
    public func makeRGBAImage() -> VideoImage {
        PackedConversion.rgbaImage(
            of: planes, format: format, width: width, height: height, matrix: matrix,
            presentationTime: presentationTime)
    }
}

/// Where one plane of a mapped frame lies in memory.
struct FramePlane {
    let buffer: UnsafeRawBufferPointer
    let stride: Int
    let rows: Int
}

/// Reads one pixel of any supported format through an accessor, shared by frames and images.
enum PixelReader {
    static func color(
        format: PixelFormat, x: Int, y: Int, strides: [Int], byte: (_ plane: Int, _ offset: Int) -> UInt8
    ) -> RGBAColor {
        switch format {
        case .i420:
            return RGBAColor(
                y: byte(0, y * strides[0] + x), u: byte(1, (y / 2) * strides[1] + x / 2),
                v: byte(2, (y / 2) * strides[2] + x / 2))
        case .nv12:
            let chroma = (y / 2) * strides[1] + (x / 2) * 2
            return RGBAColor(y: byte(0, y * strides[0] + x), u: byte(1, chroma), v: byte(1, chroma + 1))
        case .rgba:
            let offset = y * strides[0] + x * 4
            return RGBAColor(
                red: byte(0, offset), green: byte(0, offset + 1), blue: byte(0, offset + 2), alpha: byte(0, offset + 3))
        case .bgra:
            let offset = y * strides[0] + x * 4
            return RGBAColor(
                red: byte(0, offset + 2), green: byte(0, offset + 1), blue: byte(0, offset), alpha: byte(0, offset + 3))
        }
    }
}
