import Foundation
import MediaEngineCore

extension HTTPStreamSource {
    /// Registers `http:` and `https:` URLs (progressive downloads, HLS and DASH) in the shared
    /// ``MediaEngineCore/MediaSourceRegistry``, with default options: the shared credential
    /// store, the default retries and timeouts, access and error logs. Done by itself when this
    /// product is linked (the `CMediaEngineHTTPStreamSourceInstall` target's constructor calls it before `main`).
    static func registerInSharedRegistry() {
        for scheme in ["http", "https"] {
            try? MediaSourceRegistry.shared.register(scheme: scheme, provider: "HTTPStreamSource") {
                url throws(MediaError) in
                try HTTPStreamSource(url: url)
            }
        }
    }
}

/// The `CMediaEngineHTTPStreamSourceInstall` target's constructor's way in (C cannot call a Swift method).
@_cdecl("me_http_stream_source_register")
func registerHTTPStreamSource() {
    HTTPStreamSource.registerInSharedRegistry()
}
