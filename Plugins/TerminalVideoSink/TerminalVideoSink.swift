import MediaEngineCore

/// Shows the video in a terminal, in 24-bit colour: each character cell is a half block (`▀`)
/// whose foreground is the upper of two pixels and whose background is the lower one, so a
/// terminal of C x R cells shows C x 2R pixels, about square ones (a cell is about twice as tall
/// as it is wide). Registered as `terminal` by ``register(in:)``.
///
/// The picture fills the terminal's width and all its rows but the last, which is kept for the
/// cursor and a status line (``statusLine``); the player fits the movie into it keeping its shape
/// (its `MoviePlayer.scalingMode`, `aspectFit` by default, with bars in its background colour).
/// The size is read from the terminal (`TIOCGWINSZ`), else from `COLUMNS` and `LINES`, else 80x24.
/// The engine delivers RGBA frames at that size at the movie's pace (a synchronized frame
/// consumer); a writer thread of the sink's own draws the newest one and drops any that a slow
/// terminal had no time for. When the terminal is resized (SIGWINCH), the picture is laid out
/// again at once, scaled by the sink until the player next builds its output at the new size.
///
/// While it draws, the sink owns the terminal: the cursor is hidden and the terminal's echo off,
/// and what the program prints should go through ``statusLine``. It gives the terminal back
/// (colours reset, cursor shown below the picture, echo on) when the player stops or releases
/// its output, when ``restoreTerminal()`` is called, when the process exits, and on Ctrl-C,
/// after which the process exits with status 130 (unless `exitsOnInterrupt` is false).
///
/// Capabilities: none. It is not a window (the player cannot make it fullscreen), hands no
/// frames to the app, and shows the video on this machine's user's screen (not `external`).
public final class TerminalVideoSink: VideoSink {
    /// The name ``register(in:)`` gives the sink: `terminal`.
    public static let registeredName = "terminal"

    /// The widest or tallest grid the sink draws, in cells.
    public static let largestGridSide = 4096

    /// The file descriptor drawn on (1, standard output, by default). The sink never closes it.
    public let fileDescriptor: Int32
    /// The picture's width in cells, or nil for the terminal's.
    public let columns: Int?
    /// The picture's height in cells, or nil for the terminal's less one row.
    public let rows: Int?
    /// Whether Ctrl-C gives the terminal back and ends the process with status 130. When false,
    /// an app that handles SIGINT itself calls ``restoreTerminal()``.
    public let exitsOnInterrupt: Bool
    private let screen: TerminalScreen

    /// Creates the sink.
    /// - Parameters:
    ///   - fileDescriptor: Where to draw: standard output by default.
    ///   - columns: The picture's width in cells, or nil for the terminal's width; a terminal
    ///     that reports its size cuts it down to fit.
    ///   - rows: The picture's height in cells, or nil for the terminal's height less one row.
    ///   - exitsOnInterrupt: Whether Ctrl-C gives the terminal back and exits with status 130.
    ///
    /// A size outside 1 ... ``largestGridSide``, or a descriptor that is not open, makes the
    /// player's preparation fail with `MediaError.Code.invalidArgument` when it builds the output.
    public init(fileDescriptor: Int32 = 1, columns: Int? = nil, rows: Int? = nil, exitsOnInterrupt: Bool = true) {
        self.fileDescriptor = fileDescriptor
        self.columns = columns
        self.rows = rows
        self.exitsOnInterrupt = exitsOnInterrupt
        screen = TerminalScreen(
            configuration: TerminalScreen.Configuration(
                device: TerminalDevice(descriptor: fileDescriptor), columns: columns, rows: rows,
                exitsOnInterrupt: exitsOnInterrupt))
    }

    /// Registers the sink as `terminal`, made from options (see ``init(options:)``).
    /// - Parameter registry: The registry; the shared one by default.
    /// - Throws: `MediaError.Code.duplicateSink` when a sink named `terminal` is registered already.
    public static func register(in registry: VideoSinkRegistry = .shared) throws(MediaError) {
        try registry.register(
            registeredName,
            summary: "draws the video in the terminal with 24-bit colour half blocks (fd=, width=, height=, sigint=)"
        ) { options throws(MediaError) in
            try TerminalVideoSink(options: options)
        }
    }

    /// None: see the type's description.
    public static var capabilities: VideoSinkCapabilities { [] }

    /// The line shown below the picture (control characters left out, cut to the terminal's
    /// width); empty for none. A program that draws to its own standard output puts what it would
    /// print here while the sink draws. A line set after the sink gave the terminal back (the
    /// player stopped a moment before the program printed its last line) is written at once in
    /// place of the last one, the cursor left below it.
    public var statusLine: String {
        get { screen.status }
        set { screen.status = newValue }
    }

    /// How many frames the sink has drawn.
    public var framesDrawn: Int { screen.framesDrawn }

    /// How many frames the sink dropped because the terminal had not taken the one before.
    public var framesDropped: Int { screen.framesDropped }

    /// Gives the terminal back now: colours reset, the cursor shown below the picture (and its
    /// status line), echo on. Frames that arrive after this are not drawn until the player builds
    /// another output of this sink (its next preparation). Returns once the terminal is given
    /// back (or after 2 seconds if the terminal does not take what is written). Calling it again,
    /// or before anything is drawn, does nothing.
    public func restoreTerminal() {
        screen.finish()
    }

    /// A frame consumer of RGBA frames at the picture's size in pixels (one per column, two per
    /// row), at the movie's pace; the terminal's size is read now.
    /// - Returns: The consumer.
    /// - Throws: `MediaError.Code.invalidArgument` for a size outside 1 ... ``largestGridSide``
    ///   or a descriptor that is not open.
    public func makeOutput() throws(MediaError) -> VideoOutput {
        for (name, value) in [("columns", columns), ("rows", rows)] {
            if let value, !(1...Self.largestGridSide).contains(value) {
                throw MediaError(
                    .invalidArgument, "the terminal sink's \(name) is \(value), not 1 to \(Self.largestGridSide)")
            }
        }
        guard screen.configuration.device.isOpen else {
            throw MediaError(.invalidArgument, "the terminal sink's file descriptor \(fileDescriptor) is not open")
        }
        let output = TerminalOutput(screen: screen)
        return .frames(
            FrameConsumer(format: .rgba, size: screen.currentLayout.pixelSize, synchronized: true) { frame in
                output.draw(frame)
            })
    }
}

/// One output of the sink, held by the pipeline that uses it (through its frame consumer's
/// handler): when the player tears the pipeline down (a stop, a new sink, the player released),
/// the last output's end gives the terminal back.
private final class TerminalOutput: Sendable {
    let screen: TerminalScreen

    init(screen: TerminalScreen) {
        self.screen = screen
        screen.outputMade()
    }

    deinit {
        screen.outputReleased()
    }

    /// Copies the frame's pixels and hands them to the writer; on the streaming thread.
    func draw(_ frame: borrowing VideoFrame) {
        screen.submit(CellPixels(frame.makeImage()))
    }
}
