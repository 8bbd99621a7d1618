#if canImport(Glibc)
    import Glibc
#endif

/// The IP address a host name resolves to, for the logs' server address.
enum ServerAddress {
    /// The first address of `host` (an address is returned as it is); nil when it does not
    /// resolve. Blocks on the resolver: call it from a thread of your own.
    static func resolve(_ host: String) -> String? {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &found) == 0, let found else { return nil }
        defer { freeaddrinfo(found) }
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard
            getnameinfo(
                found.pointee.ai_addr, found.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
                == 0
        else { return nil }
        let length = text.firstIndex(of: 0) ?? text.count
        return String(decoding: text[..<length].map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
}
