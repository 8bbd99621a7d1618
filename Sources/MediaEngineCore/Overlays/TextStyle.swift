/// How a ``TextOverlay`` draws its text: font, colour, outline, shadow, box, alignment.
public struct TextStyle: Sendable, Hashable {
    /// How the lines of a paragraph line up with each other.
    public enum Alignment: Int32, Sendable, Hashable, CaseIterable {
        /// Lines start at the left edge of the text's box.
        case left = 0
        /// Lines are centred in the text's box.
        case center = 1
        /// Lines end at the right edge of the text's box.
        case right = 2
    }

    /// A stroke around each glyph.
    public struct Outline: Sendable, Hashable {
        /// Its colour.
        public var color: RGBAColor
        /// The stroke's width outside the glyph, in pixels.
        public var width: Double
        /// An outline.
        public init(color: RGBAColor = .black, width: Double = 2) {
            self.color = color
            self.width = width
        }
    }

    /// A copy of the text drawn under it, offset.
    public struct Shadow: Sendable, Hashable {
        /// Its colour.
        public var color: RGBAColor
        /// Offset to the right, in pixels.
        public var dx: Double
        /// Offset down, in pixels.
        public var dy: Double
        /// A shadow.
        public init(color: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 160), dx: Double = 2, dy: Double = 2)
        {
            self.color = color
            self.dx = dx
            self.dy = dy
        }
    }

    /// A Pango font description: family, style, size in points ("Sans Bold 24", "DejaVu Serif 18").
    public var font: String
    /// The text's colour.
    public var color: RGBAColor
    /// The outline, or nil for none.
    public var outline: Outline?
    /// The shadow, or nil for none.
    public var shadow: Shadow?
    /// A box behind the text, or nil for none.
    public var background: RGBAColor?
    /// How lines line up.
    public var alignment: Alignment
    /// The width at which lines wrap, in pixels, or nil for no wrapping.
    public var wrapWidth: Int?
    /// Space around the text inside its bitmap, in pixels.
    public var padding: Int
    /// Whether the text is Pango markup (`<b>bold</b>`) rather than plain text.
    public var isMarkup: Bool

    /// A style; the default is white bold sans with a black outline, centred.
    public init(
        font: String = "Sans Bold 24", color: RGBAColor = .white, outline: Outline? = Outline(), shadow: Shadow? = nil,
        background: RGBAColor? = nil, alignment: Alignment = .center, wrapWidth: Int? = nil, padding: Int = 4,
        isMarkup: Bool = false
    ) {
        self.font = font
        self.color = color
        self.outline = outline
        self.shadow = shadow
        self.background = background
        self.alignment = alignment
        self.wrapWidth = wrapWidth
        self.padding = padding
        self.isMarkup = isMarkup
    }

    /// Refuses a style that cannot draw.
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty font description, a negative
    ///   outline, padding or wrap width.
    public func validate() throws(MediaError) {
        guard !font.allSatisfy(\.isWhitespace) else {
            throw MediaError(
                .invalidArgument, "a text style needs a font description (\"Sans Bold 24\"), not an empty one")
        }
        if let outline, !(outline.width >= 0) {
            throw MediaError(.invalidArgument, "an outline width must be 0 or more, not \(outline.width)")
        }
        guard padding >= 0 else { throw MediaError(.invalidArgument, "padding must be 0 or more, not \(padding)") }
        if let wrapWidth, wrapWidth <= 0 {
            throw MediaError(.invalidArgument, "a wrap width must be positive, not \(wrapWidth)")
        }
    }
}
