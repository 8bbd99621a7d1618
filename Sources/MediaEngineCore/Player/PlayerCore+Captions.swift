/// Closed captions: decoded on the video streaming thread as frames enter the output (so a
/// caption is drawn from the frame it came with); the channels found go to the machine, on the
/// player's thread, as subtitle tracks.
extension PlayerCore {
    /// One frame's caption data, or a flush, from pipeline `id`. On the video streaming thread.
    func closedCaptionsArrived(_ event: ClosedCaptionWatch.Event, session id: Int) {
        switch event {
        case .flush:
            captions.flushClosedCaptions()
        case .newStream:
            // The machine forgets the last movie's channels when the pipeline says the stream
            // started (``PlayerMachine/contentStreamStarted(session:group:facts:)``), and is told
            // the new movie's again then: this comes first, on its way to the sinks.
            captions.forgetClosedCaptions()
        case .captions(let bytes, let carriage, let time):
            guard let channels = captions.receiveClosedCaptions(bytes, carriage: carriage, at: time) else { return }
            executor.enqueue { [weak self] in
                self?.apply { $0.closedCaptionsFound(session: id, channels: channels) }
            }
        }
    }
}
