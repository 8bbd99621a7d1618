/// The pixel layouts the `frames` sink delivers.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Planar 4:2:0 YUV (Y, then U, then V); what most decoders produce, so it costs no conversion.
    case i420 = "I420"
    /// Semi-planar 4:2:0 YUV (Y, then interleaved UV).
    case nv12 = "NV12"
    /// Packed 8-bit red, green, blue, alpha.
    case rgba = "RGBA"
    /// Packed 8-bit blue, green, red, alpha.
    case bgra = "BGRA"

    /// GStreamer's name for the format (`I420`, `RGBA`, ...).
    public var gstreamerName: String { rawValue }

    /// GStreamer's name for the format.
    public var description: String { rawValue }

    /// The number of planes a frame of this format has.
    public var planeCount: Int {
        switch self {
        case .i420: 3
        case .nv12: 2
        case .rgba, .bgra: 1
        }
    }

    /// RGBA and BGRA: one plane of 4-byte pixels.
    var isPacked: Bool { self == .rgba || self == .bgra }
}
