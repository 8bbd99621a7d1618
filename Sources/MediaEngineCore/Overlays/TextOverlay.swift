import Foundation

/// Text over the movie, drawn with Pango: a fixed line (a banner, a title) or timed text (captions
/// from an SRT or WebVTT file, or a list of ``TextCue``s), in a ``TextStyle``.
///
/// Change ``text``, ``style`` or the other properties at any time, playing or not: the next frame
/// shows the change. Each distinct text is drawn once and kept (the last few are cached), so a
/// caption costs one Pango layout when it first appears.
public final class TextOverlay: VideoOverlay {
    private struct State {
        var text: String
        var cues: [TextCue]
        var style: TextStyle
        /// Drawn bitmaps by text, for the current style.
        var drawn: [String: OverlayBitmap] = [:]

        /// The fixed text, or the cue showing at `time`.
        func text(at time: Duration?) -> String? {
            guard !cues.isEmpty else { return text }
            guard let time else { return nil }
            return cues.first { $0.contains(time) }?.text
        }
    }

    private let state: Locked<State>
    private let attributes: LiveOverlayAttributes

    /// The bottom centre, 5 % of the height up: where captions go.
    public static let captionPlacement = OverlayPlacement(anchor: .bottom, y: .fraction(0.05))

    /// A line (or lines) of text.
    /// - Parameters:
    ///   - text: The text ("\n" between lines; Pango markup when the style says so).
    ///   - style: How it is drawn.
    ///   - placement: Where it goes.
    ///   - zOrder: Higher draws over lower.
    ///   - opacity: 0 to 1.
    ///   - timeRange: When it shows, or nil for always.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a style that cannot draw (an empty font
    ///   description), ``MediaError/Code/overlayFailed`` for markup that does not parse.
    public init(
        text: String, style: TextStyle = TextStyle(), placement: OverlayPlacement = TextOverlay.captionPlacement,
        zOrder: Int = 0, opacity: Double = 1, timeRange: Range<Duration>? = nil
    ) throws(MediaError) {
        try style.validate()
        let first = try TextRenderer.render(text, style: style)
        state = Locked(State(text: text, cues: [], style: style, drawn: [text: first]))
        attributes = LiveOverlayAttributes(
            OverlayAttributes(
                placement: placement, zOrder: zOrder, opacity: opacity, timeRange: timeRange, hitRegions: []))
    }

    /// Timed text: each cue shows during its own time.
    /// - Parameters:
    ///   - cues: The cues.
    ///   - style: How they are drawn.
    ///   - placement: Where they go.
    ///   - zOrder: Higher draws over lower.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a style that cannot draw, or a cue that
    ///   ends before it starts.
    public init(
        cues: [TextCue], style: TextStyle = TextStyle(), placement: OverlayPlacement = TextOverlay.captionPlacement,
        zOrder: Int = 0
    ) throws(MediaError) {
        try style.validate()
        if let bad = cues.first(where: { $0.end <= $0.start }) {
            throw MediaError(
                .invalidArgument, "the cue '\(bad.text)' ends (\(bad.end)) before it starts (\(bad.start))")
        }
        state = Locked(State(text: "", cues: cues, style: style))
        attributes = LiveOverlayAttributes(
            OverlayAttributes(placement: placement, zOrder: zOrder, opacity: 1, timeRange: nil, hitRegions: []))
    }

    /// Captions from a subtitle file: SRT or WebVTT in UTF-8 (``SubtitleParser``); any other file
    /// (SAMI, MicroDVD, MPL2, LRC, SRT or WebVTT in Latin-1 and the like) is read by GStreamer's
    /// `subparse` instead. Reading runs on the calling thread (a few milliseconds, a pipeline for
    /// the other formats).
    /// - Parameters:
    ///   - url: A file URL.
    ///   - style: How they are drawn.
    ///   - placement: Where they go.
    /// - Throws: The file errors, ``MediaError/Code/invalidSubtitles`` (a format neither reads, an
    ///   SRT or WebVTT file in error), ``MediaError/Code/tooLarge`` (past ``SubtitleParser``'s
    ///   bounds on file size, cue count and line length), ``MediaError/Code/timedOut`` (`subparse`
    ///   still reading after 10 seconds), or ``MediaError/Code/invalidArgument`` for a style that
    ///   cannot draw.
    public convenience init(
        subtitlesAt url: URL, style: TextStyle = TextStyle(), placement: OverlayPlacement = TextOverlay.captionPlacement
    ) throws(MediaError) {
        let bytes = try OverlayFile.read(url, kind: "subtitle file", limit: SubtitleParser.maximumFileSize)
        let cues: [TextCue]
        if SubtitleParser.recognises(bytes) {
            do {
                cues = try SubtitleParser.cues(parsing: bytes)
            } catch {
                throw MediaError(error.code, "\(url.path): \(error.message)")
            }
        } else {
            cues = try SubparseReader.cues(contentsOf: url)
        }
        try self.init(cues: cues, style: style, placement: placement)
    }

    /// The fixed text (unused while there are cues).
    public var text: String {
        get { state.withLock { $0.text } }
        set { state.withLock { $0.text = newValue } }
    }

    /// The timed text; empty for a fixed line.
    public var cues: [TextCue] {
        get { state.withLock { $0.cues } }
        set { state.withLock { $0.cues = newValue } }
    }

    /// How the text is drawn. An invalid style makes the overlay fail (and be skipped) until fixed.
    public var style: TextStyle {
        get { state.withLock { $0.style } }
        set {
            state.withLock { state in
                state.style = newValue
                state.drawn.removeAll()
            }
        }
    }

    /// Where the overlay goes and how big it is.
    public var placement: OverlayPlacement {
        get { attributes[\.placement] }
        set { attributes[\.placement] = newValue }
    }

    /// Higher values draw over lower ones.
    public var zOrder: Int {
        get { attributes[\.zOrder] }
        set { attributes[\.zOrder] = newValue }
    }

    /// Whether the overlay is drawn.
    public var isVisible: Bool {
        get { attributes[\.isVisible] }
        set { attributes[\.isVisible] = newValue }
    }

    /// 0 (invisible) to 1 (as the pixels' own alpha says).
    public var opacity: Double {
        get { attributes[\.opacity] }
        set { attributes[\.opacity] = newValue }
    }

    /// When the overlay shows, or nil for the whole movie.
    public var timeRange: Range<Duration>? {
        get { attributes[\.timeRange] }
        set { attributes[\.timeRange] = newValue }
    }

    /// Areas that react to clicks, in the bitmap's pixels.
    public var hitRegions: [OverlayHitRegion] {
        get { attributes[\.hitRegions] }
        set { attributes[\.hitRegions] = newValue }
    }

    /// The text showing at `time`: the fixed text, or the cue's.
    public func text(at time: Duration?) -> String? {
        state.withLock { $0.text(at: time) }
    }

    /// The text showing at the frame's time, drawn with the style (Pango and cairo), or nil when no
    /// text shows. Runs on the video streaming thread (see ``VideoOverlay/bitmap(for:)``); the
    /// drawings of the last 16 texts are kept, so a cue costs one drawing however many frames it
    /// lasts, and a style change draws afresh.
    /// - Parameter request: The frame's time and size.
    /// - Returns: The text's pixels, the same instance for as long as the text and style stay.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a style ``TextStyle/validate()`` refuses,
    ///   ``MediaError/Code/overlayFailed`` for text Pango and cairo cannot draw (markup that does
    ///   not parse, say); the engine skips the overlay for that frame and announces the error once.
    public func bitmap(for request: OverlayRenderRequest) throws(MediaError) -> OverlayBitmap? {
        // One lock for the text, its cached drawing and the style, once per frame.
        let (text, cached, style) = state.withLock { state in
            let text = state.text(at: request.time)
            return (text, text.flatMap { state.drawn[$0] }, state.style)
        }
        guard let text, !text.isEmpty else { return nil }
        if let cached { return cached }
        try style.validate()
        let bitmap = try TextRenderer.render(text, style: style)
        state.withLock { state in
            guard state.style == style else { return }
            if state.drawn.count >= 16 { state.drawn.removeAll() }
            state.drawn[text] = bitmap
        }
        return bitmap
    }
}
