import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for what nginx cannot do: it serves one body (a file's
/// bytes) at every path, with Range support and keep-alive, and injects a chosen ``Fault``;
/// optionally behind HTTP Digest authentication (which nginx lacks, see
/// ``StreamingTestServer``).
///
/// Threads: one accepting connections and one per connection, its own (never the cooperative
/// pool's), so a client that stalls holds only its own thread. The listening socket is bound
/// before `init` returns: connections are accepted from then on. ``stop()`` (also run by
/// `deinit`) closes the listening socket, shuts every connection down (waking threads blocked
/// in `recv` or `send`), waits for all threads to end and leaves no descriptor open.
///
/// Every request is recorded (``requests``), its `Authorization` value cut to the scheme.
public final class FaultInjectingServer: Sendable {
    /// What goes wrong. Faults apply to `GET` responses (``neverAnswer`` to any request), after
    /// Digest authentication has passed, to the first `faultLimit` of them.
    public enum Fault: Sendable, Equatable {
        /// Nothing: every response is whole.
        case none
        /// The head and `bytes` bytes of the body (or of the requested range) are sent, then
        /// the connection is reset (TCP RST, `SO_LINGER` zero).
        case resetAfter(bytes: Int)
        /// The request is read and recorded, and nothing is ever sent back; the connection
        /// stays open until the client closes it or the server stops.
        case neverAnswer
        /// The head announces the whole body (or range) in `Content-Length`, `bytes` bytes are
        /// sent, then the connection is closed normally (FIN).
        case shortBody(bytes: Int)
        /// Status 200 (or 206) and the body's `Content-Type` and length, but the bytes are
        /// pseudo-random garbage (the same in every response).
        case garbage
        /// SHOUTcast/Icecast metadata, to requests with `Icy-MetaData: 1` (others get the plain
        /// body): `HTTP/1.0 200 OK` with `icy-metaint: metaint`, no `Content-Length`, Range
        /// ignored, and after every `metaint` bytes of body a metadata block (a length byte
        /// L, then 16 L bytes). The body is split into `titles.count` equal shares: the first
        /// block of share i carries `StreamTitle='titles[i]';`, every other block is empty
        /// (L = 0), as servers send when the title has not changed. Closed at the end.
        case icy(metaint: Int, titles: [String])
        /// An error status with a short text body (`503`: a server briefly unavailable); `204`
        /// and `304` with no body at all (`204`: an ad server with no ad).
        case status(Int)
        /// The head and `bytes` bytes of the body are sent; the connection then waits until
        /// ``FaultInjectingServer/releaseHeldResponses()`` (or ``FaultInjectingServer/stop()``)
        /// and is reset: a connection that breaks exactly when a test wants.
        case holdThenReset(bytes: Int)
        /// The head and `bytes` bytes of the body are sent; the rest follows once
        /// ``FaultInjectingServer/releaseHeldResponses()`` is called: data that stops arriving
        /// for exactly as long as a test wants (a stall), then comes whole.
        case holdThenContinue(bytes: Int)
        /// The body (or range) but its last `bytes` bytes, then, after `pause`, those bytes: a
        /// download that stops for a moment just before its end, so the movie starts playing
        /// from a buffer that is still filling and the next buffering message is its 100 %.
        case pauseBeforeEnd(bytes: Int, pause: Duration)
        /// The whole body (or range), `bytesPerSecond` of it a second: a tenth every 100 ms, as
        /// a link slower than the movie's bitrate brings it.
        case throttle(bytesPerSecond: Int)
    }

    /// The user Digest authentication accepts.
    public struct DigestAccount: Sendable {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String
        /// The realm of the challenge.
        public var realm: String

        /// An account.
        /// - Parameters:
        ///   - user: The user name.
        ///   - password: The password.
        ///   - realm: The realm of the challenge.
        public init(user: String, password: String, realm: String = "Movies") {
            self.user = user
            self.password = password
            self.realm = realm
        }
    }

    /// A header line as received.
    public struct Header: Sendable, Equatable {
        /// The name, in the client's case.
        public let name: String
        /// The value (for `Authorization`, only its scheme, such as `Digest`).
        public let value: String
    }

    /// A request as the server received it, and what it answered.
    public struct RecordedRequest: Sendable {
        /// `GET`, `HEAD`, ...
        public let method: String
        /// The request target (path and query).
        public let target: String
        /// The header lines in order; `Authorization` values cut to their scheme.
        public let headers: [Header]
        /// The status answered, or nil when the server never answered (``Fault/neverAnswer``).
        public let status: Int?
        /// Whether a fault was injected into the response.
        public let faulted: Bool
        /// When the request's head had arrived.
        public let receivedAt: ContinuousClock.Instant

        /// The first value of a header, its name compared without case.
        /// - Parameter name: The header's name.
        /// - Returns: Its value, or nil when the request had none.
        public func value(of name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    /// The port.
    public let port: Int
    private let core: Core

    /// Starts serving `body`; returns once the socket listens.
    /// - Parameters:
    ///   - body: The bytes every path serves.
    ///   - contentType: Their `Content-Type`.
    ///   - fault: What goes wrong.
    ///   - faultLimit: How many responses get the fault (the rest are whole), or nil for all.
    ///   - digest: The account Digest authentication (MD5, `qop=auth`) accepts, or nil for none.
    /// - Throws: ``TestMediaError`` when no socket can be bound.
    public convenience init(
        serving body: Data, contentType: String = "video/mp4", fault: Fault = .none, faultLimit: Int? = nil,
        digest: DigestAccount? = nil
    ) throws {
        try self.init(
            serving: body, contentType: contentType, fault: fault, faultLimit: faultLimit, digest: digest, sequence: nil
        )
    }

    private init(
        serving body: Data, contentType: String, fault: Fault = .none, faultLimit: Int? = nil,
        digest: DigestAccount? = nil, sequence: [Fault]?
    ) throws {
        if case .icy(let metaint, let titles) = fault {
            precondition(metaint > 0 && titles.allSatisfy { $0.utf8.count <= 4000 }, "an ICY block holds 4080 bytes")
        }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw TestMediaError(message: "no socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
                    && listen(listener, 64) == 0
            }
        }
        guard listening else {
            let error = errno
            close(listener)
            throw TestMediaError(message: "cannot listen on a loopback port: errno \(error)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        baseURL = "http://127.0.0.1:\(port)"
        core = Core(
            listener: listener, port: port,
            content: Content(
                body: [UInt8](body), contentType: contentType, fault: fault, faultLimit: faultLimit, sequence: sequence),
            digest: digest)
        core.start()
    }

    /// Starts serving a file's bytes (read now), with one fault per `GET` in turn: the first
    /// `GET` gets `faults[0]`, the second `faults[1]`, and so on (``Fault/none`` for a whole
    /// response); the `GET`s after the last are whole.
    /// - Parameters:
    ///   - file: The file.
    ///   - contentType: Its `Content-Type`.
    ///   - faults: The faults, in order.
    /// - Throws: When the file cannot be read or no socket can be bound.
    public convenience init(serving file: URL, contentType: String = "video/mp4", faults: [Fault]) throws {
        try self.init(serving: try Data(contentsOf: file), contentType: contentType, sequence: faults)
    }

    /// Starts serving a file's bytes (read now); see ``init(serving:contentType:fault:faultLimit:digest:)``.
    /// - Parameters:
    ///   - file: The file.
    ///   - contentType: Its `Content-Type`.
    ///   - fault: What goes wrong.
    ///   - faultLimit: How many responses get the fault, or nil for all.
    ///   - digest: The account Digest authentication accepts, or nil for none.
    /// - Throws: When the file cannot be read or no socket can be bound.
    public convenience init(
        serving file: URL, contentType: String = "video/mp4", fault: Fault = .none, faultLimit: Int? = nil,
        digest: DigestAccount? = nil
    ) throws {
        try self.init(
            serving: try Data(contentsOf: file), contentType: contentType, fault: fault, faultLimit: faultLimit,
            digest: digest)
    }

    deinit {
        core.stop()
    }

    /// A URL on this server (every path serves the same body).
    /// - Parameter path: The path, without the leading slash.
    /// - Returns: `http://127.0.0.1:PORT/path`.
    public func url(_ path: String = "movie.mp4") -> String { "\(baseURL)/\(path)" }

    /// The requests received so far, oldest first.
    public var requests: [RecordedRequest] { core.recorded }

    /// Waits until at least `count` requests have been received (cancellation ends the wait;
    /// wrap it in ``withDeadline(_:_:_:)``).
    /// - Parameter count: How many.
    /// - Returns: The requests received by then.
    public func requests(atLeast count: Int) async -> [RecordedRequest] {
        await core.requests(atLeast: count)
    }

    /// Lets every response held by ``Fault/holdThenReset(bytes:)`` go on to its reset (and
    /// ``Fault/holdThenContinue(bytes:)`` to its end), now and from now on.
    public func releaseHeldResponses() {
        core.releaseHeld()
    }

    /// Stops accepting, ends every connection and waits for the server's threads to end.
    /// Idempotent; `deinit` does it too.
    public func stop() {
        core.stop()
    }

    /// How many of the server's threads are running (the accepting one included); 0 after
    /// ``stop()``. For the server's own tests.
    public var runningThreads: Int { core.runningThreads }

    /// How many connections are open; 0 after ``stop()``. For the server's own tests.
    public var openConnections: Int { core.openConnections }
}
