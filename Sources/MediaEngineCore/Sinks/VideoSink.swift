/// Where a player's video goes. An implementation writes one method, ``makeOutput()``,
/// which describes the output either as a GStreamer element (by factory name and typed
/// properties, or as a bin description) or as a Swift frame consumer, and declares what sinks of
/// its type can do (``capabilities-swift.type.property``, `[]` for nothing the player acts on).
/// It names the elements its output needs (``requiredElements``) when it has any (default: none).
///
/// ```swift
/// struct RecorderSink: VideoSink {
///     static var capabilities: VideoSinkCapabilities { .external }
///     func makeOutput() throws(MediaError) -> VideoOutput { ... }
/// }
/// ```
///
/// Rules an implementation keeps (checked by `MediaEngineTesting`'s `VideoSinkConformance`):
/// - ``makeOutput()`` returns a fresh description each time; the player calls it once per
///   pipeline it builds, on the task that prepares the player, and may call it again later. The
///   registry never calls it: making a sink (``VideoSinkRegistry/makeSink(named:options:)``)
///   builds nothing and writes nothing.
/// - A frame consumer's handler runs on a GStreamer streaming thread, one frame at a time
///   in presentation order; it must return quickly. It may read the player and give it commands
///   (a seek, a stop): the player only hands them to its own thread.
/// - ``capabilities-swift.type.property`` is a constant of the type: the registry lists it and the
///   player acts on it without making a sink, so a sink's capabilities cannot depend on its options.
/// - ``requiredElements`` names every element factory of the element or bin ``makeOutput()``
///   describes, and is known without making the output.
public protocol VideoSink: Sendable {
    /// What sinks of this type can do: `[]` when nothing (a frame consumer that wants frames
    /// only says `.frames`).
    ///
    /// The one place a sink's capabilities are declared: ``VideoSinkRegistry`` reads them from
    /// the type it registers (``VideoSinkRegistry/Entry/capabilities``, `mediaplay --list-sinks`),
    /// and the player from the sink it is given (``capabilities-swift.property``). It has no
    /// default, so that capabilities declared on the instance (`var capabilities`, as sinks did
    /// before the type held them), which nothing would read, do not compile: "type does not
    /// conform to protocol 'VideoSink'", with the note "candidate operates on an instance, not a
    /// type as required". Add `static` to the declaration.
    static var capabilities: VideoSinkCapabilities { get }

    /// The GStreamer element factories the output needs, in the order it uses them (for example
    /// `["videoconvert", "x264enc", "rtph264pay", "udpsink"]`). Defaults to none, as for a frame
    /// consumer, whose elements are the engine's own.
    ///
    /// ``VideoSinkRegistry/makeSink(named:options:)`` (and ``checkRequiredElements()``) looks each
    /// one up in GStreamer's registry, with no element made, and refuses the sink with
    /// ``MediaError/Code/missingPlugin`` naming the first that is not installed. An element left
    /// out here is found missing only when a player builds the output.
    var requiredElements: [String] { get }

    /// Describes the output for one pipeline.
    /// - Returns: The output.
    /// - Throws: ``MediaError`` when the output cannot be made (a missing display, say).
    func makeOutput() throws(MediaError) -> VideoOutput
}

extension VideoSink {
    /// No elements of the sink's own.
    public var requiredElements: [String] { [] }

    /// What this sink can do: its type's ``capabilities-swift.type.property``, so always what the
    /// registry lists. Not a requirement: a sink declares `static var capabilities` and nothing
    /// else (an instance property of this name beside it would only hide this one where the
    /// sink's own type is known; the engine never reads it).
    public var capabilities: VideoSinkCapabilities { Self.capabilities }
}

/// What a video sink can do.
public struct VideoSinkCapabilities: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The set's bits: ``window`` is 1, ``fullscreen`` 2, ``frames`` 4, ``external`` 8.
    public let rawValue: Int
    /// Creates capabilities from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Shows video in a window.
    public static let window = VideoSinkCapabilities(rawValue: 1 << 0)
    /// Can fill the screen.
    public static let fullscreen = VideoSinkCapabilities(rawValue: 1 << 1)
    /// Hands decoded frames to Swift code.
    public static let frames = VideoSinkCapabilities(rawValue: 1 << 2)
    /// Sends video somewhere outside this machine's screen (a network, a file); AirPlay's analogue.
    public static let external = VideoSinkCapabilities(rawValue: 1 << 3)

    /// The names of the members, for example `window, fullscreen`.
    public var names: [String] {
        [
            (VideoSinkCapabilities.window, "window"), (.fullscreen, "fullscreen"), (.frames, "frames"),
            (.external, "external"),
        ].filter { contains($0.0) }.map(\.1)
    }

    /// The names joined by commas, or `none`.
    public var description: String { names.isEmpty ? "none" : names.joined(separator: ", ") }
}

/// A video sink's output, as ``VideoSink/makeOutput()`` describes it.
public enum VideoOutput: Sendable {
    /// A GStreamer element or bin, which the engine builds and links. With a `size`, frames reach
    /// it at that size, fitted by the player's scaling mode (unless the player has a view frame).
    ///
    /// A base sink in it (at any depth) that returns `GST_FLOW_FLUSHING` while its pad is not
    /// flushing has that one frame dropped instead of stopping the stream for good: GStreamer
    /// 1.22's `srtsink` does so when a pause's unlock races a frame it renders, and the pause then
    /// waited for ever.
    case element(ElementDescription, size: VideoSize? = nil)
    /// Decoded frames delivered to Swift code.
    case frames(FrameConsumer)

    /// Whether frames are paced by the clock: false for a frames consumer that is not
    /// ``FrameConsumer/synchronized`` and for an element whose `sync` property is false.
    /// An unpaced output makes the whole pipeline run as fast as it decodes: the player does not
    /// pace the sound by the clock either (see ``AudioOutput``).
    public var isSynchronized: Bool {
        switch self {
        case .frames(let consumer): consumer.synchronized
        case .element(let description, _): description.synchronizes
        }
    }
}

/// Decoded frames for Swift code: the format and size wanted, and the handler that gets them.
public struct FrameConsumer: Sendable {
    /// The pixel format the handler wants. I420 (the default) costs no conversion for most content.
    public var format: PixelFormat
    /// The size the handler wants, or nil for the movie's own size.
    public var size: VideoSize?
    /// Whether frames arrive at playback speed (true) or as fast as they decode (false).
    public var synchronized: Bool
    /// Delivers one frame in this many (1: every frame): the first frame, then every Nth after
    /// it; a flushing seek starts the count again at the frame it lands on. The others are
    /// dropped before conversion, so they cost neither conversion nor a call.
    public var every: Int
    /// With ``synchronized``: whether frames that come too late for their time (more than 20 ms)
    /// are dropped, as a display does (true, the default: the pipeline is told, through
    /// GStreamer's QoS, to skip work it would finish late), or every frame is delivered, late or
    /// not (false: for analysis, recording, tests). Unsynchronized consumers get every frame
    /// either way.
    public var dropsLateFrames = true
    /// Receives each frame on a streaming thread; the frame is valid only during the call.
    public var handler: @Sendable (borrowing VideoFrame) -> Void
    /// Called on a streaming thread when the movie ends (its last frame has been handed to
    /// ``handler``): the moment to finish work that spans the movie (write a file, say). Not
    /// called when playback stops early, nor when a pre-roll hands over to the next movie.
    public var endOfStream: (@Sendable () -> Void)?

    /// The largest ``every`` (GStreamer's frame selector counts in 32 bits).
    public static let largestEvery = Int(UInt32.max)

    /// Creates a frame consumer.
    /// - Parameters:
    ///   - format: The pixel format wanted.
    ///   - size: The size wanted, or nil for the movie's own.
    ///   - synchronized: Whether to deliver at playback speed.
    ///   - every: Deliver one frame in this many, from 1 (every frame) to ``largestEvery``;
    ///     other values make the output fail with ``MediaError/Code/invalidArgument``.
    ///   - handler: Receives each frame on a streaming thread.
    public init(
        format: PixelFormat = .i420, size: VideoSize? = nil, synchronized: Bool = true, every: Int = 1,
        handler: @escaping @Sendable (borrowing VideoFrame) -> Void
    ) {
        self.format = format
        self.size = size
        self.synchronized = synchronized
        self.every = every
        self.handler = handler
    }
}
