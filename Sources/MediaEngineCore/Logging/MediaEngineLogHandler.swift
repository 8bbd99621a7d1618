/// Where the engine's log goes when an app wants it: shaped like swift-log's `LogHandler`, so that
/// bridging it to a swift-log `Logger` (or an app's own logger) takes a few lines
/// (<doc:Logging>). Install one with ``MediaEngineLog/setHandler(_:forwarding:)``.
///
/// It receives the engine's own records (a player's decisions and bus messages, workaround
/// decisions, warnings) and, when asked (``MediaEngineLog/Forwarding``), GStreamer's debug log and
/// libav's messages.
///
/// The rules the engine keeps, and an implementation can count on:
/// - **One thread.** ``log(level:category:message:metadata:)`` is called on the engine's logging
///   thread (named `me-log`), one record at a time, never concurrently, in the order the records
///   were emitted by each thread. Never on a GStreamer streaming thread, a player's thread or the
///   caller's.
/// - **Nothing secret.** Every message and metadata value has been through the engine's
///   redaction: user information in URLs, every query value, the values of authorization, cookie
///   and token headers, and the passwords, header values and cookies the engine was given
///   (sources' settings, `CredentialStore`) are replaced with `<redacted>`.
/// - **Bounded.** Records wait in a queue of at most 4,096 records and 4 MB for the handler.
///   While the handler is slower than the log, new records are dropped, and the next record
///   delivered is preceded by a `warning` in category `engine` saying how many.
///
/// And the rules an implementation keeps:
/// - Return promptly: every record behind this one waits, and a full queue drops records.
/// - Do not wait for the engine from ``log(level:category:message:metadata:)`` (a player's
///   command, ``MediaEngineLog/flush()``): the logging thread would wait for itself.
///
/// Categories: `player` (decisions), `bus` (bus messages), `workarounds`, `engine` (warnings of
/// the engine itself: a teardown stuck, records dropped), `gstreamer` (GStreamer's debug log),
/// `libav` (libav's messages); see ``MediaEngineLog/Category``.
public protocol MediaEngineLogHandler: Sendable {
    /// The least severe level this handler wants: the engine does not even build its own records
    /// below it (GStreamer's and libav's are chosen by ``MediaEngineLog/Forwarding``). Read once,
    /// when the handler is installed. Defaults to `info`, as swift-log's handlers do.
    var logLevel: MediaEngineLog.Level { get }

    /// Handles one record, on the engine's logging thread.
    /// - Parameters:
    ///   - level: How severe it is.
    ///   - category: Where it comes from: `player`, `bus`, `workarounds`, `engine`, `gstreamer`,
    ///     `libav` (``MediaEngineLog/Category``).
    ///   - message: What happened, redacted.
    ///   - metadata: Details, redacted: for GStreamer's and libav's records `gst.category`,
    ///     `gst.level`, `gst.object` (when the message is about one), `file`, `function`, `line`.
    func log(level: MediaEngineLog.Level, category: String, message: String, metadata: [String: String])
}

extension MediaEngineLogHandler {
    /// `info`, swift-log's default.
    public var logLevel: MediaEngineLog.Level { .info }
}
