import Foundation

/// MPMoviePlayerController's URL entry points: the source is whichever the
/// ``MediaSourceRegistry`` makes for the URL.
extension MoviePlayer {
    /// Creates a player for a URL (MPMoviePlayerController's `init(contentURL:)`): the source is
    /// the one `registry` makes for it (``MediaSourceRegistry/source(for:)``): with the engine's
    /// source products linked, a ``MediaSource`` of `FileSource` for `file:` URLs and paths, of
    /// `HTTPStreamSource` for `http(s):` (progressive, HLS, DASH: default options, the shared
    /// credential store, retries and logs). A URL nothing plays makes a player whose preparation
    /// fails with that ``MediaError`` (``MediaError/Code/unsupportedScheme``, naming the product).
    /// - Parameters:
    ///   - contentURL: The movie's URL.
    ///   - videoSink: Where the video goes; nil for the sink registry's default.
    ///   - registry: The registry that picks the source.
    public convenience init(
        contentURL: URL, videoSink: (any VideoSink)? = nil, registry: MediaSourceRegistry = .shared
    ) {
        self.init(source: Self.source(for: contentURL, in: registry), videoSink: videoSink)
    }

    /// The movie's URL (MPMoviePlayerController's `contentURL`): the source's URI as a URL.
    /// Setting it replaces the source with the one the shared ``MediaSourceRegistry`` makes for
    /// the URL, as setting ``source`` does. Nil sets nothing.
    public var contentURL: URL? {
        get { URL(string: source.uri) }
        set {
            guard let newValue else { return }
            source = Self.source(for: newValue, in: .shared)
        }
    }

    /// The registry's source for `url`, or one that fails preparation with the registry's error.
    private static func source(for url: URL, in registry: MediaSourceRegistry) -> any MediaSource {
        do throws(MediaError) {
            return try registry.source(for: url)
        } catch {
            return UnavailableSource(uri: url.absoluteString, error: error)
        }
    }
}
