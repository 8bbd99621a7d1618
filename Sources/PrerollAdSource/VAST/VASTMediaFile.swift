import Foundation

/// One `<MediaFile>` of a linear creative: a rendition of the ad's video. VAST 4's
/// `<Mezzanine>` and `<InteractiveCreativeFile>` are not media files and never become one.
public struct VASTMediaFile: Sendable, Hashable {
    /// The file's URL (from the element's text, trimmed).
    public var url: URL
    /// `progressive` or `streaming`, as written; nil when the attribute is missing (treated as
    /// progressive, see ``isProgressive``).
    public var delivery: String?
    /// The MIME type, as written (`video/mp4`, `application/x-mpegURL`, ...).
    public var type: String
    /// The width in pixels, when given.
    public var width: Int?
    /// The height in pixels, when given.
    public var height: Int?
    /// The average bitrate in kbit/s, when given.
    public var bitrate: Int?
    /// The lowest bitrate of a variable-bitrate file, in kbit/s.
    public var minBitrate: Int?
    /// The highest bitrate of a variable-bitrate file, in kbit/s.
    public var maxBitrate: Int?
    /// The codec, as written (RFC 6381 or a name such as `H.264`).
    public var codec: String?
    /// The ad server's identifier of the file.
    public var id: String?

    /// A media file.
    /// - Parameters:
    ///   - url: The file's URL.
    ///   - delivery: `progressive` or `streaming`, or nil when not given.
    ///   - type: The MIME type.
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - bitrate: The average bitrate in kbit/s.
    ///   - minBitrate: The lowest bitrate in kbit/s.
    ///   - maxBitrate: The highest bitrate in kbit/s.
    ///   - codec: The codec.
    ///   - id: The ad server's identifier.
    public init(
        url: URL, delivery: String? = "progressive", type: String, width: Int? = nil, height: Int? = nil,
        bitrate: Int? = nil, minBitrate: Int? = nil, maxBitrate: Int? = nil, codec: String? = nil, id: String? = nil
    ) {
        self.url = url
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.minBitrate = minBitrate
        self.maxBitrate = maxBitrate
        self.codec = codec
        self.id = id
    }

    /// Whether the file is downloaded as a whole (`delivery="progressive"`, or no delivery
    /// attribute), as opposed to streamed.
    public var isProgressive: Bool {
        guard let delivery else { return true }
        return delivery.trimmingCharacters(in: .whitespaces).lowercased() == "progressive"
    }

    /// The MIME type in lower case without parameters: `video/mp4; codecs="avc1"` is `video/mp4`.
    public var essentialType: String {
        Self.essentialType(of: type)
    }

    /// The bitrate the choice of a file goes by: ``bitrate``, else the middle of ``minBitrate``
    /// and ``maxBitrate`` (or whichever of them is given); nil when none is.
    public var effectiveBitrate: Int? {
        if let bitrate { return bitrate }
        switch (minBitrate, maxBitrate) {
        // Halves first: the sum of two bitrates a document gives may pass Int.max.
        case (let low?, let high?): return low / 2 + high / 2 + (low % 2 + high % 2) / 2
        case (let low?, nil): return low
        case (nil, let high?): return high
        case (nil, nil): return nil
        }
    }

    /// The number of pixels, when both dimensions are given (Int.max when the product of the
    /// dimensions a document gives is larger).
    public var area: Int? {
        guard let width, let height else { return nil }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// A MIME type in lower case without parameters or surrounding whitespace.
    static func essentialType(of type: String) -> String {
        let essence = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return essence.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
