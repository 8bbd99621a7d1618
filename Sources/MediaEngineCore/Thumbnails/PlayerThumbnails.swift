/// A player's thumbnail state: the generator for its current source (its own pipelines, never
/// the player's) and the requests made with ``MoviePlayer/requestThumbnailImages(at:timeOption:)``,
/// which ``MoviePlayer/cancelAllThumbnailImageRequests()`` cancels. Releasing it (with the
/// player) cancels everything and lets the pipelines go.
final class PlayerThumbnails: Sendable {
    private struct State {
        var generator: ThumbnailGenerator?
        var uri: String?
        var maximumSize: VideoSize?
        var requests: [Int: ThumbnailResults] = [:]
        var nextRequest = 0
    }

    private let state = Locked(State())

    /// The size thumbnails are fitted into (nil: the movie's display size).
    var maximumSize: VideoSize? {
        get { state.withLock { $0.maximumSize } }
        set {
            state.withLock { state in
                guard state.maximumSize != newValue else { return }
                state.maximumSize = newValue
                state.generator = nil  // the next request makes one with the new size
            }
        }
    }

    /// The generator for `source`, made again when the source changed.
    func generator(for source: any MediaSource) -> ThumbnailGenerator {
        state.withLock { state in
            if let generator = state.generator, state.uri == source.uri { return generator }
            let generator = ThumbnailGenerator(source: source, maximumSize: state.maximumSize)
            state.generator = generator
            state.uri = source.uri
            return generator
        }
    }

    /// Keeps a request for ``cancelAll()``; returns its key for ``finished(_:)``.
    func track(_ results: ThumbnailResults) -> Int {
        state.withLock { state in
            let key = state.nextRequest
            state.nextRequest += 1
            state.requests[key] = results
            return key
        }
    }

    /// Forgets a request that has had all its results.
    func finished(_ key: Int) {
        _ = state.withLock { $0.requests.removeValue(forKey: key) }
    }

    /// Cancels every tracked request.
    func cancelAll() {
        let requests = state.withLock { Array($0.requests.values) }
        for request in requests { request.cancel() }
    }
}
