/// The machine's output, and the changes the app sees: each publishes its event once, when the
/// value really changes.
extension PlayerMachine.State {
    // MARK: Output

    /// Publishes an event; one that says playback started, stopped, moved or changed speed also
    /// has the time observers re-armed and timed metadata looked at (``requestPositionLook()``).
    mutating func publish(_ event: PlayerEvent) {
        output.events.append(event)
        if event.changesPlayback { requestPositionLook() }
    }

    mutating func perform(_ action: Action) {
        switch action {
        case .play(let session) where session == sessionID:
            // An audio track chosen while paused is switched to just before the pipeline plays.
            if let track = facts.deferredAudioTrack {
                facts.deferredAudioTrack = nil
                output.actions.append(.selectAudioTrack(session: session, track))
            }
            pausedForBuffering = false
            output.actions.append(action)
            sendHeldLoop(session: session)
            return
        case .restartClock(let session) where session == sessionID:
            output.actions.append(action)
            sendHeldLoop(session: session)
            return
        case .play:
            pausedForBuffering = false
        default:
            break
        }
        output.actions.append(action)
    }

    /// The events and actions of the inputs since the last call; a position look asked for
    /// during them comes last (after the seeks and state changes it must see).
    mutating func takeOutput() -> Output {
        resolvePositionLook()
        defer { output = Output() }
        return output
    }

    // MARK: Changes that publish events

    mutating func setPlaybackState(_ new: PlaybackState) {
        guard shown.playbackState != new else { return }
        shown.playbackState = new
        publish(.playbackStateChanged(new))
        resolveWaiters(.playbackState(new))
    }

    mutating func setLoadState(_ new: LoadState) {
        guard shown.loadState != new else { return }
        shown.loadState = new
        publish(.loadStateChanged(new))
    }

    mutating func setPrepared(_ new: Bool) {
        guard shown.isPreparedToPlay != new else { return }
        shown.isPreparedToPlay = new
        publish(.preparedToPlayChanged(new))
    }

    mutating func setReadyForDisplay(_ new: Bool) {
        guard shown.readyForDisplay != new else { return }
        shown.readyForDisplay = new
        publish(.readyForDisplayChanged(new))
    }

    /// Keeps and announces the duration: once, unless it really changes (by at least
    /// ``PlayerMachine/durationRevisionThreshold``).
    mutating func setDuration(_ new: Duration?) {
        guard let new else { return }
        if let duration = facts.duration,
            abs((new - duration) / .nanoseconds(1))
                < PlayerMachine.durationRevisionThreshold / .nanoseconds(1)
        {
            return
        }
        facts.duration = new
        publish(.durationAvailable(new))
    }

    mutating func setNaturalSize(_ new: VideoSize) {
        guard facts.naturalSize != new, new != .zero else { return }
        facts.naturalSize = new
        publish(.naturalSizeAvailable(new))
    }

    mutating func setMediaTypes(_ new: MovieMediaTypes) {
        guard facts.mediaTypes != new else { return }
        facts.mediaTypes = new
        publish(.mediaTypesAvailable(new))
    }

    /// The source type a movie starts with: the app's hint, else what its source says.
    var expectedSourceType: MovieSourceType {
        settings.sourceTypeHint != .unknown ? settings.sourceTypeHint : source.sourceType
    }

    mutating func setSourceType(_ new: MovieSourceType) {
        guard shown.sourceType != new else { return }
        shown.sourceType = new
        publish(.sourceTypeAvailable(new))
    }

    mutating func setRateAsked(_ new: Double) {
        guard settings.rate != new else { return }
        settings.rate = new
        publish(.playbackRateChanged(new))
    }

    /// Keeps the movie's tags. During preparation they are only collected (one event announces
    /// them when preparation ends); afterwards a change announces them again, unless only the
    /// running bitrate estimates moved.
    mutating func mergeMetadata(_ tags: [String: String]) {
        let metadata = facts.metadata
        let merged = metadata.merging(tags) { _, new in new }
        guard merged != metadata else { return }
        let volatile: Set<String> = ["bitrate", "minimum-bitrate", "maximum-bitrate", "nominal-bitrate"]
        let meaningful = merged.keys.contains { !volatile.contains($0) && merged[$0] != metadata[$0] }
        facts.metadata = merged
        if phase == .prepared && meaningful { publish(.metadataAvailable(merged)) }
    }

    // MARK: Looking at the position

    /// Asks for a look at the pipeline's position once the current input is done: the time
    /// observers re-arm from it, and timed metadata due by then is handed out. Without a pipeline
    /// (or with nothing to look for) the observers' timers are cancelled at once instead.
    mutating func requestPositionLook() {
        positionLookRequested = true
    }

    private mutating func resolvePositionLook() {
        guard positionLookRequested else { return }
        positionLookRequested = false
        let observing = playbackState == .playing && !observers.ids.isEmpty
        if let session = currentSession, observing || facts.timedMetadata.hasPending {
            output.actions.append(.readPosition(session: session))
            if !observing { disarmTimeObservers() }
        } else {
            disarmTimeObservers()
            if timedMetadataArmed {
                timedMetadataArmed = false
                output.actions.append(.cancelTimer(.timedMetadata(session: sessionID)))
            }
        }
    }
}

extension PlayerMachine {
    /// Revisions of a duration smaller than this are a demuxer's rounding (Matroska revises
    /// 1.000 s to 1.000333 s at the end, counting the last frame's length), not a new duration.
    static let durationRevisionThreshold = Duration.milliseconds(50)
}
