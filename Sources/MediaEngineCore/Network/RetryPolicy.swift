/// How a network movie recovers from failures that may pass: a broken connection, a server that
/// does not answer in time, a gateway or an overloaded server (HTTP 408, 429, 502, 503, 504). The
/// player waits, then loads the movie again in the same pipeline, at the position playback had
/// reached; each wait is twice the one before (``initialDelay``, then twice that, up to
/// ``maximumDelay``). Every other failure (a missing file, a refused credential, a bad
/// certificate, a name that does not resolve) ends playback at once. So does a refused
/// connection, unless ``retriesRefusedConnections`` asks for retries.
///
/// The count starts again once playback has moved on from where the last failure stopped it,
/// so a long stream survives a dropped connection now and then, while a server that fails at
/// the same place every time ends the movie after ``attempts`` tries.
///
/// ``deadline`` bounds the whole: from the start of the movie's load (or, for a movie that was
/// playing, from the failure) to the error, every try and wait included. When it passes, no
/// further try starts, and a try still waiting for the server's first answer ends with
/// ``MediaError/Code/timedOut``.
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a failed load is tried again before the error ends playback; 0 never.
    public var attempts: Int
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// The longest wait between two tries.
    public var maximumDelay: Duration
    /// How long getting the movie going may take in all, retries and waits included, before the
    /// player gives up; nil for no bound but the tries' own.
    public var deadline: Duration?
    /// Whether a refused connection (``MediaError/Code/connectionRefused``: nothing listens on
    /// the port) is tried again like the other failures that may pass. Off by default, as in
    /// curl (`--retry-connrefused`): a refusal is the host's own immediate answer, which
    /// waiting seldom changes (a server that is not running, a wrong port).
    public var retriesRefusedConnections: Bool

    /// A policy.
    /// - Parameters:
    ///   - attempts: How many retries (negative counts as 0).
    ///   - initialDelay: The first wait (negative counts as 0).
    ///   - maximumDelay: The longest wait (at least `initialDelay`).
    ///   - deadline: How long getting the movie going may take in all; nil for no bound
    ///     (negative counts as 0).
    ///   - retriesRefusedConnections: Whether a refused connection is tried again.
    public init(
        attempts: Int, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8),
        deadline: Duration? = nil, retriesRefusedConnections: Bool = false
    ) {
        self.attempts = max(attempts, 0)
        self.initialDelay = max(initialDelay, .zero)
        self.maximumDelay = max(maximumDelay, self.initialDelay)
        self.deadline = deadline.map { max($0, .zero) }
        self.retriesRefusedConnections = retriesRefusedConnections
    }

    /// No retries: the first failure ends playback (local files, and sources that retry on their own).
    public static let never = RetryPolicy(attempts: 0)

    /// The wait before retry `attempt` (1 for the first): the initial delay doubled for each
    /// retry before it, at most ``maximumDelay``.
    /// - Parameter attempt: The retry's number, from 1.
    /// - Returns: The wait.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) {
            guard delay < maximumDelay else { break }
            delay *= 2
        }
        return min(delay, maximumDelay)
    }

    /// Whether this policy tries a load again after `error` (tries left and the deadline aside):
    /// a failure that may pass (``isTransient(_:)``), a refused connection only with
    /// ``retriesRefusedConnections``.
    /// - Parameter error: The failure.
    /// - Returns: Whether it is worth another try.
    public func retries(after error: MediaError) -> Bool {
        guard Self.isTransient(error) else { return false }
        return error.code != .connectionRefused || retriesRefusedConnections
    }

    /// Whether a failure may pass, so that loading the movie again could succeed.
    /// - Parameter error: The failure.
    /// - Returns: True for a refused, failed or broken connection, a timeout, and HTTP 408,
    ///   429, 502, 503 and 504.
    public static func isTransient(_ error: MediaError) -> Bool {
        switch error.code {
        case .connectionRefused, .connectionFailed, .connectionLost, .timedOut:
            return true
        case .httpError:
            return error.httpStatusCode.map { [408, 429, 502, 503, 504].contains($0) } ?? false
        default:
            return false
        }
    }
}
