import Foundation

/// Which ``MediaSource`` plays a URL: what `MoviePlayer(contentURL:)` and the `contentURL` setter
/// ask. Each source target registers the schemes it handles when it is linked (`FileSource`:
/// `file:` URLs and paths; `HTTPStreamSource`: `http:` and `https:`, progressive, HLS and DASH),
/// and an app or a plugin can register schemes of its own.
///
/// Modelled on ``VideoSinkRegistry``: a process-wide ``shared`` registry that works untouched,
/// extension by registration, and a registry of one's own for a player that should see others.
///
/// A URL goes to the entry registered for its scheme and its path's extension (a `.m3u8`
/// playlist, say) if there is one, else to the entry for its scheme alone. A scheme nobody
/// registered is played by GStreamer's own source for it when GStreamer has one (`rtsp:`,
/// `rtmp:`, `udp:`, `srt:`...: a ``URISource``); otherwise the player's preparation fails with
/// ``MediaError/Code/unsupportedScheme``, whose message names the scheme and, for the schemes
/// the engine's own products handle, the product to link.
public final class MediaSourceRegistry: Sendable {
    /// Makes the source for a URL (already known to have the entry's scheme, lowercased).
    public typealias Factory = @Sendable (_ url: URL) throws(MediaError) -> any MediaSource

    /// One registered scheme (with path extensions, when the entry is for those only).
    public struct Entry: Sendable {
        /// The scheme, lowercased (`https`).
        public let scheme: String
        /// The path extensions the entry is for, lowercased without the dot (`m3u8`); empty for
        /// every URL of the scheme.
        public let pathExtensions: Set<String>
        /// Who registered it: the product or plugin, for people (`HTTPStreamSource`).
        public let provider: String
        /// Makes the source.
        public let factory: Factory
    }

    /// The registry `MoviePlayer(contentURL:)` uses unless given another; the linked source
    /// targets register themselves in it.
    public static let shared = MediaSourceRegistry()

    /// The engine's own products, by the schemes they handle: named in the error for a scheme
    /// nobody registered, so that the message says what to link.
    static let productsBySchemes: [String: String] = [
        "file": "FileSource", "http": "HTTPStreamSource", "https": "HTTPStreamSource",
    ]

    private let entries = Locked<[Entry]>([])
    private let gstreamerFallback: Bool

    /// Creates an empty registry.
    /// - Parameter gstreamerFallback: Whether a scheme nobody registered is played by GStreamer's
    ///   own source for it, when GStreamer has one (`rtsp:`, `udp:`...). Never for `file:`,
    ///   `http:` and `https:`, which the engine's own sources handle.
    public init(gstreamerFallback: Bool = true) {
        self.gstreamerFallback = gstreamerFallback
    }

    /// Registers a source for a scheme, or for the URLs of a scheme whose path ends in one of
    /// `pathExtensions`.
    ///
    /// ```swift
    /// try MediaSourceRegistry.shared.register(scheme: "vault", provider: "MyApp") { url throws(MediaError) in
    ///     try VaultSource(url: url)
    /// }
    /// ```
    /// - Parameters:
    ///   - scheme: The scheme, without the colon (`vault`); letters, digits, `+`, `-` and `.`.
    ///   - pathExtensions: The path extensions this entry is for (without the dot); empty for all.
    ///   - provider: Who registers it, for people (a product or plugin name).
    ///   - factory: Makes the source for a URL; it may throw a ``MediaError`` for a URL it refuses,
    ///     which the player's preparation then fails with.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a malformed scheme,
    ///   ``MediaError/Code/duplicateSource`` when the scheme (with the same extensions) is taken.
    public func register(
        scheme: String, pathExtensions: Set<String> = [], provider: String,
        factory: @escaping Factory
    ) throws(MediaError) {
        let scheme = scheme.lowercased()
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else {
            throw MediaError(.invalidArgument, "'\(scheme)' is not a URL scheme")
        }
        let extensions = Set(pathExtensions.map { $0.lowercased().trimmingPrefix(".") }.map(String.init))
        let entry = Entry(scheme: scheme, pathExtensions: extensions, provider: provider, factory: factory)
        let taken = entries.withLock { entries -> Entry? in
            if let existing = entries.first(where: { $0.scheme == scheme && $0.pathExtensions == extensions }) {
                return existing
            }
            entries.append(entry)
            return nil
        }
        if let taken {
            throw MediaError(
                .duplicateSource, "'\(scheme):' URLs are already played by \(taken.provider)'s source")
        }
    }

    /// Removes the entry for `scheme` (with exactly these path extensions); returns whether one was.
    @discardableResult
    public func unregister(scheme: String, pathExtensions: Set<String> = []) -> Bool {
        let scheme = scheme.lowercased()
        let extensions = Set(pathExtensions.map { $0.lowercased() })
        return entries.withLock { entries in
            let before = entries.count
            entries.removeAll { $0.scheme == scheme && $0.pathExtensions == extensions }
            return entries.count != before
        }
    }

    /// What is registered, in the order it was.
    public var registered: [Entry] {
        entries.withLock { $0 }
    }

    /// The source for `url`: a URL without a scheme is a path (relative paths from the current
    /// directory), played as a `file:` URL.
    /// - Parameter url: The movie's URL.
    /// - Returns: The source the registered entry makes, or GStreamer's own source for the scheme.
    /// - Throws: ``MediaError/Code/unsupportedScheme`` when nothing plays the scheme; what the
    ///   entry's factory throws.
    public func source(for url: URL) throws(MediaError) -> any MediaSource {
        var url = url
        var scheme = url.scheme?.lowercased() ?? ""
        if scheme.isEmpty {
            url = URL(fileURLWithPath: url.path.isEmpty ? url.relativeString : url.path)
            scheme = "file"
        }
        let pathExtension = url.pathExtension.lowercased()
        let candidates = entries.withLock { entries in entries.filter { $0.scheme == scheme } }
        if let entry = candidates.first(where: { $0.pathExtensions.contains(pathExtension) })
            ?? candidates.first(where: { $0.pathExtensions.isEmpty })
        {
            return try entry.factory(url)
        }
        if gstreamerFallback, Self.productsBySchemes[scheme] == nil, GStreamer.canRead(scheme: scheme) {
            return URISource(uri: url.absoluteString)
        }
        throw Self.noSource(for: scheme)
    }

    /// The error for a scheme nobody plays.
    static func noSource(for scheme: String) -> MediaError {
        if let product = productsBySchemes[scheme] {
            return MediaError(
                .unsupportedScheme,
                "no source plays '\(scheme):' URLs in this app: link the \(product) product (it registers "
                    + "itself), or register a source for '\(scheme)' with MediaSourceRegistry")
        }
        return MediaError(
            .unsupportedScheme,
            "no source plays '\(scheme):' URLs: neither a registered source nor GStreamer reads them "
                + "(register one with MediaSourceRegistry)")
    }
}
