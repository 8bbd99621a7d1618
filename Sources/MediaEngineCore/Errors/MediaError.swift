/// An error from the engine: what went wrong (``code``), a sentence for people
/// (``message``), GStreamer's own detail (``debugDetail``) and the element that
/// failed (``element``).
///
/// The code is a struct over a private enum, so new codes can be added without
/// breaking code that switches over the existing ones: compare with `==`
/// (`error.code == .fileNotFound`) rather than switching exhaustively.
public struct MediaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case fileNotFound, permissionDenied, isDirectory, notRegularFile, emptyFile
            case notAMovie, corruptContainer, truncatedMovie, missingPlugin
            case invalidProperty, invalidArgument, notPrepared, cancelled, timedOut
            case pipelineFailure, streamFailure, unknownSink, duplicateSink, unsupportedOperation
            case notAnImage, invalidSubtitles, overlayFailed, invalidWindow, noVideo, tooLarge, diskFull
            case unauthorized, forbidden, httpError, tooManyRedirects, hostNotFound, connectionRefused
            case connectionFailed, connectionLost, tlsFailure, invalidPlaylist
            case unsupportedScheme, duplicateSource
            case invalidGroupMessage, unsupportedGroupMessage, addressInUse, timeSourceUnreachable
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The code's name, as printed in logs and by the examples (for example `fileNotFound`).
        public var name: String { base.rawValue }

        /// Each code's number, for `NSError`'s `code` (``MediaError/errorCode``): fixed once given,
        /// never reused; a new code takes the next number.
        private static let numbers: [Base: Int] = [
            .fileNotFound: 1,
            .permissionDenied: 2,
            .isDirectory: 3,
            .notRegularFile: 4,
            .emptyFile: 5,
            .notAMovie: 6,
            .corruptContainer: 7,
            .truncatedMovie: 8,
            .missingPlugin: 9,
            .invalidProperty: 10,
            .invalidArgument: 11,
            .notPrepared: 12,
            .cancelled: 13,
            .timedOut: 14,
            .pipelineFailure: 15,
            .streamFailure: 16,
            .unknownSink: 17,
            .duplicateSink: 18,
            .unsupportedOperation: 19,
            .notAnImage: 20,
            .invalidSubtitles: 21,
            .overlayFailed: 22,
            .invalidWindow: 23,
            .noVideo: 24,
            .tooLarge: 25,
            .diskFull: 26,
            .unauthorized: 27,
            .forbidden: 28,
            .httpError: 29,
            .tooManyRedirects: 30,
            .hostNotFound: 31,
            .connectionRefused: 32,
            .connectionFailed: 33,
            .connectionLost: 34,
            .tlsFailure: 35,
            .invalidPlaylist: 36,
            .unsupportedScheme: 37,
            .duplicateSource: 38,
            .invalidGroupMessage: 39,
            .unsupportedGroupMessage: 40,
            .addressInUse: 41,
            .timeSourceUnreachable: 42,
        ]

        /// The code's number in ``MediaError/domain``: `fileNotFound` is 1, `permissionDenied` 2, ...
        /// (stable across releases).
        public var number: Int { Self.numbers[base] ?? 0 }

        /// The code with this number, or nil for a number no code has.
        /// - Parameter number: An `NSError`'s `code` in ``MediaError/domain``.
        public init?(number: Int) {
            guard let base = Self.numbers.first(where: { $0.value == number })?.key else { return nil }
            self.init(base)
        }
        /// The code's name.
        public var description: String { base.rawValue }

        /// No file or directory exists at the path.
        public static let fileNotFound = Code(.fileNotFound)
        /// The file exists but this process may not read it.
        public static let permissionDenied = Code(.permissionDenied)
        /// The path names a directory.
        public static let isDirectory = Code(.isDirectory)
        /// The path names a FIFO, socket or device; these are refused before GStreamer opens them
        /// (opening a FIFO would block forever).
        public static let notRegularFile = Code(.notRegularFile)
        /// The file has no bytes.
        public static let emptyFile = Code(.emptyFile)
        /// The content is not audio or video: text, an image, random bytes.
        public static let notAMovie = Code(.notAMovie)
        /// The container was recognised but its structure is damaged.
        public static let corruptContainer = Code(.corruptContainer)
        /// The movie ends before its own header says it should (a partial download or copy).
        public static let truncatedMovie = Code(.truncatedMovie)
        /// A GStreamer plugin needed for this content is not installed; the message names the Debian package.
        public static let missingPlugin = Code(.missingPlugin)
        /// An element has no such property, or the value has the wrong type or range.
        public static let invalidProperty = Code(.invalidProperty)
        /// An argument is out of range (a negative time, a rate of zero, ...).
        public static let invalidArgument = Code(.invalidArgument)
        /// The operation needs a prepared player.
        public static let notPrepared = Code(.notPrepared)
        /// The operation was cancelled by a later command (stop, a new source) or task cancellation.
        public static let cancelled = Code(.cancelled)
        /// The pipeline did not answer in time.
        public static let timedOut = Code(.timedOut)
        /// GStreamer refused a state change or failed in a way no other code describes.
        public static let pipelineFailure = Code(.pipelineFailure)
        /// A stream failed while playing (decoding, reading) in a way no other code describes.
        public static let streamFailure = Code(.streamFailure)
        /// No video sink is registered under that name.
        public static let unknownSink = Code(.unknownSink)
        /// A video sink is already registered under that name.
        public static let duplicateSink = Code(.duplicateSink)
        /// The movie or its pipeline cannot do what was asked (play backwards, say).
        public static let unsupportedOperation = Code(.unsupportedOperation)
        /// An image overlay's file is not a picture GStreamer can decode (or is damaged).
        public static let notAnImage = Code(.notAnImage)
        /// A subtitle file is neither SRT nor WebVTT, or its cues cannot be read.
        public static let invalidSubtitles = Code(.invalidSubtitles)
        /// An overlay could not draw a frame (a drawing closure threw, text could not be laid out);
        /// it is skipped for that frame and playback goes on.
        public static let overlayFailed = Code(.overlayFailed)
        /// The window to draw in cannot be used: the app's window (``MoviePlayer/windowHandle``)
        /// does not exist or was destroyed while the movie played, or the X server refused a
        /// request on it (``MediaError/debugDetail`` names X's error and request).
        public static let invalidWindow = Code(.invalidWindow)
        /// The movie has no video stream (sound only), so there is no picture to take a
        /// thumbnail of.
        public static let noVideo = Code(.noVideo)
        /// The input claims more than the engine will allocate for it: a picture or video frames
        /// larger than ``MediaLimits/maximumFrameSide`` a side or ``MediaLimits/maximumFramePixels``
        /// in all (refused from the header, before any pixel is decoded).
        public static let tooLarge = Code(.tooLarge)
        /// A file could not be written for lack of space: the device is full, a quota is spent,
        /// or the process's file size limit was reached. Nothing incomplete is left in its place.
        public static let diskFull = Code(.diskFull)
        /// The server wants credentials (HTTP 401, or 407 from a proxy) and none were given, or the
        /// ones given were refused. The engine tries a credential once; it never loops.
        public static let unauthorized = Code(.unauthorized)
        /// The server refuses the request whatever the credentials (HTTP 403).
        public static let forbidden = Code(.forbidden)
        /// The server answered with an HTTP error status not covered by a more precise code
        /// (``MediaError/httpStatusCode`` has it: 400, 410, 500, 503, ...). A 404 is
        /// ``fileNotFound``.
        public static let httpError = Code(.httpError)
        /// The server's redirects never reached content (a redirect loop, or more than the HTTP
        /// client follows).
        public static let tooManyRedirects = Code(.tooManyRedirects)
        /// The server's host name does not resolve.
        public static let hostNotFound = Code(.hostNotFound)
        /// The server's host refused the connection (nothing listens on that port).
        public static let connectionRefused = Code(.connectionRefused)
        /// No connection to the server could be made, and the engine could not tell why more
        /// precisely (see ``MediaError/debugDetail``).
        public static let connectionFailed = Code(.connectionFailed)
        /// The connection broke while the movie was being read (reset, or a body shorter than
        /// the server announced).
        public static let connectionLost = Code(.connectionLost)
        /// The TLS handshake failed: a certificate from an unknown authority, for another host
        /// name, expired, or a server that does not speak TLS.
        public static let tlsFailure = Code(.tlsFailure)
        /// An HLS or DASH manifest is malformed, empty, or lists segments that cannot be read.
        public static let invalidPlaylist = Code(.invalidPlaylist)
        /// No source plays URLs of this scheme (``MediaSourceRegistry``): the message names the
        /// scheme, and the product to link when one of the engine's plays it.
        public static let unsupportedScheme = Code(.unsupportedScheme)
        /// A source is already registered for that scheme (``MediaSourceRegistry``).
        public static let duplicateSource = Code(.duplicateSource)
        /// A playback group's message could not be read: not the group's wire format, a field
        /// missing or of the wrong type, a line too long (PlaybackSync's `PlaybackGroupMessage`).
        public static let invalidGroupMessage = Code(.invalidGroupMessage)
        /// A playback group's message is well formed but of a version or kind this engine does
        /// not know (a newer member's): it is refused, not guessed at.
        public static let unsupportedGroupMessage = Code(.unsupportedGroupMessage)
        /// The address (a port) is taken by another program: a second group's time source on the
        /// same port, say.
        public static let addressInUse = Code(.addressInUse)
        /// A playback group's time source did not answer (nothing publishes a clock at that
        /// address, or the network drops its packets), so the group's clock cannot be followed.
        public static let timeSourceUnreachable = Code(.timeSourceUnreachable)
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence that says what failed, for people.
    public var message: String
    /// GStreamer's debug string or other detail for developers, if any.
    public var debugDetail: String?
    /// The name of the element (or factory) that failed, if one did.
    public var element: String?
    /// The HTTP status the server answered with, for errors of network sources that got an
    /// answer (401, 404, 500, ...); nil otherwise.
    public var httpStatusCode: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: A sentence that says what failed.
    ///   - debugDetail: Detail for developers.
    ///   - element: The element or factory that failed.
    ///   - httpStatusCode: The HTTP status the server answered with, if any.
    public init(
        _ code: Code, _ message: String, debugDetail: String? = nil, element: String? = nil,
        httpStatusCode: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.debugDetail = debugDetail
        self.element = element
        self.httpStatusCode = httpStatusCode
    }

    /// `code: message`, with the element when one failed.
    public var description: String {
        if let element { return "\(code): \(message) [\(element)]" }
        return "\(code): \(message)"
    }
}
