import Foundation
import MediaEngineCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls tracking URLs (impressions, tracking events, errors, click tracking) without making
/// anyone wait: each is a `GET` on an ephemeral `URLSession` of the sender's own, with its
/// `User-Agent`, whose answer only matters when it is a failure.
///
/// Threads: ``fire(_:event:)`` and ``fire(templates:event:macros:)`` return at once, from any
/// thread, and never throw. A beacon that fails (a status of 400 or more, a connection that
/// fails or times out, a template that makes no `http` URL) is added to ``failures`` and
/// passed to `onFailure`, on a thread of `URLSession`'s (or the caller's, for a template),
/// never under the sender's lock. ``flush(within:)`` waits for the beacons in flight.
///
/// Beacons of one call go out together, not one after the other: their order on the wire is
/// not defined. The sender lives until its last beacon has answered.
public final class BeaconSender: Sendable {
    /// A beacon that failed.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The event it was fired for (`impression`, `start`, `error`, ...).
        public let event: String
        /// The URL called; nil when the template made no URL.
        public let url: URL?
        /// The template, when it made no `http` or `https` URL (nothing was sent).
        public let template: String?
        /// The HTTP status, when the server answered.
        public let status: Int?
        /// What went wrong.
        public let reason: String

        /// A failure.
        /// - Parameters:
        ///   - event: The event it was fired for.
        ///   - url: The URL called.
        ///   - template: The template, when it made no URL.
        ///   - status: The HTTP status.
        ///   - reason: What went wrong.
        public init(event: String, url: URL?, template: String? = nil, status: Int? = nil, reason: String) {
            self.event = event
            self.url = url
            self.template = template
            self.status = status
            self.reason = reason
        }

        /// `event URL: reason`.
        public var description: String {
            "\(event) \(url?.absoluteString ?? template ?? "-"): \(reason)"
        }
    }

    private struct State {
        var pending = 0
        var sent = 0
        var failures: [Failure] = []
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    /// The `User-Agent` header of the beacons.
    public let userAgent: String
    /// How long a beacon may take before it counts as failed, in whole seconds (rounded up,
    /// at least one: FoundationNetworking keeps only the whole seconds of a timeout).
    public let timeout: Duration
    private let session: URLSession
    /// Where beacons' transfers are made and started: both wait for the session's own queue
    /// (`sync` calls in FoundationNetworking), which ``fire(_:event:)``'s caller, often one of
    /// Swift's cooperative threads, must not.
    private let sending = DispatchQueue(label: "swift-media-engine.beacons")
    private let onFailure: (@Sendable (Failure) -> Void)?
    private let state = Locked(State())

    /// A sender with its own ephemeral `URLSession`.
    /// - Parameters:
    ///   - userAgent: The `User-Agent` header of the beacons.
    ///   - timeout: How long a beacon may take.
    ///   - onFailure: Called with each failure (after it is added to ``failures``), on any thread.
    public init(
        userAgent: String = "swift-media-engine", timeout: Duration = .seconds(5),
        onFailure: (@Sendable (Failure) -> Void)? = nil
    ) {
        self.userAgent = userAgent
        self.timeout = timeout
        self.onFailure = onFailure
        session = URLSession.uncached(timeout: timeout)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The beacons that failed so far, in the order they failed.
    public var failures: [Failure] { state.withLock { $0.failures } }

    /// How many beacons are in flight.
    public var pendingCount: Int { state.withLock { $0.pending } }

    /// How many beacons were sent so far (answered or not).
    public var sentCount: Int { state.withLock { $0.sent } }

    /// Calls each URL once, in the background.
    /// - Parameters:
    ///   - urls: The URLs; one that is not `http` or `https` is recorded as a failure.
    ///   - event: What they are fired for, for ``failures``.
    public func fire(_ urls: [URL], event: String) {
        for url in urls {
            let scheme = url.scheme?.lowercased()
            guard scheme == "http" || scheme == "https" else {
                record(Failure(event: event, url: url, reason: "not an http or https URL"))
                continue
            }
            var request = URLRequest(url: url)
            request.timeoutInterval = timeout.urlSessionTimeout
            request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
            state.withLock {
                $0.pending += 1
                $0.sent += 1
            }
            sending.async { [self, request] in
                let task = session.dataTask(with: request) { [self] _, response, error in
                    let status = (response as? HTTPURLResponse)?.statusCode
                    if let error {
                        record(Failure(event: event, url: url, status: status, reason: error.localizedDescription))
                    } else if let status, status >= 400 {
                        record(
                            Failure(event: event, url: url, status: status, reason: "answered with status \(status)"))
                    }
                    finishOne()
                }
                task.resume()
            }
        }
    }

    /// Expands each template with `macros` (``VASTMacros/url(_:relativeTo:)``) and calls the URLs, in the
    /// background; a template that makes no `http` or `https` URL is recorded as a failure.
    /// - Parameters:
    ///   - templates: URI templates from a VAST document.
    ///   - event: What they are fired for.
    ///   - macros: The macros' values.
    public func fire(templates: [String], event: String, macros: VASTMacros) {
        var urls: [URL] = []
        for template in templates {
            if let url = macros.url(template) {
                urls.append(url)
            } else {
                record(
                    Failure(
                        event: event, url: nil, template: template,
                        reason: "not an http or https URL once its macros are replaced"))
            }
        }
        fire(urls, event: event)
    }

    /// Returns once every beacon fired so far has been handed to the session (its request
    /// started), without waiting for any answer.
    func handedOver() async {
        await withCheckedContinuation { continuation in sending.async { continuation.resume() } }
    }

    /// Waits until no beacon is in flight, for at most `limit`.
    /// - Parameter limit: How long to wait at most.
    /// - Returns: Whether every beacon had answered (or failed) in time.
    @discardableResult
    public func flush(within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await waitUntilIdle()
                return !Task.isCancelled
            }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                } catch {
                    // Cancelled: the beacons were done first, and this result is not read.
                }
                return false
            }
            let idle = await group.next() ?? false
            group.cancelAll()
            return idle
        }
    }

    private func record(_ failure: Failure) {
        state.withLock { $0.failures.append(failure) }
        onFailure?(failure)
    }

    private func finishOne() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pending -= 1
            guard state.pending == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns when nothing is in flight, or the task is cancelled. Continuations are resumed
    /// outside the lock. The task's cancelled flag is set before its cancellation handler
    /// runs, so a waiter registering after the handler found nothing sees the flag.
    private func waitUntilIdle() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending == 0 || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
