import Foundation

extension Duration {
    /// This duration as a `URLSession` timeout: whole seconds, rounded up, at least one.
    /// FoundationNetworking keeps only the whole seconds of a timeout (measured: 0.5 s timed
    /// out at once), so callers that need a shorter or finer bound keep their own timer and
    /// use this as a backstop.
    var urlSessionTimeout: TimeInterval {
        Swift.max(1, inSeconds.rounded(.up))
    }
}
