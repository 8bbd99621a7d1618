import Dispatch

/// MPMoviePlayerController's thumbnails. They are decoded by pipelines of their own (a
/// ``ThumbnailGenerator`` on the player's ``MoviePlayer/source``), never by the player's
/// pipeline: making them never pauses, seeks or slows playback.
extension MoviePlayer {
    /// The size thumbnails are fitted into, keeping the display aspect ratio (nil, the default:
    /// the movie's display size, as MPMoviePlayerController gives). Applies to later requests.
    public var thumbnailMaximumSize: VideoSize? {
        get { thumbnails.maximumSize }
        set { thumbnails.maximumSize = newValue }
    }

    /// The thumbnail at a time, waiting for it (MPMoviePlayerController's
    /// `thumbnailImageAtTime:timeOption:`). It blocks the calling thread until the picture is
    /// decoded, so call it from ordinary threads only: from async code use
    /// ``ThumbnailGenerator/image(at:option:)``. Called on one of the engine's own threads (the
    /// player's thread, a thumbnail pipeline's), it returns nil at once rather than wait for itself.
    /// - Parameters:
    ///   - time: Where in the movie; past the end, the last frame.
    ///   - timeOption: The exact frame, or the keyframe at or before the time.
    /// - Returns: The picture (RGBA, its ``VideoImage/presentationTime`` the frame's time), or
    ///   nil when it could not be made (a negative time, no video, a bad file, a timeout).
    @available(*, noasync, message: "it blocks until the picture is decoded; use ThumbnailGenerator.image(at:option:)")
    public func thumbnailImage(at time: Duration, timeOption: SeekOption) -> VideoImage? {
        guard !ThumbnailGenerator.onEngineThread else { return nil }
        let generator = thumbnails.generator(for: source)
        let results = generator.images(at: [time], option: timeOption, capacity: 1)
        return results.batch.nextBlocking()?.image
    }

    /// Asks for thumbnails at several times (MPMoviePlayerController's
    /// `requestThumbnailImagesAtTimes:timeOption:`); returns at once. Each time is announced
    /// once, as it completes, as ``PlayerEvent/thumbnailRequestFinished(_:)`` and the
    /// `moviePlayerThumbnailImageRequestDidFinish` notification, whether it succeeded or not.
    ///
    /// The pipelines stay a few pictures ahead of the announcements, but each ``events``
    /// subscription keeps up to ``PlayerEvents/bufferLimit`` events its reader has not taken, each
    /// holding its picture: for long batches, set ``thumbnailMaximumSize`` (pictures are the
    /// movie's display size otherwise) or read the events as they come.
    /// - Parameters:
    ///   - times: Where in the movie (see ``ThumbnailGenerator`` for times out of range).
    ///   - timeOption: The exact frames, or the keyframes at or before the times.
    public func requestThumbnailImages(at times: [Duration], timeOption: SeekOption) {
        guard !times.isEmpty else { return }
        let results = thumbnails.generator(for: source).images(at: times, option: timeOption)
        let key = thumbnails.track(results)
        let core = core
        // Weak: releasing the player releases its generator, which cancels the request; the
        // cancelled times are still announced (to the subscribers that outlive the player).
        Task.detached { [weak thumbnails] in
            for await result in results {
                core.apply { $0.thumbnailRequestFinished(result) }
            }
            thumbnails?.finished(key)
        }
    }

    /// Cancels the requests made with ``requestThumbnailImages(at:timeOption:)`` (not a
    /// ``thumbnailImage(at:timeOption:)`` under way): each time not finished yet is announced
    /// with ``MediaError/Code/cancelled``, promptly.
    public func cancelAllThumbnailImageRequests() {
        thumbnails.cancelAll()
    }
}
