import Foundation
import MediaEngineCore

/// A movie on an HTTP(S) server: a progressive download (MP4, WebM, MPEG-TS, ...), an HLS
/// playlist or a DASH manifest, read by GStreamer's HTTP source (souphttpsrc, libsoup) and
/// adaptive demuxers.
///
/// ```swift
/// var options = HTTPStreamOptions()
/// options.headers = ["X-Token": "abc"]
/// let player = MoviePlayer(source: try HTTPStreamSource(url: movieURL, options: options))
/// ```
///
/// What it adds to a bare URI:
/// - the options (``HTTPStreamOptions``): headers, cookies, user agent, timeout, retries, TLS
///   trust (verification is on; turning it off takes a loudly named option);
/// - credentials: the source's own, or the ``CredentialStore``'s for the protection space a
///   server's 401 names, sent once (a refused one is `MediaError.Code.unauthorized`);
/// - errors that say what happened: the HTTP status (`MediaError.httpStatusCode`), and for a
///   connection that failed, why (`MediaError.Code.hostNotFound`,
///   `MediaError.Code.connectionRefused`, `MediaError.Code.tlsFailure`, ...), found by
///   connecting again with the same network stack;
/// - no credential in anything it reports: user information in the URL becomes the source's
///   credential and leaves the URI.
public struct HTTPStreamSource: MediaSource {
    /// The URL, without user information.
    public let url: URL
    /// How to talk to the server.
    public var options: HTTPStreamOptions
    /// The credential sent after a challenge, when one was found in the store.
    private var answeredCredential: HTTPCredential?

    /// A source for an `http` or `https` URL.
    /// - Parameters:
    ///   - url: The movie's or manifest's URL. User information in it becomes
    ///     ``HTTPStreamOptions/credential`` (unless the options already have one).
    ///   - options: How to talk to the server.
    /// - Throws: `MediaError.Code.invalidArgument` for a URL that is not `http` or `https`
    ///   or has no host.
    public init(url: URL, options: HTTPStreamOptions = HTTPStreamOptions()) throws(MediaError) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else {
            throw MediaError(
                .invalidArgument, "'\(URIRedaction.removingUserInfo(url.absoluteString))' is not an http(s) URL")
        }
        var options = options
        if let user = components.user {
            if options.credential == nil {
                options.credential = HTTPCredential(
                    user: components.user.flatMap { $0.removingPercentEncoding } ?? user,
                    password: components.password.flatMap { $0.removingPercentEncoding } ?? "")
            }
            components.user = nil
            components.password = nil
        }
        guard let clean = components.url else {
            throw MediaError(.invalidArgument, "'\(URIRedaction.removingUserInfo(url.absoluteString))' is not a URL")
        }
        self.url = clean
        self.options = options
    }

    /// A source for a URL string.
    /// - Parameters:
    ///   - string: The URL.
    ///   - options: How to talk to the server.
    /// - Throws: `MediaError.Code.invalidArgument` for a string that is not an http(s) URL.
    public init(string: String, options: HTTPStreamOptions = HTTPStreamOptions()) throws(MediaError) {
        guard let url = URL(string: string) else {
            throw MediaError(.invalidArgument, "'\(URIRedaction.removingUserInfo(string))' is not a URL")
        }
        try self.init(url: url, options: options)
    }

    /// The URL, escaped, with no user information.
    public var uri: String { url.absoluteString }

    /// The app's hint when it gave one; otherwise `.streaming` for a URL that names an HLS or
    /// DASH manifest (`.m3u8`, `.mpd`), else `.unknown` until the content's type is known
    /// (then `.file` for a progressive download, `.streaming` for a manifest).
    public var sourceType: MovieSourceType {
        if options.sourceTypeHint != .unknown { return options.sourceTypeHint }
        let name = url.path.lowercased()
        return name.hasSuffix(".m3u8") || name.hasSuffix(".mpd") ? .streaming : .unknown
    }

    /// Refuses options the HTTP client would misread.
    /// - Throws: `MediaError.Code.invalidArgument` (a header name that is not a token, a
    ///   header value or cookie with a line break, a timeout under a second, negative retries or
    ///   retry delays, a connection deadline that is not positive)
    ///   or `MediaError.Code.fileNotFound` (a missing CA file).
    public func validate() throws(MediaError) {
        for (name, value) in options.headers {
            guard !name.isEmpty,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { throw MediaError(.invalidArgument, "'\(name)' is not an HTTP header name") }
            guard !value.contains(where: \.isNewline) else {
                throw MediaError(.invalidArgument, "the value of header \(name) has a line break")
            }
        }
        guard !options.cookies.contains(where: { $0.contains(where: \.isNewline) }) else {
            throw MediaError(.invalidArgument, "a cookie has a line break")
        }
        guard options.timeout >= .seconds(1) else {
            throw MediaError(.invalidArgument, "the timeout must be at least a second, not \(options.timeout)")
        }
        guard options.retries >= 0 else { throw MediaError(.invalidArgument, "retries cannot be negative") }
        guard options.retryDelay >= .zero, options.maximumRetryDelay >= options.retryDelay else {
            throw MediaError(
                .invalidArgument, "the retry delay cannot be negative, nor above the maximum retry delay")
        }
        if let deadline = options.connectionDeadline, deadline <= .zero {
            throw MediaError(.invalidArgument, "the connection deadline must be positive, not \(deadline)")
        }
        let adaptive = options.adaptive
        guard adaptive.startBitrate.map({ $0 > 0 }) ?? true, adaptive.fixedBandwidth.map({ $0 > 0 }) ?? true else {
            throw MediaError(.invalidArgument, "a start bitrate or fixed bandwidth must be positive")
        }
        guard adaptive.bandwidthFraction.map({ $0 > 0 && $0 <= 1 }) ?? true else {
            throw MediaError(.invalidArgument, "the bandwidth fraction must be above 0 and at most 1")
        }
        if let file = options.certificateAuthorityFile, !FileManager.default.isReadableFile(atPath: file) {
            throw MediaError(.fileNotFound, "no readable certificate authorities file at \(file)")
        }
    }

    /// souphttpsrc's properties for these options.
    public var settings: SourceSettings {
        var properties: [String: PropertyValue] = [
            "automatic-redirect": true,
            "timeout": .int(Int(max(1, options.timeout.components.seconds))),
            // The player retries, with growing waits (retryPolicy); souphttpsrc on its own would
            // ask again at once. (It still resumes a body that broke after data came, once.)
            "retries": .int(0),
            "ssl-strict": .bool(!options.insecurelyAcceptsAnyCertificate),
        ]
        if let agent = options.userAgent { properties["user-agent"] = .string(agent) }
        if !options.headers.isEmpty { properties["extra-headers"] = .string(Self.structure(of: options.headers)) }
        if !options.cookies.isEmpty { properties["cookies"] = .strings(options.cookies) }
        if let file = options.certificateAuthorityFile { properties["ssl-ca-file"] = .string(file) }
        if let credential = options.credential ?? answeredCredential {
            properties["user-id"] = .string(credential.user)
            properties["user-pw"] = .string(credential.password)
        }
        return SourceSettings(
            properties: properties, demuxerProperties: options.adaptive.demuxerProperties,
            startBitrate: options.adaptive.fixedBandwidth == nil ? options.adaptive.startBitrate : nil)
    }

    /// ``HTTPStreamOptions/retries`` tries after growing waits, from ``HTTPStreamOptions/retryDelay``
    /// to ``HTTPStreamOptions/maximumRetryDelay``, within ``HTTPStreamOptions/connectionDeadline``;
    /// refused connections too with ``HTTPStreamOptions/retriesRefusedConnections``.
    public var retryPolicy: RetryPolicy {
        RetryPolicy(
            attempts: options.retries, initialDelay: options.retryDelay, maximumDelay: options.maximumRetryDelay,
            deadline: options.connectionDeadline, retriesRefusedConnections: options.retriesRefusedConnections)
    }

    /// How long the probe of a failed connection waits for the server's first byte, once
    /// connected: the player's own request has just gone unanswered, so a second more tells a
    /// silent server from one that answers again, without doubling the wait.
    static let probeAnswerWait = Duration.seconds(1)

    /// A failed connection (no HTTP answer) gets its reason: the probe connects again, with the
    /// same resolver, sockets and TLS, and names what failed. Other errors come back unchanged.
    /// Runs on the player's thread and takes at most ``HTTPStreamOptions/timeout`` to connect,
    /// and a second more for an answer (a server that accepts and says nothing is `timedOut`).
    /// - Parameter error: The error the engine reported.
    /// - Returns: The more precise error.
    public func interpret(_ error: MediaError) -> MediaError {
        if let playlistError = PlaylistErrors.interpret(error, manifestURL: sourceType == .streaming) {
            return playlistError
        }
        guard error.code == .connectionFailed, let host = url.host else { return error }
        let secure = url.scheme?.lowercased() == "https"
        let diagnosis = ConnectionProbe.probe(
            host: host, port: url.port ?? (secure ? 443 : 80), tls: secure,
            certificateAuthorityFile: options.certificateAuthorityFile,
            strict: !options.insecurelyAcceptsAnyCertificate,
            timeout: options.timeout, answerWait: min(options.timeout, Self.probeAnswerWait),
            path: url.path.isEmpty ? "/" : url.path)
        return diagnosis.refine(error, host: host, timeout: options.timeout)
    }

    /// Answers a 401 challenge once with the store's credential for its protection space; nil
    /// when the source already sent one (its own, or the store's) or the store has none.
    /// - Parameter challenge: The server's challenge.
    /// - Returns: This source with the credential, or nil.
    public func answering(_ challenge: AuthenticationChallenge) -> (any MediaSource)? {
        guard options.credential == nil, answeredCredential == nil,
            let credential = options.credentialStore?.credential(for: challenge.protectionSpace)
        else { return nil }
        var answered = self
        answered.answeredCredential = credential
        return answered
    }

    /// `headers, Name=(string)"value", ...`: the GstStructure text souphttpsrc's `extra-headers`
    /// takes, with quotes and backslashes escaped.
    static func structure(of headers: [String: String]) -> String {
        let fields = headers.keys.sorted().map { name -> String in
            let value = headers[name]!.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
            return "\(name)=(string)\"\(value)\""
        }
        return (["headers"] + fields).joined(separator: ", ")
    }
}
