/// The outcome of one requested thumbnail: the time asked for, the time of the frame the
/// picture shows, and the picture or the error.
public struct ThumbnailResult: Sendable, Hashable, CustomStringConvertible {
    /// The time the thumbnail was asked for.
    public let requestedTime: Duration
    /// The position of the frame in the picture (its presentation time in the movie), or nil
    /// when there is no picture. For ``SeekOption/nearestKeyFrame`` it is the keyframe's time,
    /// at or before ``requestedTime``; for a time past the end, the last frame's.
    public let actualTime: Duration?
    /// The picture (RGBA) or why there is none.
    public let result: Result<VideoImage, MediaError>

    /// Creates a result.
    /// - Parameters:
    ///   - requestedTime: The time asked for.
    ///   - actualTime: The frame's time, if there is a picture.
    ///   - result: The picture or the error.
    public init(requestedTime: Duration, actualTime: Duration?, result: Result<VideoImage, MediaError>) {
        self.requestedTime = requestedTime
        self.actualTime = actualTime
        self.result = result
    }

    /// The picture, or nil when the thumbnail failed.
    public var image: VideoImage? {
        if case .success(let image) = result { return image }
        return nil
    }

    /// The error, or nil when there is a picture.
    public var error: MediaError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// `ThumbnailResult(3.0 s -> 2.000 s, 320x180)` or `ThumbnailResult(3.0 s, cancelled)`.
    public var description: String {
        switch result {
        case .success(let image):
            let actual = actualTime?.formattedSeconds ?? "?"
            return "ThumbnailResult(\(requestedTime.formattedSeconds) -> \(actual), \(image.width)x\(image.height))"
        case .failure(let error):
            return "ThumbnailResult(\(requestedTime.formattedSeconds), \(error.code))"
        }
    }

    static func failure(_ time: Duration, _ error: MediaError) -> ThumbnailResult {
        ThumbnailResult(requestedTime: time, actualTime: nil, result: .failure(error))
    }
}
