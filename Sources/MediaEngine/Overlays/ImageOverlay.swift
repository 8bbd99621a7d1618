internal import CGStreamer
internal import CGStreamerShim
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

    /// An overlay of a picture file.
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
    ) throws(MediaError) {
        let bytes = try OverlayFile.read(url, kind: "picture")
        let image: OverlayBitmap
        do {
            image = try OverlayBitmap(decoding: bytes)
        } catch {
            throw MediaError(
                .notAnImage, "\(url.path) is not a picture: \(error.message)", debugDetail: error.debugDetail)
        }
        self.init(
            image: image, placement: placement, zOrder: zOrder, opacity: opacity, timeRange: timeRange,
            hitRegions: hitRegions)
    }

    /// The pixels for one frame (see ``VideoOverlay/bitmap(for:)``).
    public func bitmap(for request: OverlayRenderRequest) -> OverlayBitmap? { image }
}

extension OverlayBitmap {
    /// Decodes a picture (PNG, JPEG, ...) held in memory.
    /// - Parameter encoded: The file's bytes.
    /// - Throws: ``MediaError/Code/notAnImage`` when GStreamer cannot decode it.
    public convenience init(decoding encoded: [UInt8]) throws(MediaError) {
        try GStreamer.initialize()
        var message: UnsafeMutablePointer<gchar>?
        let raw = encoded.withUnsafeBufferPointer { bytes in
            me_decode_image(bytes.baseAddress, gsize(bytes.count), 5_000_000_000, &message)
        }
        guard let raw else {
            let detail = message.map { String(cString: $0) } ?? "unknown"
            g_free(message)
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
