import Dispatch
import Synchronization

/// Bus messages become the machine's inputs, with what the pipeline can tell at that moment
/// (position, duration, media types). On the player's thread, which the bus thread hands each
/// message to, in order.
extension PlayerCore {
    /// Handles one message of session `id`; returns `.exit` when the session is over.
    @discardableResult
    func handle(_ message: BusMessage, session id: Int) -> BusThread.Verdict {
        guard let session = state.withLock({ $0.session?.id == id ? $0.session : nil }) else { return .exit }
        if Self.tracing { Self.trace("handle: \(message)") }
        if read({ $0.preroll != nil }), handlePreroll(message, session: session) {
            return state.withLock { $0.session === session } ? .carryOn : .exit
        }
        switch message {
        case .newEpoch(let epoch):
            apply { $0.epochMarkerArrived(session: id, epoch: epoch) }
        case .seekSent(let seqnum):
            apply { $0.seekMarkerArrived(session: id, seqnum: seqnum) }
        case .asyncDone:
            let facts = facts(of: session)
            apply { $0.asyncDone(session: id, facts: facts) }
            // Prerolled, but the seek's frame has not come: it usually follows at once; if it does
            // not (a damaged stream at the new position, found by make fuzz-engine), the seek lands
            // after a short grace instead of the whole preparation timeout.
            let waitingForFrame = read { machine in
                machine.inFlightSeek.flatMap { $0.prerolled && $0.landing == nil ? $0.seqnum : nil }
            }
            if let seqnum = waitingForFrame {
                scheduleSeekDeadline(session, seqnum: seqnum, after: PlayerMachine.seekFrameGrace)
            }
            // A stream that plays at once lets its demuxer read ahead once it plays, so that the
            // downloads do not slow the move to PLAYING; one that waits (paused, or for more
            // buffered) does now.
            if read({ $0.target != .playing || $0.isStarved || $0.phase != .prepared }) { session.openFragmentGates() }
        case .pipelineStateChanged(_, let new, let pending):
            guard pending == .voidPending, new == .playing || new == .paused else { break }
            if new == .playing { session.openFragmentGates() }
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
            session.openFragmentGates()
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
            let position = read { $0.phase == .prepared || $0.isICYStream } ? session.position : nil
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
            let needed = read { $0.queuedGapless && $0.contentGroup != nil }
            var facts = needed ? handOverFacts(of: session, group: group) : PlayerMachine.PipelineFacts()
            facts.startedItem = session.startingItem
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
        PlayerMachine.PipelineFacts(
            position: session.position, duration: session.duration(ofStreamGroup: group),
            mediaTypes: session.mediaTypes, truncation: session.truncation, tracks: session.tracks)
    }

    /// What the pipeline knows now, when the machine may need it.
    private func facts(of session: PipelineSession, firstFrame: Bool = false) -> PlayerMachine.PipelineFacts {
        let (needed, preparing) = read {
            ($0.needsFacts(session: session.id, firstFrame: firstFrame), $0.phase == .preparing)
        }
        guard needed else { return PlayerMachine.PipelineFacts() }
        return PlayerMachine.PipelineFacts(
            position: session.position, duration: session.duration, mediaTypes: session.mediaTypes,
            truncation: preparing ? session.truncation : nil, tracks: preparing ? session.tracks : ([], []))
    }

    /// decodebin drops the error a demuxer posts while decodebin is still setting it up, which
    /// leaves preparation waiting forever (seen with damaged MP4 files). While preparing, look a
    /// few times for a demuxer that gave up without exposing a stream, and fail as it would have.
    /// A demuxer counts as stalled only when two looks in a row find it so: a healthy one's task
    /// can be paused for a moment (a busy machine), never for the time between two looks.
    func watchForStalledDemuxer(_ session: PipelineSession) {
        let lastSeen = Locked<String?>(nil)
        for delay in [Duration.milliseconds(300), .milliseconds(800), .milliseconds(1500), .milliseconds(2500)] {
            executor.enqueue(after: delay) { [weak self, weak session] in
                guard let self, let session, read({ $0.isCurrent(session.id) && $0.phase == .preparing }) else {
                    return
                }
                let demuxer = session.stalledDemuxer
                let seenBefore = lastSeen.withLock { seen in
                    defer { seen = demuxer }
                    return seen
                }
                guard let demuxer, demuxer == seenBefore else { return }
                apply { $0.stalledDemuxerFound(session: session.id, demuxer: demuxer) }
            }
        }
    }
}
