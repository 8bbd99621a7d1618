internal import CMediaEngineGlue

/// Draws text to an ``OverlayBitmap`` (`me_text_render`): with Pango and cairo when the
/// MediaEngine product links its text renderer (CMediaEngineTextRender); the core alone has none, and each
/// text is an ``MediaError/Code/overlayFailed`` error.
enum TextRenderer {

    static func render(_ text: String, style: TextStyle) throws(MediaError) -> OverlayBitmap {
        var width: Int32 = 0
        var height: Int32 = 0
        var message: UnsafeMutablePointer<CChar>?
        let pixels = text.withCString { text in
            style.font.withCString { font in
                var raw = MeTextStyle(
                    text: text, markup: style.isMarkup ? 1 : 0, font: font, color: style.color.packed,
                    outline_color: style.outline?.color.packed ?? 0, outline_width: style.outline?.width ?? 0,
                    shadow_color: style.shadow?.color.packed ?? 0, shadow_dx: style.shadow?.dx ?? 0,
                    shadow_dy: style.shadow?.dy ?? 0, background: style.background?.packed ?? 0,
                    alignment: style.alignment.rawValue, wrap_width: Int32(style.wrapWidth ?? 0),
                    padding: Int32(style.padding))
                return me_text_render(&raw, &width, &height, &message)
            }
        }
        guard let pixels else {
            let detail = message.map { String(cString: $0) } ?? "unknown"
            me_text_free(message)
            throw MediaError(.overlayFailed, "cannot draw the text: \(detail)")
        }
        defer { me_text_free(pixels) }
        let count = Int(width) * Int(height) * 4
        return try OverlayBitmap(
            width: Int(width), height: Int(height), rgba: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }
}

extension RGBAColor {
    /// 0xRRGGBBAA.
    var packed: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }
}
