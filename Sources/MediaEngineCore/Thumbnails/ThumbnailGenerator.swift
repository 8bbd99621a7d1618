internal import CMediaEngineGlue
import Foundation

/// Makes thumbnails of any ``MediaSource``, without a player: one picture with
/// ``image(at:option:)``, many with ``images(at:option:)``.
///
/// ```swift
/// let generator = ThumbnailGenerator(source: FileSource(path: "movie.mp4"), maximumSize: VideoSize(width: 320, height: 320))
/// let poster = try await generator.image(at: .seconds(10), option: .nearestKeyFrame)
/// try poster.write(to: URL(fileURLWithPath: "poster.jpg"), format: .jpeg(quality: 85))
/// for await result in generator.images(at: [.seconds(1), .seconds(5), .seconds(9)]) {
///     print(result.requestedTime, result.actualTime ?? .zero, result.error?.code ?? "ok")
/// }
/// ```
///
/// Pictures are decoded by a small pool of pipelines of the generator's own (as many as the
/// machine has cores, up to four), each `uridecodebin` with only the video decoded, kept from
/// request to request (for a few idle seconds) and driven by threads of the engine's own, so no
/// thread of Swift's cooperative pool waits on GStreamer. A player playing the same movie is
/// never touched.
///
/// - ``SeekOption/nearestKeyFrame``: the keyframe at or before the time; exactly one picture is
///   decoded (the seek is made on the video alone, so sound cannot pull it a GOP earlier).
/// - ``SeekOption/exact``: the frame on screen at the time, decoded from the keyframe before it;
///   decoding stops at that frame.
///
/// Times: a negative time is an ``MediaError/Code/invalidArgument`` error for that request; a time
/// past the end gives the last frame, with its own time as ``ThumbnailResult/actualTime``.
/// A movie without video fails every request with ``MediaError/Code/noVideo``; a file that cannot
/// be read, with the source's error (``MediaError/Code/fileNotFound``, ...); a damaged or
/// truncated one gives the pictures that can be decoded and a typed error for the others.
public final class ThumbnailGenerator: Sendable {
    /// The movie.
    public let source: any MediaSource
    /// The size pictures are fitted into (keeping the display aspect ratio, after the
    /// orientation tag turned them), or nil for the movie's display size. Never enlarged.
    public let maximumSize: VideoSize?
    /// How long opening the movie, or decoding one picture, may take before the request fails
    /// with ``MediaError/Code/timedOut``.
    public let timeout: Duration
    /// How many pipelines decode at once.
    public var pipelineCount: Int { pool.size }

    let pool: ThumbnailPool

    /// The default number of pipelines: the cores this process may use, from 1 to 4.
    public static var defaultPipelineCount: Int { max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Creates a generator; nothing is opened until the first request.
    /// - Parameters:
    ///   - source: The movie.
    ///   - maximumSize: The size to fit pictures into, or nil for the display size.
    ///   - timeout: How long opening the movie or decoding one picture may take.
    ///   - pipelines: How many pipelines may decode at once (``defaultPipelineCount`` when nil).
    public init(
        source: any MediaSource, maximumSize: VideoSize? = nil, timeout: Duration = .seconds(10), pipelines: Int? = nil
    ) {
        self.source = source
        self.maximumSize = maximumSize
        self.timeout = timeout
        pool = ThumbnailPool(
            source: source, maximumSize: maximumSize, timeout: timeout,
            size: max(1, pipelines ?? Self.defaultPipelineCount))
    }

    deinit {
        pool.close()
    }

    /// One thumbnail. Cancelling the calling task stops the decoding.
    /// - Parameters:
    ///   - time: Where in the movie.
    ///   - option: The exact frame (default) or the keyframe at or before the time.
    /// - Returns: The picture, RGBA; its ``VideoImage/presentationTime`` is the frame's time.
    /// - Throws: ``MediaError``: ``MediaError/Code/invalidArgument`` for a negative time,
    ///   ``MediaError/Code/noVideo``, ``MediaError/Code/cancelled``, ``MediaError/Code/timedOut``,
    ///   the source's and the pipeline's errors.
    public func image(at time: Duration, option: SeekOption = .exact) async throws(MediaError) -> VideoImage {
        var iterator = images(at: [time], option: option, capacity: 1).makeAsyncIterator()
        guard let result = await iterator.next() else { throw ThumbnailBatch.cancelledError }
        return try result.result.get()
    }

    /// Many thumbnails, as an `AsyncSequence` of results in the order they complete (one per
    /// time, see ``ThumbnailResults``). Decoding starts at once.
    /// - Parameters:
    ///   - times: Where in the movie; any order, repeats allowed.
    ///   - option: The exact frame (default) or the keyframe at or before each time.
    /// - Returns: The results.
    public func images(at times: [Duration], option: SeekOption = .exact) -> ThumbnailResults {
        images(at: times, option: option, capacity: pool.size * 2)
    }

    /// Cancels every request not finished yet: each finishes with ``MediaError/Code/cancelled``.
    public func cancelAll() {
        pool.cancelAll()
    }

    /// Cancels everything and returns once the pipelines are torn down and their threads have
    /// ended. The generator can be used again afterwards.
    public func shutdown() async {
        pool.close()
        await pool.waitForWorkers()
        pool.reopen()
    }

    func images(at times: [Duration], option: SeekOption, capacity: Int) -> ThumbnailResults {
        let pool = pool
        let batch = ThumbnailBatch(
            requests: times.map { ThumbnailBatch.Request(time: $0, option: option) }, capacity: capacity,
            wake: { pool.wake() })
        pool.submit(batch)
        return ThumbnailResults(batch: batch)
    }

    /// How many pictures the decoders have output so far, over all requests: a keyframe
    /// request costs one.
    package var picturesDecoded: Int { pool.picturesDecoded }

    /// Whether the calling thread is one of the engine's own (a player's, a thumbnail pipeline's).
    static var onEngineThread: Bool { me_on_engine_thread() != 0 }
}
