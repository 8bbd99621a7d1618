import Foundation
import MediaEngineCore

extension FileSource {
    /// Registers `file:` URLs (and paths, which the registry reads as `file:` URLs) in the shared
    /// ``MediaEngineCore/MediaSourceRegistry``: done by itself when this product is linked (the
    /// `CMediaEngineFileSourceInstall` target's constructor calls it before `main`).
    static func registerInSharedRegistry() {
        try? MediaSourceRegistry.shared.register(scheme: "file", provider: "FileSource") { url in
            FileSource(url: url)
        }
    }
}

/// The `CMediaEngineFileSourceInstall` target's constructor's way in (C cannot call a Swift method).
@_cdecl("me_file_source_register")
func registerFileSource() {
    FileSource.registerInSharedRegistry()
}
