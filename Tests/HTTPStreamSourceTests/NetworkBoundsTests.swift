import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport
import Testing

/// Network failures end in bounded time with a typed error, the retries announced before it:
/// a server that accepts the connection and never answers is `timedOut` within the connection
/// deadline (20 s by default), a refused port is `connectionRefused` within a second unless
/// the app asks for retries. Timings are measured from `play()` to the finish event.
@Suite("Network failures in bounded time")
struct NetworkBoundsTests {
    /// Plays `url` with `options` to its finish; returns the error, the time it took and the
    /// retries announced (attempt, delay).
    static func fail(
        _ url: String, options: HTTPStreamOptions, within limit: Duration
    ) async throws -> (MediaError?, Duration, [(attempt: Int, delay: Duration)]) {
        let started = ContinuousClock.now
        let (reason, error, _, _, recorder) = try await ConnectionFaultTests.play(url, options: options, within: limit)
        let took = ContinuousClock.now - started
        #expect(reason == .playbackError, "\(recorder.events)")
        let retries = recorder.events.compactMap { event -> (Int, Duration)? in
            guard case .reconnecting(let attempt, let delay, _) = event else { return nil }
            return (attempt, delay)
        }
        return (error, took, retries)
    }

    /// The fault-injecting server, serving the numbered clip with `fault`.
    static func server(_ fault: FaultInjectingServer.Fault = .none) async throws -> FaultInjectingServer {
        try FaultInjectingServer(serving: try await TestMedia.url(for: TestMedia.numbered), fault: fault)
    }

    @Test("a silent server is timedOut when a short connection deadline passes, its retries announced before")
    func silentServerShortDeadline() async throws {
        let server = try await Self.server(.neverAnswer)
        var options = HTTPStreamOptions()
        options.timeout = .seconds(1)
        options.retryDelay = .milliseconds(200)
        options.connectionDeadline = .seconds(4)
        // A try takes the 1 s timeout and the probe's 1 s: the second is being probed when the
        // deadline passes. The probe's answer may come before the deadline's timer on the
        // player's thread: then a third try is announced, and its wait ends at the timer.
        let (error, took, retries) = try await Self.fail(server.url(), options: options, within: .seconds(15))
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        #expect(took >= .milliseconds(3900), "not before the deadline: \(took)")
        #expect(took < Duration.seconds(6).scaled, "the deadline, and at most the probe's second: \(took)")
        #expect(retries.map(\.attempt) == Array(1...max(retries.count, 1)) && (1...2).contains(retries.count))
        #expect(retries.first?.delay == .milliseconds(200))
        #expect(server.requests.filter { $0.method == "GET" }.count == 2, "\(server.requests.map(\.method))")
    }

    @Test("with the default options a silent server is timedOut within 20 s, after two announced retries")
    func silentServerDefaultDeadline() async throws {
        let server = try await Self.server(.neverAnswer)
        // 8 s timeout, 1 s probe, 0.5 s wait, again, 1 s wait: the third try starts at about
        // 19.7 s (or, on a busy machine, is still waiting) when the deadline passes.
        let (error, took, retries) = try await Self.fail(
            server.url(), options: HTTPStreamOptions(), within: .seconds(30))
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        #expect(error?.message.contains("did not answer within") == true, "\(String(describing: error))")
        #expect(took >= .milliseconds(19_900), "not before the deadline: \(took)")
        #expect(took < Duration.seconds(22).scaled, "about 20 s: \(took)")
        #expect(retries.map(\.attempt) == [1, 2] && retries.map(\.delay) == [.milliseconds(500), .seconds(1)])
        let gets = server.requests.filter { $0.method == "GET" }.count
        #expect((2...3).contains(gets), "\(server.requests.map(\.method))")
    }

    @Test("a server that keeps answering 503 ends the movie with its 503 when the deadline passes during a wait")
    func unavailableUntilDeadline() async throws {
        let server = try await Self.server(.status(503))
        var options = HTTPStreamOptions()
        options.retries = 10
        options.retryDelay = .seconds(4)
        options.connectionDeadline = .seconds(2)
        // The 503 comes at once, the retry would wait 4 s: the deadline passes in the wait. (On a
        // machine so busy that the 503 comes after 2 s, the answered try goes on and its 503,
        // no longer retried, ends the movie just the same.)
        let (error, took, retries) = try await Self.fail(server.url(), options: options, within: .seconds(15))
        #expect(error?.code == .httpError && error?.httpStatusCode == 503, "\(String(describing: error))")
        #expect(took >= .milliseconds(1900) && took < Duration.seconds(4).scaled, "not after the wait: \(took)")
        #expect(retries.count <= 1 && retries.allSatisfy { $0.attempt == 1 && $0.delay == .seconds(4) })
        #expect(server.requests.filter { $0.method == "GET" }.count == 1, "no try after the deadline")
    }

    @Test(
        "a refused port is connectionRefused within a second, with no retry, by default (ProgressiveHTTPTests asks for retries)"
    )
    func refusedAtOnce() async throws {
        // What any failure that is not retried costs here and now (a 404: an answer at once),
        // so that a loaded machine, which slows both alike, does not fail the bound.
        let missing = try await Self.server(.status(404))
        let (notFound, control, _) = try await Self.fail(
            missing.url(), options: HTTPStreamOptions(), within: .seconds(10))
        #expect(notFound?.code == .fileNotFound)
        // A server that stopped: nothing listens on its port any more.
        let server = try await Self.server()
        server.stop()
        let (error, took, retries) = try await Self.fail(
            server.url(), options: HTTPStreamOptions(), within: .seconds(10))
        #expect(error?.code == .connectionRefused, "\(String(describing: error))")
        #expect(retries.isEmpty)
        // Within a second on a quiet machine (0.2-0.5 s measured); the retries it had before
        // took 3.5 s more than any failure.
        #expect(took < max(.seconds(1), control + .milliseconds(500)), "\(took), a 404 \(control)")
    }

    @Test("curl's --retry-max-time and --retry-connrefused set the deadline and refused retries")
    func commandLine() throws {
        var options = HTTPStreamOptions()
        #expect(options.connectionDeadline == .seconds(20) && !options.retriesRefusedConnections)
        #expect(try options.applyCommandLineFlag("--retry-max-time", "7.5"))
        #expect(options.connectionDeadline == .milliseconds(7500))
        #expect(try options.applyCommandLineFlag("--retry-max-time", "0"))
        #expect(options.connectionDeadline == nil, "0: no deadline, as in curl")
        let switched = options.applyCommandLineSwitch("--retry-connrefused")
        #expect(switched && options.retriesRefusedConnections)
        let notASwitch = options.applyCommandLineSwitch("--retry")
        #expect(!notASwitch)
        for value in ["-1", "soon", "inf"] {
            #expect(throws: MediaError.self, "\(value)") {
                _ = try options.applyCommandLineFlag("--retry-max-time", value)
            }
        }
        options.connectionDeadline = .zero
        #expect(throws: MediaError.self) {
            try HTTPStreamSource(string: "http://127.0.0.1/m.mp4", options: options).validate()
        }
        options.connectionDeadline = .seconds(3)
        let policy = try HTTPStreamSource(string: "http://127.0.0.1/m.mp4", options: options).retryPolicy
        #expect(policy.deadline == .seconds(3) && policy.retriesRefusedConnections)
    }
}
