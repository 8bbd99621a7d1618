import Foundation
import MediaEngineCore

#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX socket calls the default transport makes, each turning a failure into a typed
/// error. Blocking calls (accept, connect, read) are made only on threads of the transport's own.
enum Sockets {
    /// A TCP socket listening on `address`:`port` (nil: every IPv4 address; port 0 picks one),
    /// and the port it got.
    /// - Throws: `MediaError.Code.addressInUse` when the port is taken.
    static func listen(address: String?, port: Int) throws(MediaError) -> (descriptor: Int32, port: Int) {
        guard (0...65535).contains(port) else {
            throw MediaError(.invalidArgument, "a port is from 0 to 65535, not \(port)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw MediaError(.connectionFailed, "no socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        // Lets a leader that just ended be started again at once (its old connections in
        // TIME_WAIT); a second listener on the port is still refused.
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address4 = sockaddr_in()
        address4.sin_family = sa_family_t(AF_INET)
        address4.sin_port = in_port_t(UInt16(port).bigEndian)
        address4.sin_addr.s_addr = INADDR_ANY
        if let address, inet_pton(AF_INET, address, &address4.sin_addr) != 1 {
            close(fd)
            throw MediaError(.invalidArgument, "'\(address)' is not an IPv4 address")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return errno }
                guard Glibc.listen(fd, 16) == 0, getsockname(fd, pointer, &length) == 0 else { return errno }
                return 0
            }
        }
        guard bound == 0 else {
            close(fd)
            let reason = String(cString: strerror(bound))
            if bound == EADDRINUSE {
                throw MediaError(.addressInUse, "TCP port \(port) is in use: \(reason)")
            }
            throw MediaError(.connectionFailed, "cannot listen on TCP port \(port): \(reason)")
        }
        return (fd, Int(UInt16(bigEndian: address4.sin_port)))
    }

    /// A TCP connection to `host`:`port`, made within `timeout`. Blocks: call on a thread of
    /// the caller's own.
    /// - Throws: `MediaError.Code.hostNotFound`, `MediaError.Code.connectionRefused`
    ///   or `MediaError.Code.connectionFailed`.
    static func connect(host: String, port: Int, timeout: Duration) throws(MediaError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &results)
        guard lookup == 0, let first = results else {
            throw MediaError(.hostNotFound, "cannot find the host '\(host)': \(String(cString: gai_strerror(lookup)))")
        }
        defer { freeaddrinfo(results) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { throw MediaError(.connectionFailed, "no socket: \(String(cString: strerror(errno)))") }
        // connect() gives up after the send timeout.
        var limit = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var result = Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen)
        while result != 0 && errno == EINTR {
            result = Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen)
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            let reason = String(cString: strerror(code))
            if code == ECONNREFUSED {
                throw MediaError(.connectionRefused, "\(host):\(port) refused the connection: \(reason)")
            }
            throw MediaError(.connectionFailed, "cannot connect to \(host):\(port): \(reason)")
        }
        var none = timeval()
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Writes all of `bytes` without blocking; false when the peer is gone or does not read
    /// (its buffer full).
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}

/// Splits a byte stream into the lines the default transport sends, each read as a message;
/// a line longer than ``PlaybackGroupMessage/maximumSize`` is refused whole.
struct LineReader {
    private var pending: [UInt8] = []
    private var discarding = false

    /// The messages (or refusals) of the lines `bytes` completes.
    mutating func feed(_ bytes: some Collection<UInt8>) -> [Result<PlaybackGroupMessage, MediaError>] {
        var results: [Result<PlaybackGroupMessage, MediaError>] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                    results.append(
                        .failure(
                            MediaError(
                                .invalidGroupMessage,
                                "a group message longer than \(PlaybackGroupMessage.maximumSize) bytes")))
                } else if !pending.isEmpty {
                    results.append(Result { () throws(MediaError) in try PlaybackGroupMessage(decoding: pending) })
                }
                pending.removeAll(keepingCapacity: true)
                continue
            }
            guard !discarding else { continue }
            pending.append(byte)
            if pending.count > PlaybackGroupMessage.maximumSize {
                discarding = true
                pending.removeAll()
            }
        }
        return results
    }
}
