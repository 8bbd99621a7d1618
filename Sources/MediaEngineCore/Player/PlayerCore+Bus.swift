/// Bus messages become the machine's inputs, with what the pipeline can tell at that moment
/// (position, duration, media types), read when the machine says it may need it. On the
/// player's thread, which the bus thread hands each message to, in order. Nothing here decides:
/// a pre-roll's messages, a seek's grace, the fragment gates are the machine's business.
extension PlayerCore {
    /// Handles one message of session `id`; returns `.exit` when the session is over.
    @discardableResult
    func handle(_ message: BusMessage, session id: Int) -> BusThread.Verdict {
        guard let session = session(id) else { return .exit }
        EngineLog.log(.trace, MediaEngineLog.Category.player, "handle: \(message)")
        switch message {
        case .newEpoch(let epoch):
            apply { $0.epochMarkerArrived(session: id, epoch: epoch) }
        case .seekSent(let seqnum):
            apply { $0.seekMarkerArrived(session: id, seqnum: seqnum) }
        case .asyncDone:
            let facts = facts(of: session)
            apply { $0.asyncDone(session: id, facts: facts) }
        case .pipelineStateChanged(_, let new, let pending):
            guard pending == .voidPending, new == .playing || new == .paused else { break }
            apply { $0.pipelineReached(session: id, playing: new == .playing) }
        case .firstFrame(let frame):
            fitOwnWindow(to: frame.displaySize, session: session)
            let facts = facts(of: session, firstFrame: true)
            apply {
                $0.firstFrameArrived(
                    session: id, seqnum: frame.seqnum, streamTime: frame.streamTime, displaySize: frame.displaySize,
                    facts: facts)
            }
        case .firstFrameHeld:
            apply { $0.firstFrameHeld(session: id) }
        case .segmentDone:
            apply { $0.segmentDone(session: id) }
        case .endOfStream:
            // The later of the pipeline's answer and the last frame's time: a sink swapped in
            // after the last frame answers from upstream, which can say 0 (a false truncation).
            let position = [session.position, session.videoOutput.lastFramePosition].compactMap { $0 }.max()
            apply { $0.endOfStream(session: id, position: position) }
        case .error(let failure):
            let position = session.position
            apply { $0.pipelineError(session: id, failure, position: position) }
        case .warning:
            break
        case .streamTypeFound(let caps):
            apply { $0.streamTypeFound(session: id, caps: caps) }
        case .videoDecoderChosen(let factory):
            apply { $0.videoDecoderChosen(session: id, factory: factory) }
        case .missingPlugin(let description, let caps):
            apply { $0.missingPlugin(session: id, description: description, caps: caps) }
        case .durationChanged(let group):
            // Read from the posting element's own stream: at a gapless hand-over the next movie's
            // parser posts this before that movie is shown, and playbin answers for whichever movie
            // it plays at the moment of the query, which can be later than this message.
            let duration = session.duration(ofStreamGroup: group)
            apply { $0.durationChanged(session: id, group: group == 0 ? nil : group, duration: duration) }
        case .tags(let tags):
            let position = read { $0.phase == .prepared || $0.facts.isICYStream } ? session.position : nil
            apply { $0.tagsArrived(session: id, tags, position: position) }
        case .timedMetadata(let items, let time, let seqnum):
            let position = read { $0.phase == .prepared } ? session.position : nil
            apply { $0.timedMetadataArrived(session: id, items, time: time, seqnum: seqnum, position: position) }
        case .buffering(let percent, let stats):
            apply { $0.buffering(session: id, percent: percent, stats: stats) }
        case .httpResponse(let response):
            apply { $0.httpResponseArrived(session: id, response) }
            logResponse(response, session: id)
        case .manifest(let text):
            // The source reads its own manifest format (parsing, no I/O), here on the player's thread.
            let source = read { $0.source }
            let variants = (source as? any AdaptiveManifestReading)?.segmentVariants(inManifest: text)
            apply { $0.manifestRead(session: id, variants: variants) }
        case .downloadComplete:
            apply { $0.downloadCompleted(session: id) }
        case .framesDropped(let element, let count):
            logDroppedFrames(count, by: element, session: id)
        case .adaptiveStreaming(let report):
            if case .segmentDownloaded = report { logSegmentDownloaded(session: id) }
            apply { $0.adaptiveStreamingReported(session: id, report) }
        case .clockLost:
            apply { $0.clockLost(session: id) }
        case .latencyChanged:
            // An element asked the pipeline to redistribute latency: GStreamer's own bookkeeping.
            session.recalculateLatency()
        case .stateChangeFailed:
            let position = session.position
            apply { $0.stateChangeFailed(session: id, position: position) }
        case .outputSwapped:
            // Before anything else reaches the pipeline: a seek would go to the old sink too.
            session.videoOutput.removeReplacedOutputs()
            apply { $0.outputSwapped(session: id) }
        case .sourceSettingsFailed:
            guard let error = session.sourceSetup.failure.withLock({ $0 }) else { break }
            fail(session: id, with: error)
        case .stopBusThread:
            break  // Handled by the bus thread itself.
        case .streamStarted(let group):
            // A queue's next movie, gone on to without a gap, or the movie's own first stream.
            let needed = read { $0.needsHandOverFacts(session: id, group: group) }
            let facts = needed ? handOverFacts(of: session, group: group) : PlayerMachine.PipelineFacts()
            apply { $0.contentStreamStarted(session: id, group: group, facts: facts) }
            // A new movie's tracks were just forgotten: its caption channels found so far (on
            // frames that got to the output before this message) are tracks again.
            let channels = captions.closedCaptions.channels
            if !channels.isEmpty { apply { $0.closedCaptionsFound(session: id, channels: channels) } }
        }
        return state.withLock { $0.session === session } ? .carryOn : .exit
    }

    /// Everything the pipeline knows of the movie it has just gone on to without a gap, its stream
    /// `group` (what a preparation reads), for the machine to prepare it while it plays. Its
    /// duration is its own stream's, not playbin's.
    func handOverFacts(of session: PipelineSession, group: UInt32) -> PlayerMachine.PipelineFacts {
        let tracks = session.tracks
        return PlayerMachine.PipelineFacts(
            position: session.position, duration: session.duration(ofStreamGroup: group),
            mediaTypes: session.mediaTypes, truncation: session.truncation, audioTracks: tracks.audio,
            subtitleTracks: tracks.subtitles)
    }

    /// What the pipeline knows now, when the machine may need it.
    private func facts(of session: PipelineSession, firstFrame: Bool = false) -> PlayerMachine.PipelineFacts {
        let (needed, preparing) = read {
            ($0.needsFacts(session: session.id, firstFrame: firstFrame), $0.phase == .preparing && $0.preroll == nil)
        }
        guard needed else { return PlayerMachine.PipelineFacts() }
        let tracks: (audio: [MediaTrack], subtitles: [MediaTrack]) = preparing ? session.tracks : ([], [])
        return PlayerMachine.PipelineFacts(
            position: session.position, duration: session.duration, mediaTypes: session.mediaTypes,
            truncation: preparing ? session.truncation : nil, audioTracks: tracks.audio,
            subtitleTracks: tracks.subtitles)
    }
}
