import Foundation

/// Writes chosen frames as PNG or JPEG files into a folder: every Nth frame, or the frames on
/// screen at given times. `frame-00000.png`, `frame-00001.png`, ... in the order they are shown.
/// Built from GStreamer elements (`meframeselect ! videoconvert ! pngenc ! multifilesink`), so
/// frames that are not chosen are never encoded.
public struct ImageFileSink: VideoSink {
    /// The image format.
    public enum Format: Sendable, Hashable {
        /// PNG (lossless, keeps transparency).
        case png
        /// JPEG at a quality from 1 to 100.
        case jpeg(quality: Int)

        var fileExtension: String {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            }
        }

        /// The encoder's element factory.
        var encoderFactory: String {
            switch self {
            case .png: "pngenc"
            case .jpeg: "jpegenc"
            }
        }
    }

    /// Which frames to write.
    public enum Selection: Sendable, Hashable {
        /// Frames 0, N, 2N, ... of each playback (counting starts again after a seek).
        case everyNthFrame(Int)
        /// The frame on screen at each of these positions in the movie.
        case times([Duration])
    }

    /// The folder the files go into; it must exist and be writable.
    public let folder: URL
    /// The image format.
    public let format: Format
    /// Which frames are written.
    public let selection: Selection
    /// The size of the images (fitted by the player's scaling mode), or nil for the movie's.
    public let size: VideoSize?

    /// Creates the sink.
    /// - Parameters:
    ///   - folder: An existing, writable folder.
    ///   - format: PNG or JPEG.
    ///   - selection: Which frames to write.
    ///   - size: The images' size, or nil for the movie's.
    public init(folder: URL, format: Format = .png, selection: Selection, size: VideoSize? = nil) {
        self.folder = folder
        self.format = format
        self.selection = selection
        self.size = size
    }

    /// The largest N for ``Selection/everyNthFrame(_:)`` (the frame selector counts in 32 bits).
    public static let largestEvery = Int(UInt32.max)

    /// Files leave the machine's screen: ``VideoSinkCapabilities/external``.
    public static var capabilities: VideoSinkCapabilities { .external }

    /// `meframeselect` (the engine's own), `videoconvert`, `pngenc` or `jpegenc`, `multifilesink`.
    public var requiredElements: [String] { ["meframeselect", "videoconvert", format.encoderFactory, "multifilesink"] }

    /// The files this sink writes, in order: `frame-00000.png`, ...
    /// - Parameter index: The image's position in the sequence.
    /// - Returns: The file's URL.
    public func file(_ index: Int) -> URL {
        folder.appendingPathComponent(String(format: "frame-%05d.%@", index, format.fileExtension))
    }

    /// `meframeselect ! videoconvert ! pngenc|jpegenc ! multifilesink`.
    /// A write that fails while the movie plays (a disk that fills up, a folder made read-only or
    /// removed) stops playback with the player's `failed` event: ``MediaError/Code/diskFull``,
    /// ``MediaError/Code/permissionDenied`` or ``MediaError/Code/fileNotFound``. multifilesink
    /// writes each file whole (`g_file_set_contents`: a temporary file, then a rename), so a failed
    /// write leaves no partial file.
    /// - Throws: ``MediaError/Code/permissionDenied`` for a folder this process cannot write
    ///   into (a read-only file system, even as root); ``MediaError/Code/invalidArgument`` for a
    ///   folder that is not there, N outside 1...``largestEvery``, no times or times outside 0 to about 292 years
    ///   (a GStreamer clock time), a JPEG quality outside 1-100.
    public func makeOutput() throws(MediaError) -> VideoOutput {
        try checkFolder()
        let select: String
        switch selection {
        case .everyNthFrame(let n):
            guard (1...Self.largestEvery).contains(n) else {
                throw MediaError(
                    .invalidArgument, "every Nth frame needs N from 1 to \(Self.largestEvery), not \(n)")
            }
            select = "meframeselect every=\(n)"
        case .times(let times):
            guard !times.isEmpty, times.allSatisfy({ $0 >= .zero && $0 <= .latestClockTime }) else {
                throw MediaError(
                    .invalidArgument,
                    "image times must be one or more, from 0 to \(Duration.latestClockTime.formattedSeconds)")
            }
            let seconds = times.map { String(format: "%.6f", $0.inSeconds) }.joined(separator: ",")
            select = "meframeselect times=\"\(seconds)\""
        }
        var encoder = format.encoderFactory
        if case .jpeg(let quality) = format {
            guard (1...100).contains(quality) else {
                throw MediaError(.invalidArgument, "a JPEG quality is from 1 to 100, not \(quality)")
            }
            encoder += " quality=\(quality)"
        }
        // multifilesink formats its location with printf: a `%` of the folder's own is doubled,
        // or `%s` and `%n` in a folder's name would read or write memory.
        let pattern = folder.path.replacingOccurrences(of: "%", with: "%%") + "/frame-%05d.\(format.fileExtension)"
        let location =
            "\"" + pattern.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
        return .element(
            .bin("\(select) ! videoconvert ! \(encoder) ! multifilesink sync=false location=\(location)"), size: size)
    }

    /// Checks that ``folder`` is a folder this process can write into, without writing: what the
    /// registry's `images` factory checks, and ``makeOutput()`` again.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a folder that is not there,
    ///   ``MediaError/Code/permissionDenied`` for one this process cannot write into.
    func checkFolder() throws(MediaError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw MediaError(.invalidArgument, "\(folder.path) is not a writable folder")
        }
        // access(2): a read-only file system refuses root too.
        guard FileManager.default.isWritableFile(atPath: folder.path) else {
            throw MediaError(.permissionDenied, "\(folder.path) is not a writable folder")
        }
    }
}
