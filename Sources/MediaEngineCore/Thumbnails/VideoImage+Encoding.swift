internal import CMediaEngineCGStreamer
internal import CMediaEngineImages
import Foundation

extension VideoImage {
    /// A file format for ``encoded(as:)`` and ``write(to:format:)``.
    public enum FileFormat: Sendable, Hashable {
        /// PNG: lossless, keeps transparency.
        case png
        /// JPEG at a quality from 1 to 100.
        case jpeg(quality: Int)

        /// The format a file name's extension names: `png`, or `jpg`/`jpeg` (quality 85).
        /// - Parameter pathExtension: The extension, in any case.
        /// - Returns: The format, or nil for another extension.
        public init?(pathExtension: String) {
            switch pathExtension.lowercased() {
            case "png": self = .png
            case "jpg", "jpeg": self = .jpeg(quality: 85)
            default: return nil
            }
        }
    }

    /// An RGBA image from pixels of the app's own (a contact sheet, a picture drawn in Swift),
    /// to encode or write.
    /// - Parameters:
    ///   - width: Width in pixels.
    ///   - height: Height in pixels.
    ///   - rgba: `width * height * 4` bytes: red, green, blue, alpha, row after row.
    ///   - presentationTime: The time the picture belongs to, if any.
    /// - Throws: ``MediaError/Code/invalidArgument`` when the sizes and the bytes do not agree.
    public init(width: Int, height: Int, rgba: [UInt8], presentationTime: Duration? = nil) throws(MediaError) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, count <= Int.max / 4, rgba.count == count * 4 else {
            throw MediaError(
                .invalidArgument, "\(rgba.count) bytes are not the RGBA pixels of a \(width)x\(height) image")
        }
        self.init(
            format: .rgba, width: width, height: height, presentationTime: presentationTime, planes: [rgba],
            strides: [width * 4], matrix: .bt601)
    }

    /// The image encoded as PNG.
    /// - Returns: The PNG file's bytes.
    /// - Throws: ``MediaError`` as ``encoded(as:)``.
    public func pngData() throws(MediaError) -> Data {
        try encoded(as: .png)
    }

    /// The image encoded as JPEG.
    /// - Parameter quality: From 1 to 100.
    /// - Returns: The JPEG file's bytes.
    /// - Throws: ``MediaError`` as ``encoded(as:)``.
    public func jpegData(quality: Int = 85) throws(MediaError) -> Data {
        try encoded(as: .jpeg(quality: quality))
    }

    /// The image encoded by GStreamer's `pngenc` or `jpegenc` (as the images sink encodes),
    /// from any pixel format (converted to RGBA first). Blocks the calling thread for the
    /// encoding: a few milliseconds for a thumbnail.
    /// - Parameter format: PNG or JPEG.
    /// - Returns: The file's bytes.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a JPEG quality outside 1-100 or an empty
    ///   image; ``MediaError/Code/missingPlugin`` without the encoder; ``MediaError/Code/pipelineFailure``
    ///   when encoding fails.
    public func encoded(as format: FileFormat) throws(MediaError) -> Data {
        var quality = 0
        if case .jpeg(let q) = format {
            guard (1...100).contains(q) else {
                throw MediaError(.invalidArgument, "a JPEG quality is from 1 to 100, not \(q)")
            }
            quality = q
        }
        guard width > 0, height > 0 else { throw MediaError(.invalidArgument, "an empty image cannot be encoded") }
        try GStreamer.initialize()
        let rgba = convertedToRGBA()
        var error: UnsafeMutablePointer<gchar>?
        let bytes = rgba.planes[0].withUnsafeBufferPointer { pixels in
            me_encode_rgba(
                pixels.baseAddress, Int32(width), Int32(height), Int32(rgba.strides[0]), quality > 0 ? 1 : 0,
                Int32(quality), &error)
        }
        guard let bytes else {
            let message = takeGString(error) ?? "unknown error"
            if message.contains("no element") {
                throw MissingPluginAdvisor.errorForMissingFactory(quality > 0 ? "jpegenc" : "pngenc")
            }
            throw MediaError(.pipelineFailure, "the image could not be encoded: \(message)")
        }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return Data() }
        return Data(bytes: data, count: Int(size))
    }

    /// Frees the encoder pipelines ``encoded(as:)`` keeps between calls (a few, idle); the next
    /// encoding makes new ones. For leak and descriptor counts.
    package static func releaseEncoders() {
        me_release_image_encoders()
    }

    /// Encodes the image and writes it to a file (replacing it).
    /// - Parameters:
    ///   - url: The file.
    ///   - format: PNG or JPEG; nil for the one the file's extension names (PNG for others).
    /// - Throws: ``MediaError`` as ``encoded(as:)``; ``MediaError/Code/permissionDenied`` or
    ///   ``MediaError/Code/fileNotFound`` when the file cannot be written.
    public func write(to url: URL, format: FileFormat? = nil) throws(MediaError) {
        let data = try encoded(as: format ?? FileFormat(pathExtension: url.pathExtension) ?? .png)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            let folder = url.deletingLastPathComponent().path
            // Foundation reports ENOSPC and EDQUOT as fileWriteOutOfSpace; EFBIG (a file size limit) by its errno.
            let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            let outOfSpace =
                (error as? CocoaError)?.code == .fileWriteOutOfSpace
                || [Int(ENOSPC), Int(EFBIG), Int(EDQUOT)].contains(posix ?? 0)
            let code: MediaError.Code =
                outOfSpace
                ? .diskFull : FileManager.default.fileExists(atPath: folder) ? .permissionDenied : .fileNotFound
            throw MediaError(code, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
