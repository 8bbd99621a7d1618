import MediaEngineCore

/// How an ``HTTPStreamSource`` talks to its server: headers, cookies, identity, timeouts,
/// retries, TLS trust and credentials. The defaults suit most servers: certificates verified
/// against the system's authorities, redirects followed, three retries after growing waits, and
/// a movie that is not going within 20 s, retries included, fails (``connectionDeadline``).
public struct HTTPStreamOptions: Sendable, Hashable {
    /// Extra request headers (`["X-Token": "abc"]`). Names are HTTP tokens (letters, digits,
    /// `-` and `_`); values may not contain line breaks.
    public var headers: [String: String] = [:]
    /// Cookies sent with every request, each `name=value`.
    public var cookies: [String] = []
    /// The `User-Agent` header; nil for GStreamer's own (`GStreamer souphttpsrc ... libsoup/...`).
    public var userAgent: String?
    /// How long connecting, and each read, may take before the request fails. libsoup, which
    /// makes the requests, has one timeout for both. Whole seconds; at least one. The default,
    /// 8 s (ExoPlayer's too), leaves room within the default ``connectionDeadline`` for a
    /// silent server's retries, which are announced, to be tried.
    public var timeout: Duration = .seconds(8)
    /// How many times the player loads the movie again after a failure that may pass (a
    /// failed or broken connection, a timeout, HTTP 408, 429, 502, 503 or 504; a refused
    /// connection only with ``retriesRefusedConnections``) before the error ends playback. Each
    /// try waits longer than the one before: ``retryDelay``, then twice that, up to
    /// ``maximumRetryDelay`` (`RetryPolicy`); none starts after the ``connectionDeadline``. A
    /// body that breaks after some of it arrived is first asked for again at once, from where
    /// it broke.
    public var retries: Int = 3
    /// The wait before the first retry; each next retry waits twice as long.
    public var retryDelay: Duration = .milliseconds(500)
    /// The longest wait between two retries.
    public var maximumRetryDelay: Duration = .seconds(8)
    /// How long getting the movie going may take in all: from the start of its load (or, once
    /// it played, from a failure) until it is prepared, every try, ``timeout`` and wait
    /// between ``retries`` included. When it is over, no retry starts, and a request the server
    /// has not answered yet ends playback with `MediaError.Code.timedOut`; a download under
    /// way (a slow server) goes on. Each retry is announced first
    /// (`PlayerEvent.reconnecting(attempt:delay:error:)`). With the defaults, a server that
    /// accepts the connection and says nothing is `timedOut` within about 20 s, after two
    /// retries. nil: no deadline (``retries`` tries of ``timeout`` each, and the waits).
    public var connectionDeadline: Duration? = .seconds(20)
    /// Whether a refused connection (`MediaError.Code.connectionRefused`: nothing listens on
    /// the port) is tried again like the other failures that may pass. Off by default, as
    /// curl's `--retry` leaves it unless `--retry-connrefused` asks: a refusal is the host's
    /// own answer, at once, which a few seconds of waiting seldom changes (a server that is
    /// not running, a wrong port), on a LAN or across the Internet alike; so the error comes
    /// within a second. On for a server known to restart now and then.
    public var retriesRefusedConnections = false
    /// A file of PEM certificates of the authorities to trust instead of the system's (a
    /// private CA, a test server's).
    public var certificateAuthorityFile: String?
    /// Accepts any server certificate: an unknown authority, another host's, an expired one.
    /// Anyone between the player and the server can then read and change the stream. Off by
    /// default; only for test servers with throwaway certificates.
    public var insecurelyAcceptsAnyCertificate = false
    /// The credential for this stream, sent when the server challenges; it overrides
    /// ``credentialStore``. A URL's own user information (`https://user:pw@host/...`) becomes
    /// this credential and is removed from the URL.
    public var credential: HTTPCredential?
    /// Where credentials are looked up when the server challenges and ``credential`` is nil;
    /// nil to look nowhere.
    public var credentialStore: CredentialStore? = .shared
    /// What the app knows the stream is (MPMoviePlayerController's `movieSourceType` set before
    /// playing): `.streaming` for an HLS or DASH manifest, `.file` for a progressive download.
    /// `.unknown` (the default) lets the engine tell from the URL and then the content.
    public var sourceTypeHint: MovieSourceType = .unknown
    /// How an HLS or DASH stream picks among its variants: by default it starts on the lowest
    /// one, for the quickest start, and then follows the measured bandwidth.
    public var adaptive = AdaptiveStreamingOptions()

    /// Default options.
    public init() {}

    /// Whether two sets of options are the same (the same credential store object, too).
    public static func == (lhs: HTTPStreamOptions, rhs: HTTPStreamOptions) -> Bool {
        lhs.headers == rhs.headers && lhs.cookies == rhs.cookies && lhs.userAgent == rhs.userAgent
            && lhs.timeout == rhs.timeout && lhs.retries == rhs.retries && lhs.retryDelay == rhs.retryDelay
            && lhs.maximumRetryDelay == rhs.maximumRetryDelay && lhs.connectionDeadline == rhs.connectionDeadline
            && lhs.retriesRefusedConnections == rhs.retriesRefusedConnections
            && lhs.certificateAuthorityFile == rhs.certificateAuthorityFile
            && lhs.insecurelyAcceptsAnyCertificate == rhs.insecurelyAcceptsAnyCertificate
            && lhs.credential == rhs.credential && lhs.credentialStore === rhs.credentialStore
            && lhs.sourceTypeHint == rhs.sourceTypeHint && lhs.adaptive == rhs.adaptive
    }

    /// Hashes the options (the store by nothing: equal options have equal stores).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(headers)
        hasher.combine(cookies)
        hasher.combine(userAgent)
        hasher.combine(credential)
        hasher.combine(certificateAuthorityFile)
    }
}
