/// Stands for a URL no source could be made for (``MediaSourceRegistry/source(for:)`` threw):
/// preparing it fails with that error, announced as any failure is, instead of the player
/// refusing to be made (`MoviePlayer(contentURL:)` does not throw, as MPMoviePlayerController's
/// does not). Its URI is the URL's, so `contentURL` reads back what was given.
struct UnavailableSource: MediaSource {
    let uri: String
    let error: MediaError

    var sourceType: MovieSourceType { .unknown }

    func validate() throws(MediaError) {
        throw error
    }
}
