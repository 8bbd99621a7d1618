internal import CMediaEngineNetworkProbe
import MediaEngineCore

/// Why a connection fails, found by making it again (see `me_network_probe.h`): souphttpsrc says
/// only "Internal data stream error" when it gets no answer.
struct ConnectionProbe {
    enum Outcome: Equatable {
        case connected, hostNotFound, refused, timedOut, tlsFailed, failed
    }

    var outcome: Outcome
    var detail: String?

    /// Connects to `host:port` within `timeout`; with a `path`, asks for it (HEAD) and waits
    /// `answerWait` for the first byte of an answer; disconnects. Blocks for at most `timeout`
    /// plus `answerWait` (whole seconds, at least one each).
    static func probe(
        host: String, port: Int, tls: Bool, certificateAuthorityFile: String?, strict: Bool, timeout: Duration,
        answerWait: Duration, path: String?
    ) -> ConnectionProbe {
        var detail: UnsafeMutablePointer<CChar>?
        let result = me_probe_connection(
            host, Int32(clamping: port), tls ? 1 : 0, certificateAuthorityFile, strict ? 1 : 0,
            UInt32(clamping: max(1, timeout.components.seconds)),
            UInt32(clamping: max(1, answerWait.components.seconds)),
            path, &detail)
        let text = detail.map { String(cString: $0) }
        me_probe_free_detail(detail)
        let outcome: Outcome =
            switch result {
            case ME_PROBE_CONNECTED: .connected
            case ME_PROBE_HOST_NOT_FOUND: .hostNotFound
            case ME_PROBE_REFUSED: .refused
            case ME_PROBE_TIMED_OUT: .timedOut
            case ME_PROBE_TLS_FAILED: .tlsFailed
            default: .failed
            }
        return ConnectionProbe(outcome: outcome, detail: text)
    }

    /// `error` with the code and sentence the probe's outcome calls for; `timeout` is the one
    /// the player's own request had.
    func refine(_ error: MediaError, host: String, timeout: Duration) -> MediaError {
        var refined = error
        let detail = self.detail.map { ": \($0)" } ?? ""
        switch outcome {
        case .connected, .failed:
            // The connection works now (the failure was passing) or failed for a reason GIO does
            // not classify: keep the engine's error, with what the probe saw.
            if let probeDetail = self.detail {
                refined.debugDetail = [error.debugDetail, probeDetail].compactMap { $0 }.joined(separator: "\n")
            }
            return refined
        case .hostNotFound:
            refined.code = .hostNotFound
            refined.message = "the host name \(host) does not resolve\(detail)"
        case .refused:
            refined.code = .connectionRefused
            refined.message = "\(host) refused the connection (nothing listens on that port)"
        case .timedOut:
            refined.code = .timedOut
            refined.message =
                "\(host) did not answer within the \(max(1, timeout.components.seconds)) s timeout\(detail)"
        case .tlsFailed:
            refined.code = .tlsFailure
            refined.message = "the TLS connection to \(host) failed\(detail)"
        }
        refined.message = URIRedaction.redacting(refined.message)
        return refined
    }
}
