import Dispatch
import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

extension FaultInjectingServer {
    /// What the server serves and how it goes wrong; never changes.
    struct Content: Sendable {
        let body: [UInt8]
        let contentType: String
        let fault: Fault
        let faultLimit: Int?
        /// One fault per `GET`, in order (``Fault/none`` for a whole response), then none; when
        /// set, ``fault`` and ``faultLimit`` are not used.
        var sequence: [Fault]?
        /// ``Fault/garbage``'s bytes, as long as the body (xorshift, fixed seed).
        let garbage: [UInt8]

        init(body: [UInt8], contentType: String, fault: Fault, faultLimit: Int?, sequence: [Fault]? = nil) {
            self.body = body
            self.sequence = sequence
            self.contentType = contentType
            self.fault = fault
            self.faultLimit = faultLimit
            var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
            garbage =
                fault == .garbage
                ? body.indices.map { _ in
                    seed ^= seed << 13
                    seed ^= seed >> 7
                    seed ^= seed << 17
                    return UInt8(truncatingIfNeeded: seed >> 32)
                } : []
        }
    }

    /// The sockets, threads and records, shared by the server's threads; the public value owns
    /// it and stops it in `deinit` (the threads hold this, not the public value).
    final class Core: Sendable {
        private struct State {
            var stopping = false
            /// Open connection sockets; a connection thread closes its own under the lock, so
            /// ``stop()`` never shuts down a number the kernel has given to someone else.
            var connections: Set<Int32> = []
            var threads = 0
            var requests: [RecordedRequest] = []
            var faultsInjected = 0
            /// ``Fault/holdThenReset(bytes:)``'s responses may go on.
            var released = false
            /// How many responses wait for that.
            var holding = 0
            /// `GET`s answered so far, for ``Content/sequence``.
            var gets = 0
            var nonces: Set<String> = []
        }

        let content: Content
        let digest: DigestAccount?
        /// Sent with every Digest challenge and expected back.
        let opaque = randomHex()
        private let listener: Int32
        private let port: Int
        private let state = Locked(State())
        /// Entered for each thread before it starts, left when it ends: ``stop()`` waits on it.
        private let threadsRunning = DispatchGroup()
        private let arrivals = Waitlist()
        /// Signalled once per held response when they are released.
        private let held = DispatchSemaphore(value: 0)

        init(listener: Int32, port: Int, content: Content, digest: DigestAccount?) {
            self.listener = listener
            self.port = port
            self.content = content
            self.digest = digest
        }

        func start() {
            state.withLock { $0.threads += 1 }
            threadsRunning.enter()
            let thread = Thread { [self] in
                acceptConnections()
                state.withLock { $0.threads -= 1 }
                threadsRunning.leave()
            }
            thread.name = "FaultInjectingServer :\(port) accept"
            thread.start()
        }

        /// Wakes the responses held by ``Fault/holdThenReset(bytes:)``, and lets later ones pass.
        func releaseHeld() {
            let waiting = state.withLock { state in
                state.released = true
                return state.holding
            }
            for _ in 0..<waiting { held.signal() }
        }

        /// Waits, on a connection's own thread, until held responses are released.
        func waitForRelease() {
            let mustWait = state.withLock { state in
                guard !state.released && !state.stopping else { return false }
                state.holding += 1
                return true
            }
            guard mustWait else { return }
            held.wait()
        }

        func stop() {
            let first = state.withLock { state -> Bool in
                guard !state.stopping else { return false }
                state.stopping = true
                // Wakes accept() (EINVAL) and every recv() and send() (end of stream, EPIPE).
                shutdown(listener, Int32(SHUT_RDWR))
                for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
                return true
            }
            releaseHeld()
            threadsRunning.wait()
            // Only now: no thread can be in accept() on it any more.
            if first { close(listener) }
        }

        var recorded: [RecordedRequest] { state.withLock { $0.requests } }
        var runningThreads: Int { state.withLock { $0.threads } }
        var openConnections: Int { state.withLock { $0.connections.count } }

        func requests(atLeast count: Int) async -> [RecordedRequest] {
            await arrivals.wait { [state] in state.withLock { $0.requests.count >= count } }
            return recorded
        }

        /// Appends a request to the record (Authorization values cut to the scheme).
        func record(_ head: HTTPRequestHead, status: Int?, faulted: Bool) {
            let headers = head.headers.map { header in
                ["authorization", "proxy-authorization"].contains(header.name.lowercased())
                    ? Header(name: header.name, value: String(header.value.prefix { $0 != " " })) : header
            }
            let request = RecordedRequest(
                method: head.method, target: head.target, headers: headers, status: status, faulted: faulted,
                receivedAt: .now)
            state.withLock { $0.requests.append(request) }
            arrivals.recheck()
        }

        /// The fault for this response, counted against the limit, or nil when it is served whole
        /// (a `HEAD`, an ICY request without `Icy-MetaData: 1`, a range outside the body).
        func takeFault(for head: HTTPRequestHead, unsatisfiable: Bool) -> Fault? {
            if let sequence = content.sequence {
                guard head.method == "GET", !unsatisfiable else { return nil }
                return state.withLock { state in
                    defer { state.gets += 1 }
                    guard state.gets < sequence.count, sequence[state.gets] != .none else { return nil }
                    state.faultsInjected += 1
                    return sequence[state.gets]
                }
            }
            let fault = content.fault
            switch fault {
            case .none: return nil
            case .neverAnswer: break
            case .icy: if head.value(of: "icy-metadata") != "1" { return nil }
            default: if head.method != "GET" || unsatisfiable { return nil }
            }
            return state.withLock { state in
                if let limit = content.faultLimit, state.faultsInjected >= limit { return nil }
                state.faultsInjected += 1
                return fault
            }
        }

        /// A fresh nonce, remembered as issued.
        func issueNonce() -> String {
            let nonce = Self.randomHex()
            state.withLock { _ = $0.nonces.insert(nonce) }
            return nonce
        }

        func wasIssued(_ nonce: String) -> Bool {
            state.withLock { $0.nonces.contains(nonce) }
        }

        private func acceptConnections() {
            while true {
                // Glibc's Swift module has no accept4 (a GNU extension), so close-on-exec comes
                // a moment later. A child spawned in that moment would not keep the connection
                // open: Foundation's Process closes the parent's other descriptors in the child
                // (checked: a socket without FD_CLOEXEC is absent from the child's /proc/self/fd).
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return  // shut down by stop()
                }
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                let admitted = state.withLock { state -> Bool in
                    guard !state.stopping else { return false }
                    state.connections.insert(connection)
                    state.threads += 1
                    return true
                }
                guard admitted else {
                    close(connection)
                    return
                }
                threadsRunning.enter()
                let thread = Thread { [self] in
                    let reset = serve(connection)
                    state.withLock { state in
                        if reset {
                            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                            setsockopt(
                                connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                        }
                        state.connections.remove(connection)
                        close(connection)
                        state.threads -= 1
                    }
                    threadsRunning.leave()
                }
                thread.name = "FaultInjectingServer :\(port) connection"
                thread.start()
            }
        }

        private static func randomHex() -> String {
            (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        }
    }
}
