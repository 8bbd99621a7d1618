#if canImport(Glibc)
    import Glibc
#endif

/// A request line and headers as ``FaultInjectingServer`` read them, Authorization included.
struct HTTPRequestHead: Sendable {
    let method: String
    let target: String
    let version: String
    let headers: [FaultInjectingServer.Header]

    /// The first value of a header, its name compared without case.
    func value(of name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether the connection stays open after the response (HTTP/1.1 unless `Connection:
    /// close`; HTTP/1.0 only with `Connection: keep-alive`).
    var keepsAlive: Bool {
        let connection = value(of: "connection")?.lowercased()
        return version == "HTTP/1.1" ? connection != "close" : connection == "keep-alive"
    }

    /// Parses the text before the blank line; nil when the request line is not three words.
    init?(_ text: String) {
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let words = lines.first?.split(separator: " ") ?? []
        guard words.count == 3 else { return nil }
        method = String(words[0])
        target = String(words[1])
        version = String(words[2])
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return FaultInjectingServer.Header(
                name: String(line[..<colon]),
                value: String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }))
        }
    }
}

/// Reads requests from one connection's socket, blocking; every read returns nothing once the
/// peer closes or the socket is shut down.
struct HTTPRequestReader {
    private let socket: Int32
    private var buffer: [UInt8] = []
    private static let largestHead = 64 * 1024

    init(socket: Int32) { self.socket = socket }

    /// The next request's head, with its body (by `Content-Length`) read and dropped; nil at the
    /// end of the connection or when the head is too large or malformed.
    mutating func next() -> HTTPRequestHead? {
        while true {
            if let end = headEnd() {
                let head = HTTPRequestHead(String(decoding: buffer[..<end], as: UTF8.self))
                buffer.removeFirst(end + 4)
                guard let head else { return nil }
                let bodyLength = head.value(of: "content-length").flatMap { Int($0) } ?? 0
                guard discard(bodyLength) else { return nil }
                return head
            }
            guard buffer.count <= Self.largestHead, receive() else { return nil }
        }
    }

    /// Reads and drops everything until the peer closes or the socket is shut down.
    mutating func drain() {
        while receive() { buffer.removeAll() }
    }

    private mutating func discard(_ count: Int) -> Bool {
        while buffer.count < count {
            guard receive() else { return false }
        }
        buffer.removeFirst(count)
        return true
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        return (0...(buffer.count - 4)).first {
            buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10
        }
    }

    /// Appends what one `recv` returns; false at the end of the stream or on an error.
    private mutating func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0, errno == EINTR { continue }
            return false
        }
    }
}
