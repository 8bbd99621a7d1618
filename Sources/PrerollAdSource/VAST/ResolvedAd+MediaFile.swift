public import MediaEngineCore

extension ResolvedAd {
    /// The MIME types of streamed and interactive renditions, never chosen even when asked
    /// for: HLS and DASH need a streaming source, VPAID a JavaScript or Flash runtime.
    public static let unplayableMediaTypes: Set<String> = [
        "application/x-mpegurl", "application/vnd.apple.mpegurl", "audio/mpegurl", "application/dash+xml",
        "application/javascript", "text/javascript", "application/x-javascript", "application/x-shockwave-flash",
    ]

    /// The media file to play: progressive (a missing `delivery` counts as progressive), of a
    /// supported type, with an http, https or file URL, the closest to the wanted size and
    /// bitrate.
    ///
    /// Among the candidates, with a `preferredSize`: the closest in area (files of unknown
    /// size last), then the closest in bitrate to `preferredBitrate` (``VASTMediaFile/effectiveBitrate``:
    /// the middle of minBitrate and maxBitrate when no bitrate is given; unknown last), then
    /// the document's order. Without one (as ``PrerollAdRequest/preferredSize`` says): the
    /// largest whose bitrate is at most `preferredBitrate` (all when it is nil); when none is
    /// that low, the one of the lowest bitrate.
    /// - Parameters:
    ///   - supportedTypes: The MIME types the player may play, compared without case and
    ///     parameters (`video/mp4; codecs="avc1"` is `video/mp4`).
    ///   - preferredSize: The output size, or nil.
    ///   - preferredBitrate: The bitrate wanted, in kbit/s, or nil.
    /// - Returns: The file, or nil when none fits (VAST 403, `PrerollAdError.Code.noSupportedMediaFile`).
    public func mediaFile(supportedTypes: Set<String>, preferredSize: VideoSize?, preferredBitrate: Int?)
        -> VASTMediaFile?
    {
        let supported = Set(supportedTypes.map(VASTMediaFile.essentialType(of:)))
        let candidates = mediaFiles.enumerated().filter { _, file in
            let type = file.essentialType
            let scheme = file.url.scheme?.lowercased()
            return file.isProgressive && supported.contains(type) && !Self.unplayableMediaTypes.contains(type)
                && (scheme == "http" || scheme == "https" || scheme == "file")
        }
        // Each candidate's sort key: smaller is better, the document's order last. Sizes and
        // bitrates are the document's (any Int): distances saturate at Int.max instead of
        // overflowing.
        func bitrateDistance(_ file: VASTMediaFile) -> Int {
            guard let preferredBitrate else { return 0 }
            return file.effectiveBitrate.map { Self.distance($0, preferredBitrate) } ?? Int.max
        }
        let ranked: [(key: (Int, Int, Int), file: VASTMediaFile)]
        if let preferredSize {
            let (area, overflow) = preferredSize.width.multipliedReportingOverflow(by: preferredSize.height)
            let wanted = overflow ? Int.max : area
            ranked = candidates.map { index, file in
                ((file.area.map { Self.distance($0, wanted) } ?? Int.max, bitrateDistance(file), index), file)
            }
        } else {
            let fitting = candidates.filter { _, file in
                guard let preferredBitrate, let bitrate = file.effectiveBitrate else { return true }
                return bitrate <= preferredBitrate
            }
            if fitting.isEmpty {
                ranked = candidates.map { index, file in ((file.effectiveBitrate ?? Int.max, 0, index), file) }
            } else {
                // Largest first: the area negated (Int.min has no negation; it is no area anyway).
                ranked = fitting.map { index, file in
                    ((file.area.map { $0 == .min ? 1 : -$0 } ?? 1, bitrateDistance(file), index), file)
                }
            }
        }
        return ranked.min { $0.key < $1.key }?.file
    }

    /// `|a - b|`, Int.max when that is larger.
    static func distance(_ a: Int, _ b: Int) -> Int {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? Int.max : Int(clamping: difference.magnitude)
    }
}
