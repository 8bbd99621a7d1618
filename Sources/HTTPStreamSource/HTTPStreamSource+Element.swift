internal import CNetworkProbe
import MediaEngineCore

extension HTTPStreamSource: SourceElementConfiguring {
    /// Trusts ``HTTPStreamOptions/certificateAuthorityFile`` through the element's
    /// `tls-database`: souphttpsrc 1.22 with libsoup 3 ignores its `ssl-ca-file` property.
    /// - Throws: `MediaError.Code.tlsFailure` for a file that holds no certificate.
    package func configure(sourceElement element: UnsafeMutableRawPointer) throws(MediaError) {
        guard let file = options.certificateAuthorityFile else { return }
        var detail: UnsafeMutablePointer<CChar>?
        guard me_set_tls_authorities(element, file, &detail) == 0 else { return }
        let reason = detail.map { String(cString: $0) } ?? "unreadable"
        me_probe_free_detail(detail)
        throw MediaError(.tlsFailure, "the certificate authorities in \(file) cannot be used: \(reason)")
    }
}
