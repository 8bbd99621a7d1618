internal import CMediaEngineCGStreamer
internal import CMediaEngineThumbnails

/// One thumbnail pipeline (`me_thumbnailer_*` in thumbnails.c): `uridecodebin`, video only,
/// into a sink that keeps nothing; one picture per flushing seek. Driven by one worker thread
/// only (open, capture, deinit all block on GStreamer).
final class ThumbnailPipeline {
    private let raw: OpaquePointer
    private let source: any MediaSource
    /// The movie's duration, when the container says.
    let duration: Duration?

    private init(raw: OpaquePointer, source: any MediaSource, duration: Duration?) {
        self.raw = raw
        self.source = source
        self.duration = duration
    }

    /// Builds the pipeline and waits until its streams are exposed.
    /// - Parameters:
    ///   - source: The movie.
    ///   - timeout: How long opening may take.
    ///   - canceller: Interrupts the opening.
    /// - Returns: The pipeline, or the error (``MediaError/Code/noVideo`` for a movie without
    ///   video; `permanent` is false for a cancel or a timeout, which another try may not meet).
    static func open(source: any MediaSource, timeout: Duration, canceller: ThumbnailCanceller) -> Result<
        ThumbnailPipeline, ThumbnailFailure
    > {
        do throws(MediaError) {
            try GStreamer.initialize()
            try source.validate()
        } catch {
            return .failure(ThumbnailFailure(error: error, permanent: true))
        }
        guard let raw = me_thumbnailer_new(source.uri) else {
            return .failure(
                ThumbnailFailure(error: MissingPluginAdvisor.errorForMissingFactory("uridecodebin"), permanent: true))
        }
        // The source's settings (headers, credentials, timeouts of an HTTP source) go to the
        // element uridecodebin makes to read it, as the player's do (`SourceSetup`).
        let setup = SourceSetup(source: source)
        setup.connect(to: Element(borrowing: me_thumbnailer_decodebin(raw)))
        canceller.attach(raw)
        let result = me_thumbnailer_open(raw, timeout.clockTime)
        if let failure = setup.failure.withLock({ $0 }) {
            canceller.attach(nil)
            me_thumbnailer_free(raw)
            return .failure(ThumbnailFailure(error: failure, permanent: true))
        }
        // An image or text is no movie, even when decodebin could show it as one frame.
        if let caps = takeGString(me_thumbnailer_stream_caps(raw)), !StreamTypePolicy.isPlayable(caps),
            result != ME_THUMBNAIL_CANCELLED
        {
            canceller.attach(nil)
            me_thumbnailer_free(raw)
            let error = MediaError(.notAMovie, "the content is \(StreamTypePolicy.mediaType(of: caps)), not a movie")
            return .failure(ThumbnailFailure(error: error, permanent: true))
        }
        guard result == ME_THUMBNAIL_OK else {
            let failure = Self.failure(result, raw: raw, source: source, what: "opening the movie")
            canceller.attach(nil)
            me_thumbnailer_free(raw)
            return .failure(failure)
        }
        let duration = Duration(clockTime: me_thumbnailer_duration(raw))
        return .success(ThumbnailPipeline(raw: raw, source: source, duration: duration))
    }

    deinit {
        me_thumbnailer_free(raw)
    }

    /// The pointer for the worker's canceller.
    var pointer: OpaquePointer { raw }

    /// Decodes the picture for `time`.
    /// - Parameters:
    ///   - time: Where, in the movie (not negative; times past the end are clamped to the last frame).
    ///   - option: The frame on screen at `time`, or the keyframe at or before it.
    ///   - timeout: How long the capture may take.
    /// - Returns: The sample, or the failure (`permanent` meaning the pipeline must be rebuilt).
    func capture(at time: Duration, option: SeekOption, timeout: Duration) -> Result<Sample, ThumbnailFailure> {
        var target = time
        if let duration, duration > .zero, target >= duration {
            // Past the end: the last frame, whose time is reported (clamped, not an error).
            target = duration - .nanoseconds(1)
        }
        var sample: OpaquePointer?
        let result = me_thumbnailer_capture(raw, target.clockTime, option == .exact ? 1 : 0, timeout.clockTime, &sample)
        guard result == ME_THUMBNAIL_OK, let sample else {
            return .failure(Self.failure(result, raw: raw, source: source, what: "at \(time.formattedSeconds)"))
        }
        return .success(Sample(owning: sample))
    }

    /// The video's image-orientation tag (see `me_thumbnailer_orientation`).
    var orientation: Int { Int(me_thumbnailer_orientation(raw)) }

    /// How many pictures left the decoder for the latest capture.
    var picturesDecoded: Int { Int(me_thumbnailer_pictures_decoded(raw)) }

    private static func failure(_ result: MeThumbnailResult, raw: OpaquePointer, source: any MediaSource, what: String)
        -> ThumbnailFailure
    {
        switch result {
        case ME_THUMBNAIL_CANCELLED:
            return ThumbnailFailure(error: ThumbnailBatch.cancelledError, permanent: false, keepsPipeline: true)
        case ME_THUMBNAIL_TIMED_OUT:
            return ThumbnailFailure(error: MediaError(.timedOut, "no picture came in time (\(what))"), permanent: false)
        case ME_THUMBNAIL_NO_VIDEO:
            return ThumbnailFailure(error: MediaError(.noVideo, "the movie has no video stream"), permanent: true)
        case ME_THUMBNAIL_NO_PICTURE:
            let error = source.interpret(
                MediaError(.streamFailure, "the movie ended before a picture could be decoded (\(what))"))
            return ThumbnailFailure(error: error, permanent: false)
        case ME_THUMBNAIL_STALLED:
            let error = source.interpret(
                MediaError(.corruptContainer, "the container is damaged: its demuxer gave up without a stream"))
            return ThumbnailFailure(error: error, permanent: true)
        case ME_THUMBNAIL_BROKEN:
            var failure = ThumbnailFailure(
                error: MediaError(.pipelineFailure, "the thumbnail pipeline failed between two pictures"),
                permanent: false)
            failure.retry = true
            return failure
        case ME_THUMBNAIL_UNDECODABLE:
            let error = source.interpret(
                MediaError(.corruptContainer, "the video's pictures do not decode: none came out of the decoder"))
            return ThumbnailFailure(error: error, permanent: true)
        case ME_THUMBNAIL_ERROR:
            guard let message = me_thumbnailer_take_error(raw).map(Message.init(owning:)) else { fallthrough }
            let failure = PipelineFailure(parsing: message, isError: true)
            let error = source.interpret(PipelineErrorTranslator().translate(failure))
            return ThumbnailFailure(error: error, permanent: what == "opening the movie")
        default:
            return ThumbnailFailure(error: MediaError(.pipelineFailure, "GStreamer refused \(what)"), permanent: false)
        }
    }
}

/// Why a thumbnail pipeline failed, and whether trying again could help.
struct ThumbnailFailure: Error {
    let error: MediaError
    /// The movie cannot be opened at all: every later request fails the same way.
    let permanent: Bool
    /// The pipeline is still usable (a cancel); otherwise it is rebuilt.
    var keepsPipeline = false
    /// The request itself did not fail: it may be tried again on a new pipeline.
    var retry = false
}
