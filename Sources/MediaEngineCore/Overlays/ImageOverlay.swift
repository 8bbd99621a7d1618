internal import CMediaEngineCGStreamer
internal import CMediaEngineImages
import Foundation

/// A picture over the movie: PNG or JPEG (anything GStreamer decodes), transparency kept, at its
/// natural size or scaled by its placement's width and height.
///
/// The file is decoded once, when the overlay is made; a missing, unreadable or damaged file is
/// a typed error then, never a failure during playback.
public struct ImageOverlay: VideoOverlay {
    /// The decoded picture.
    public let image: OverlayBitmap
    /// Where the overlay goes and how big it is.
    public var placement: OverlayPlacement
    /// Higher values draw over lower ones.
    public var zOrder: Int
    /// Whether the overlay is drawn.
    public var isVisible: Bool
    /// 0 (invisible) to 1 (as the pixels' own alpha says).
    public var opacity: Double
    /// When the overlay shows, or nil for the whole movie.
    public var timeRange: Range<Duration>?
    /// Areas that react to clicks, in the bitmap's pixels.
    public var hitRegions: [OverlayHitRegion]

    /// An overlay of a picture already in memory.
    /// - Parameters:
    ///   - image: The pixels.
    ///   - placement: Where it goes; without a width and height, at natural size.
    ///   - zOrder: Higher draws over lower.
    ///   - opacity: 0 to 1.
    ///   - timeRange: When it shows, or nil for always.
    ///   - hitRegions: Areas that react to clicks, in the picture's pixels.
    public init(
        image: OverlayBitmap, placement: OverlayPlacement = .absolute(x: 0, y: 0), zOrder: Int = 0,
        opacity: Double = 1, timeRange: Range<Duration>? = nil, hitRegions: [OverlayHitRegion] = []
    ) {
        self.image = image
        self.placement = placement
        self.zOrder = zOrder
        self.isVisible = true
        self.opacity = opacity
        self.timeRange = timeRange
        self.hitRegions = hitRegions
    }

    /// An overlay of a picture file, decoded on a thread of its own while the calling task waits
    /// (decoding runs a small GStreamer pipeline, which no task's thread should wait for).
    /// - Parameters:
    ///   - url: A file URL of a PNG or JPEG.
    ///   - placement: Where it goes; without a width and height, at natural size.
    ///   - zOrder: Higher draws over lower.
    ///   - opacity: 0 to 1.
    ///   - timeRange: When it shows, or nil for always.
    ///   - hitRegions: Areas that react to clicks, in the picture's pixels.
    /// - Throws: ``MediaError`` with ``MediaError/Code/fileNotFound``, ``MediaError/Code/permissionDenied``,
    ///   ``MediaError/Code/isDirectory``, ``MediaError/Code/notRegularFile``, ``MediaError/Code/emptyFile``,
    ///   or ``MediaError/Code/notAnImage`` for content that is not a picture or is damaged.
    public init(
        contentsOf url: URL, placement: OverlayPlacement = .absolute(x: 0, y: 0), zOrder: Int = 0,
        opacity: Double = 1, timeRange: Range<Duration>? = nil, hitRegions: [OverlayHitRegion] = []
    ) async throws(MediaError) {
        let image = try await BlockingWork.run { () throws(MediaError) in try Self.decodeFile(url) }
        self.init(
            image: image, placement: placement, zOrder: zOrder, opacity: opacity, timeRange: timeRange,
            hitRegions: hitRegions)
    }

    /// An overlay of a picture file, decoded on the calling thread (which waits for GStreamer, up
    /// to 5 seconds for a damaged file): for code outside any task. From a task, the `async`
    /// initializer decodes without holding the task's thread.
    /// - Parameters:
    ///   - url: A file URL of a PNG or JPEG.
    ///   - placement: Where it goes; without a width and height, at natural size.
    ///   - zOrder: Higher draws over lower.
    ///   - opacity: 0 to 1.
    ///   - timeRange: When it shows, or nil for always.
    ///   - hitRegions: Areas that react to clicks, in the picture's pixels.
    /// - Throws: ``MediaError`` with ``MediaError/Code/fileNotFound``, ``MediaError/Code/permissionDenied``,
    ///   ``MediaError/Code/isDirectory``, ``MediaError/Code/notRegularFile``, ``MediaError/Code/emptyFile``,
    ///   ``MediaError/Code/notAnImage`` for content that is not a picture or is damaged, or
    ///   ``MediaError/Code/tooLarge`` for a file over 64 MiB or a picture past ``MediaLimits``.
    @available(*, noasync, message: "decodes on the calling thread; from a task, use the async initializer")
    public init(
        contentsOf url: URL, placement: OverlayPlacement = .absolute(x: 0, y: 0), zOrder: Int = 0,
        opacity: Double = 1, timeRange: Range<Duration>? = nil, hitRegions: [OverlayHitRegion] = []
    ) throws(MediaError) {
        self.init(
            image: try Self.decodeFile(url), placement: placement, zOrder: zOrder, opacity: opacity,
            timeRange: timeRange, hitRegions: hitRegions)
    }

    private static func decodeFile(_ url: URL) throws(MediaError) -> OverlayBitmap {
        let bytes = try OverlayFile.read(url, kind: "picture")
        do {
            return try OverlayBitmap(decoding: bytes)
        } catch  where error.code == .tooLarge {
            throw MediaError(.tooLarge, "\(url.path): \(error.message)", debugDetail: error.debugDetail)
        } catch {
            throw MediaError(
                .notAnImage, "\(url.path) is not a picture: \(error.message)", debugDetail: error.debugDetail)
        }
    }

    /// The pixels for one frame (see ``VideoOverlay/bitmap(for:)``).
    public func bitmap(for request: OverlayRenderRequest) -> OverlayBitmap? { image }
}

extension OverlayBitmap {
    /// Decodes a picture (PNG, JPEG, ...) held in memory, on a thread of its own while the calling
    /// task waits (decoding runs a small GStreamer pipeline).
    /// - Parameter encoded: The file's bytes.
    /// - Returns: The picture.
    /// - Throws: ``MediaError/Code/notAnImage`` when GStreamer cannot decode it.
    public static func decoding(_ encoded: [UInt8]) async throws(MediaError) -> OverlayBitmap {
        try await BlockingWork.run { () throws(MediaError) in try OverlayBitmap(decoding: encoded) }
    }

    /// Decodes a picture (PNG, JPEG, ...) held in memory, on the calling thread (which waits for
    /// GStreamer, up to 5 seconds for damaged data): for code outside any task.
    /// - Parameter encoded: The file's bytes.
    /// - Throws: ``MediaError/Code/notAnImage`` when GStreamer cannot decode it,
    ///   ``MediaError/Code/tooLarge`` when it is larger than ``MediaLimits`` allow.
    @available(*, noasync, message: "decodes on the calling thread; from a task, use OverlayBitmap.decoding(_:)")
    public convenience init(decoding encoded: [UInt8]) throws(MediaError) {
        // The header's size first: a few bytes may claim a picture of gigabytes.
        if let size = ImageHeader.size(of: encoded), !MediaLimits.allows(width: size.width, height: size.height) {
            throw MediaError(
                .tooLarge,
                "the picture claims \(size.width)x\(size.height) pixels, more than the engine decodes "
                    + "(\(MediaLimits.maximumFrameSide) a side, \(MediaLimits.maximumFramePixels) pixels)")
        }
        try GStreamer.initialize()
        var message: UnsafeMutablePointer<gchar>?
        let raw = encoded.withUnsafeBufferPointer { bytes in
            me_decode_image(
                bytes.baseAddress, gsize(bytes.count), 5_000_000_000, guint(MediaLimits.maximumFrameSide),
                guint64(MediaLimits.maximumFramePixels), &message)
        }
        guard let raw else {
            let detail = message.map { String(cString: $0) } ?? "unknown"
            g_free(message)
            if detail.hasPrefix("the video frames are") { throw MediaError(.tooLarge, detail) }
            throw MediaError(.notAnImage, "the data is not a picture GStreamer can decode", debugDetail: detail)
        }
        guard let image = VideoImage(copying: Sample(owning: raw), as: .rgba), image.format == .rgba else {
            throw MediaError(.notAnImage, "the decoded picture has no RGBA pixels")
        }
        var rgba = [UInt8]()
        rgba.reserveCapacity(image.width * image.height * 4)
        for row in 0..<image.height {
            let start = row * image.strides[0]
            rgba.append(contentsOf: image.planes[0][start..<start + image.width * 4])
        }
        try self.init(width: image.width, height: image.height, rgba: rgba)
    }
}
