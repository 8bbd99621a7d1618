internal import CMediaEngineNetworkProbe
import MediaEngineCore

extension HTTPStreamSource: SourceElementConfiguring {
    /// Trusts ``HTTPStreamOptions/certificateAuthorityFile`` through the element's
    /// `tls-database`: souphttpsrc with libsoup 3 ignores its `ssl-ca-file` property.
    ///
    /// Workaround "souphttpsrc-ca-file" (`GStreamerWorkaround.soupCertificateFile`): souphttpsrc
    /// hands `ssl-ca-file` to the session only with libsoup 2 (gst_soup_http_src_session_open_cb),
    /// in every release (seen on 1.22.0, the same in 1.29.2's source; no upstream issue found); found
    /// with the HTTPS tests' own CA (commit 93c7bd7; a hook of its own since 55af6ee). Off: only
    /// `ssl-ca-file` is set (`HTTPStreamSource`'s properties), and with libsoup 3 a server signed by
    /// that CA is refused (WorkaroundReproductionTests' souphttpsrc-ca-file test,
    /// engine-workaround-check forced off and on: off, connectionFailed; on, the movie prepares).
    /// - Throws: `MediaError.Code.tlsFailure` for a file that holds no certificate.
    package func configure(sourceElement element: UnsafeMutableRawPointer) throws(MediaError) {
        guard let file = options.certificateAuthorityFile, GStreamerWorkaround.soupCertificateFile.isActive else {
            return
        }
        var detail: UnsafeMutablePointer<CChar>?
        guard me_set_tls_authorities(element, file, &detail) == 0 else { return }
        let reason = detail.map { String(cString: $0) } ?? "unreadable"
        me_probe_free_detail(detail)
        throw MediaError(.tlsFailure, "the certificate authorities in \(file) cannot be used: \(reason)")
    }
}
