internal import CMediaEngineCYUV

/// A picture behind the movie (``MoviePlayer/backgroundImage``, MPMoviePlayerController's
/// `backgroundView`): scaled to fill the view and centred, it shows where the movie's picture does
/// not, in the bars the scaling mode leaves, and over the whole view for a movie without video.
///
/// The scaler draws the movie over a background colour and the overlays after it, so the picture
/// is drawn as overlays under every other one that cover only the bars: one at the top left (the
/// left or top bar) and one at the bottom right (the right or bottom bar), each a slice of the
/// scaled picture at its natural size. With bars on all four sides (a view frame smaller than the
/// output), the first covers the whole view with a hole where the picture is.
final class BackgroundImageLayer: Sendable {
    /// One of the two slices.
    final class Slice: VideoOverlay {
        let leading: Bool
        let layer: BackgroundImageLayer

        init(leading: Bool, layer: BackgroundImageLayer) {
            self.leading = leading
            self.layer = layer
        }

        var zOrder: Int { Int(Int32.min) }

        var placement: OverlayPlacement {
            OverlayPlacement(anchor: leading ? .topLeft : .bottomRight, in: .view)
        }

        func bitmap(for request: OverlayRenderRequest) throws(MediaError) -> OverlayBitmap? {
            layer.slice(leading: leading, view: request.frameSize, picture: request.pictureRect)
        }
    }

    private struct Cache {
        var key: Key?
        var leading: OverlayBitmap?
        var trailing: OverlayBitmap?
    }

    private struct Key: Hashable {
        let view: VideoSize
        let picture: ViewRect?
        let hasVideo: Bool
    }

    let image: OverlayBitmap
    private let hasVideo: @Sendable () -> Bool
    private let cache = Locked(Cache())

    /// The layer of `image`; `hasVideo` tells whether the movie has pictures (without, the image
    /// fills the view).
    init(image: OverlayBitmap, hasVideo: @escaping @Sendable () -> Bool) {
        self.image = image
        self.hasVideo = hasVideo
    }

    /// The two overlays to add under the others.
    func makeSlices() -> [Slice] {
        [Slice(leading: true, layer: self), Slice(leading: false, layer: self)]
    }

    /// The slice for a view of `view` with the picture at `picture` (made again only when either
    /// changes).
    func slice(leading: Bool, view: VideoSize, picture: ViewRect?) -> OverlayBitmap? {
        let key = Key(view: view, picture: picture, hasVideo: hasVideo())
        return cache.withLock { cache in
            if cache.key != key {
                (cache.leading, cache.trailing) = Self.slices(of: image, for: key)
                cache.key = key
            }
            return leading ? cache.leading : cache.trailing
        }
    }

    /// Where the two slices go: the bars around `picture` in `view`.
    static func bars(view: VideoSize, picture: ViewRect?, hasVideo: Bool) -> (
        leading: ViewRect?, trailing: ViewRect?, hole: ViewRect?
    ) {
        let whole = ViewRect(x: 0, y: 0, width: view.width, height: view.height)
        guard hasVideo, let picture else { return (whole, nil, nil) }
        let left = picture.x
        let right = view.width - (picture.x + picture.width)
        let top = picture.y
        let bottom = view.height - (picture.y + picture.height)
        let sides = left > 0 || right > 0
        let ends = top > 0 || bottom > 0
        switch (sides, ends) {
        case (false, false):
            return (nil, nil, nil)
        case (true, false):
            return (
                left > 0 ? ViewRect(x: 0, y: 0, width: left, height: view.height) : nil,
                right > 0 ? ViewRect(x: picture.x + picture.width, y: 0, width: right, height: view.height) : nil, nil
            )
        case (false, true):
            return (
                top > 0 ? ViewRect(x: 0, y: 0, width: view.width, height: top) : nil,
                bottom > 0 ? ViewRect(x: 0, y: picture.y + picture.height, width: view.width, height: bottom) : nil,
                nil
            )
        case (true, true):
            return (whole, nil, picture)
        }
    }

    /// The image scaled to fill `key.view` and cut to the bars.
    private static func slices(of image: OverlayBitmap, for key: Key) -> (OverlayBitmap?, OverlayBitmap?) {
        let view = key.view
        guard view.width > 0, view.height > 0, view.width * view.height <= 8192 * 8192 else { return (nil, nil) }
        let (leading, trailing, hole) = bars(view: view, picture: key.picture, hasVideo: key.hasVideo)
        guard leading != nil || trailing != nil else { return (nil, nil) }
        let filled = scaledToFill(image, view)
        func cut(_ rect: ViewRect?) -> OverlayBitmap? {
            guard let rect, rect.width > 0, rect.height > 0 else { return nil }
            var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
            for row in 0..<rect.height {
                let from = ((rect.y + row) * view.width + rect.x) * 4
                pixels.replaceSubrange(
                    (row * rect.width * 4)..<((row + 1) * rect.width * 4), with: filled[from..<(from + rect.width * 4)])
            }
            if let hole {
                for row in max(0, hole.y - rect.y)..<min(rect.height, hole.y + hole.height - rect.y) {
                    let start = (row * rect.width + max(0, hole.x - rect.x)) * 4
                    let end = (row * rect.width + min(rect.width, hole.x + hole.width - rect.x)) * 4
                    if start < end { pixels.replaceSubrange(start..<end, with: repeatElement(0, count: end - start)) }
                }
            }
            // The sizes match by construction (a positive rect, its pixels): nothing to report.
            return try? OverlayBitmap(width: rect.width, height: rect.height, rgba: pixels)
        }
        return (cut(leading), cut(trailing))
    }

    /// `image` scaled (bilinear, libyuv) so that it covers `view`, centred and cropped: `view`'s
    /// RGBA pixels.
    private static func scaledToFill(_ image: OverlayBitmap, _ view: VideoSize) -> [UInt8] {
        let scale = max(Double(view.width) / Double(image.width), Double(view.height) / Double(image.height))
        let width = max(view.width, Int((Double(image.width) * scale).rounded(.up)))
        let height = max(view.height, Int((Double(image.height) * scale).rounded(.up)))
        var scaled = [UInt8](repeating: 0, count: width * height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            scaled.withUnsafeMutableBufferPointer { target in
                // Four bytes a pixel either way: the channel order does not matter to scaling.
                _ = ARGBScale(
                    source.baseAddress, Int32(image.width * 4), Int32(image.width), Int32(image.height),
                    target.baseAddress, Int32(width * 4), Int32(width), Int32(height), kFilterBilinear)
            }
        }
        let left = (width - view.width) / 2
        let top = (height - view.height) / 2
        var filled = [UInt8](repeating: 0, count: view.width * view.height * 4)
        for row in 0..<view.height {
            let from = ((top + row) * width + left) * 4
            filled.replaceSubrange(
                (row * view.width * 4)..<((row + 1) * view.width * 4), with: scaled[from..<(from + view.width * 4)])
        }
        return filled
    }
}
