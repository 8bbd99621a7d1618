/// How a network movie recovers from failures that may pass: a refused or broken connection, a
/// server that does not answer in time, a gateway or an overloaded server (HTTP 408, 429, 502,
/// 503, 504). The player waits, then loads the movie again in the same pipeline, at the position
/// playback had reached; each wait is twice the one before (``initialDelay``, then twice that,
/// up to ``maximumDelay``). Every other failure (a missing file, a refused credential, a bad
/// certificate, a name that does not resolve) ends playback at once.
///
/// The count starts again once playback has moved on from where the last failure stopped it,
/// so a long stream survives a dropped connection now and then, while a server that fails at
/// the same place every time ends the movie after ``attempts`` tries.
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a failed load is tried again before the error ends playback; 0 never.
    public var attempts: Int
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// The longest wait between two tries.
    public var maximumDelay: Duration

    /// A policy.
    /// - Parameters:
    ///   - attempts: How many retries (negative counts as 0).
    ///   - initialDelay: The first wait (negative counts as 0).
    ///   - maximumDelay: The longest wait (at least `initialDelay`).
    public init(attempts: Int, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8)) {
        self.attempts = max(attempts, 0)
        self.initialDelay = max(initialDelay, .zero)
        self.maximumDelay = max(maximumDelay, self.initialDelay)
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
