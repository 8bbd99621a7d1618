import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// A session of its own for the ad's requests (VAST documents, beacons): ephemeral, no
    /// cache, `timeout` for each request and for each whole transfer (see
    /// ``Swift/Duration/urlSessionTimeout``).
    static func uncached(timeout: Duration) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.urlSessionTimeout
        configuration.timeoutIntervalForResource = timeout.urlSessionTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }
}

extension Duration {
    /// This duration as a `URLSession` timeout: whole seconds, rounded up, at least one.
    /// FoundationNetworking keeps only the whole seconds of a timeout (measured: 0.5 s timed
    /// out at once), so callers that need a shorter or finer bound keep their own timer and
    /// use this as a backstop.
    var urlSessionTimeout: TimeInterval {
        Swift.max(1, inSeconds.rounded(.up))
    }
}
