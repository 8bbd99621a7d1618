/// Why a pre-roll ad did not play, or stopped: MPMoviePlayerController's ad errors (no
/// inventory, frequency cap, configuration, media playback), each with the IAB VAST error code
/// that the ad's Error URIs are told (``vastErrorCode``, the `[ERRORCODE]` macro).
///
/// When an ad fails, the content is not affected: it plays when the app chooses (`play()`).
public struct PrerollAdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The ad server has no ad for this request (VAST 303): an empty answer (no body, HTTP
        /// 204), an empty `<VAST/>`, an `<InLine>` ad without creatives, or a wrapper chain that
        /// ends in one of these.
        case noInventory
        /// The frequency cap allows no ad now (too many in the interval, or too soon after the last).
        case frequencyCapExceeded
        /// The request cannot be served as configured: an invalid ad tag URL, or a VAST version
        /// the engine does not read (VAST 102).
        case configuration
        /// The wrapper chain is longer than the request allows, or loops (VAST 302).
        case wrapperLimitReached
        /// The ad tag (or a wrapper's) did not answer in time or could not be fetched (VAST 301).
        case vastTimeout
        /// The document is not VAST: XML that does not parse, or misses what VAST requires (VAST 100).
        case malformedVAST
        /// The chosen media file was not found on its server (VAST 401).
        case mediaFileNotFound
        /// The media file did not start playing in time (VAST 402).
        case mediaTimeout
        /// No media file of the ad can be played here: none progressive in a supported type (VAST 403).
        case noSupportedMediaFile
        /// The media file failed while it loaded or played (VAST 405).
        case playbackFailed
        /// The player was playing, or set to autoplay, when the ad was asked for (nothing played).
        case playerBusy
        /// The ad was stopped before its end by `stop()`, a new source, or task cancellation.
        case cancelled
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence for people.
    public let message: String
    /// The player's error behind a media failure (``Code/playbackFailed``, ``Code/mediaFileNotFound``, ...).
    public let underlying: MediaError?

    /// Creates an error, as the pre-roll source does; an app that wraps its own ad logic can throw
    /// these too.
    /// - Parameters:
    ///   - code: What kind of failure; it decides ``vastErrorCode``.
    ///   - message: A sentence for people, naming what failed (the tag's URL, the media file).
    ///   - underlying: The player's error behind a media failure, if there is one.
    public init(_ code: Code, _ message: String, underlying: MediaError? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The IAB VAST error code for the ad's Error URIs; nil for failures VAST has no code for
    /// (the frequency cap, a busy player, a cancelled ad), which fire no Error URI.
    public var vastErrorCode: Int? {
        switch code {
        case .noInventory: 303
        case .configuration: 102
        case .wrapperLimitReached: 302
        case .vastTimeout: 301
        case .malformedVAST: 100
        case .mediaFileNotFound: 401
        case .mediaTimeout: 402
        case .noSupportedMediaFile: 403
        case .playbackFailed: 405
        case .frequencyCapExceeded, .playerBusy, .cancelled: nil
        }
    }

    /// `code: message`, with the player's error when there is one.
    public var description: String {
        underlying.map { "\(code.rawValue): \(message) (\($0))" } ?? "\(code.rawValue): \(message)"
    }
}
