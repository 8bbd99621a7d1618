/// Stands for a default sink the registry could not make: preparing a movie with it fails with
/// the registry's error (and a `playbackDidFinish(.playbackError, error)` event), rather than
/// the video silently going nowhere. ``MoviePlayer/setVideoSink(_:)`` replaces it.
struct UnavailableVideoSink: VideoSink {
    static var capabilities: VideoSinkCapabilities { [] }
    let error: MediaError

    func makeOutput() throws(MediaError) -> VideoOutput {
        throw error
    }
}
