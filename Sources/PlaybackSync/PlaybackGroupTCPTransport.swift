import Foundation
import MediaEngineCore

#if canImport(Glibc)
    import Glibc
#endif

/// The default ``PlaybackGroupTransport``, for a LAN or one machine: TCP, one message a line in
/// the wire format (``PlaybackGroupMessage``). The leader listens (``listening(port:address:)``),
/// on the same port number as its time source's UDP port by default; each follower connects to
/// it (``connecting(host:port:timeout:)``). The leader's messages go to every follower connected;
/// a follower's to the leader. A follower whose connection breaks connects again every second
/// until it is closed; meanwhile its sends fail with `MediaError.Code.connectionLost`.
///
/// Threads: one accepts connections (leader), one reads each connection; writes never block (a
/// peer that stops reading is dropped). A line that is not a message is refused with a typed
/// error from ``receive()``, and the connection goes on.
public final class PlaybackGroupTCPTransport: PlaybackGroupTransport {
    private struct State {
        var closed = false
        /// The leader's listening socket.
        var listener: Int32?
        /// The connections: the followers' on the leader, the leader's on a follower.
        var peers: [Int32] = []
    }

    private let state = Locked(State())
    /// Signalled by ``close()``: a follower waiting to connect again stops waiting at once.
    private let closing = DispatchSemaphore(value: 0)
    private let inbox = Mailbox<Result<PlaybackGroupMessage, MediaError>>()
    /// The TCP port: the leader's own, or the one a follower connects to.
    public let port: Int

    private init(port: Int) {
        self.port = port
    }

    /// A leader's transport, listening on TCP `port` (0 picks a free one, see ``port``).
    /// - Parameters:
    ///   - port: The port to listen on.
    ///   - address: The IPv4 address to listen on; nil for every one.
    /// - Returns: The transport, accepting followers.
    /// - Throws: `MediaError.Code.addressInUse` when the port is taken.
    public static func listening(port: Int, address: String? = nil) throws(MediaError) -> PlaybackGroupTCPTransport {
        let (listener, bound) = try Sockets.listen(address: address, port: port)
        let transport = PlaybackGroupTCPTransport(port: bound)
        transport.state.withLock { $0.listener = listener }
        Thread { [transport] in transport.acceptConnections(on: listener) }.start()
        return transport
    }

    /// A follower's transport, connected to the leader at `host`:`port`.
    /// - Parameters:
    ///   - host: The leader's host name or IPv4 address.
    ///   - port: The leader's port.
    ///   - timeout: How long the first connection may take.
    /// - Returns: The transport, connected.
    /// - Throws: `MediaError.Code.connectionRefused` (nothing listens there),
    ///   `MediaError.Code.hostNotFound`, `MediaError.Code.connectionFailed`.
    public static func connecting(host: String, port: Int, timeout: Duration = .seconds(5)) async throws(MediaError)
        -> PlaybackGroupTCPTransport
    {
        let fd = try await OwnThread.run { () throws(MediaError) -> Int32 in
            try Sockets.connect(host: host, port: port, timeout: timeout)
        }
        let transport = PlaybackGroupTCPTransport(port: port)
        transport.state.withLock { $0.peers = [fd] }
        Thread { [transport] in transport.followLeader(host: host, port: port, connected: fd) }.start()
        return transport
    }

    /// Sends `message` as one line to every connection.
    /// - Parameter message: The message.
    /// - Throws: `MediaError.Code.connectionLost` on a follower not connected
    ///   (or a transport closed); a leader without followers sends to nobody.
    public func send(_ message: PlaybackGroupMessage) async throws(MediaError) {
        let line = message.encoded() + [UInt8(ascii: "\n")]
        let (isLeader, delivered, closed) = state.withLock { state -> (Bool, Bool, Bool) in
            var delivered = false
            for fd in state.peers {
                if Sockets.write(line, to: fd) {
                    delivered = true
                } else {
                    // Gone, or not reading: its reader thread ends and closes it.
                    shutdown(fd, Int32(SHUT_RDWR))
                }
            }
            return (state.listener != nil, delivered, state.closed)
        }
        if closed { throw MediaError(.connectionLost, "the group's transport is closed") }
        if !isLeader && !delivered {
            throw MediaError(.connectionLost, "not connected to the group's leader at port \(port)")
        }
    }

    /// The next message from another member; nil once closed or when the task is cancelled.
    /// - Returns: The message, or nil.
    /// - Throws: `MediaError.Code.invalidGroupMessage` or
    ///   `MediaError.Code.unsupportedGroupMessage` for a line it could not read.
    public func receive() async throws(MediaError) -> PlaybackGroupMessage? {
        guard let next = await inbox.next() else { return nil }
        return try next.get()
    }

    /// Closes every connection (and the leader's listening socket); ``receive()`` returns nil.
    public func close() {
        let (listener, peers) = state.withLock { state -> (Int32?, [Int32]) in
            state.closed = true
            return (state.listener, state.peers)
        }
        // Wakes the threads blocked in accept() and read(); each closes its own descriptor.
        if let listener { shutdown(listener, Int32(SHUT_RDWR)) }
        for fd in peers { shutdown(fd, Int32(SHUT_RDWR)) }
        inbox.close()
        closing.signal()
    }

    deinit {
        close()
    }

    // MARK: Threads

    /// The leader's accepting thread: each follower's connection gets a reading thread.
    private func acceptConnections(on listener: Int32) {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let open = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.peers.append(fd)
                return true
            }
            guard open else {
                Glibc.close(fd)
                break
            }
            Thread { [self] in
                read(fd)
                forget(fd)
            }.start()
        }
        state.withLock { $0.listener = nil }
        Glibc.close(listener)
    }

    /// A follower's reading thread: reads the leader's messages, and connects again (every
    /// second) when the connection breaks, until the transport is closed.
    private func followLeader(host: String, port: Int, connected: Int32) {
        var fd: Int32? = connected
        while !state.withLock({ $0.closed }) {
            if let current = fd {
                read(current)
                forget(current)
                fd = nil
                continue
            }
            // A second between tries, cut short by close().
            if closing.wait(timeout: .now() + 1) == .success { break }
            guard let again = try? Sockets.connect(host: host, port: port, timeout: .seconds(1)) else { continue }
            let open = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.peers.append(again)
                return true
            }
            guard open else {
                Glibc.close(again)
                break
            }
            fd = again
        }
    }

    /// Reads lines from `fd` until it ends, posting each message (or refusal) to the inbox.
    private func read(_ fd: Int32) {
        var reader = LineReader()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            for result in reader.feed(buffer[0..<count]) { inbox.post(result) }
        }
    }

    /// A connection ended: it is forgotten and closed (by its reading thread, the one user left).
    private func forget(_ fd: Int32) {
        state.withLock { state in
            state.peers.removeAll { $0 == fd }
            Glibc.close(fd)
        }
    }
}

/// Runs blocking work on a thread of its own while the calling task waits without blocking.
enum OwnThread {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws(MediaError) -> Value)
        async throws(MediaError) -> Value
    {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, MediaError>, Never>) in
            Thread {
                continuation.resume(returning: Result { () throws(MediaError) -> Value in try body() })
            }.start()
        }
        return try result.get()
    }
}
