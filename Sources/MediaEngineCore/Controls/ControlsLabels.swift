/// The controls' text (the times, Done, the track menu's rows) drawn with Pango once per string,
/// style and size, and kept: a bar or menu drawn again renders no text it has drawn before.
final class ControlsLabels: Sendable {
    /// How many drawn strings are kept before the cache starts again (the times change every
    /// second of a movie).
    static let limit = 48

    private let kept = Locked<[String: OverlayBitmap]>([:])

    /// `text` in sans at `pixels`, bold or not, in `color`.
    func label(_ text: String, pixels: Int, bold: Bool = true, color: RGBAColor = ControlsPainter.iconColor)
        throws(MediaError) -> OverlayBitmap
    {
        let font = "Sans\(bold ? " Bold" : "") \(pixels)px"
        let key = "\(font) \(color) \(text)"
        if let bitmap = kept.withLock({ $0[key] }) { return bitmap }
        let style = TextStyle(font: font, color: color, outline: nil, alignment: .left, padding: 0)
        let bitmap = try TextRenderer.render(text, style: style)
        kept.withLock { kept in
            if kept.count >= Self.limit { kept.removeAll() }
            kept[key] = bitmap
        }
        return bitmap
    }
}
