import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports on 127.0.0.1 that nothing is bound to right now, found by binding port 0: each socket
/// stays bound until all are found, so the kernel cannot hand out one port twice. Another
/// process could take one before the test binds it (``NginxProcess`` tries again then).
public enum LoopbackPorts {
    /// `count` different TCP ports.
    public static func freeTCP(_ count: Int = 1) throws -> [Int] {
        try free(count, type: Int32(SOCK_STREAM.rawValue))
    }

    /// `count` different UDP ports.
    public static func freeUDP(_ count: Int = 1) throws -> [Int] {
        try free(count, type: Int32(SOCK_DGRAM.rawValue))
    }

    private static func free(_ count: Int, type: Int32) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        return try (0..<count).map { _ in
            let fd = socket(AF_INET, type, 0)
            guard fd >= 0 else { throw TestMediaError(message: "no socket: errno \(errno)") }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                    bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            guard bound else { throw TestMediaError(message: "no free port: errno \(errno)") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
