extension PlayerMachine {
    /// What the player's owner must do after an input: the machine decides, its owner
    /// (``PlayerCore``) performs. Pipeline actions run on the player's own thread in the order
    /// they were returned; ``resume(waiter:_:)`` and ``rearmTimeObservers`` right away.
    enum Action: Sendable {
        /// Build and start a new pipeline for preparation `session`.
        case build(PipelineBuild)
        /// Load another movie into the pipeline of `session`, keeping its elements and sinks;
        /// messages before the marker of `epoch` belong to the previous movie.
        case reload(session: Int, source: any MediaSource, epoch: Int, holdFirstFrame: Bool)
        /// Tear the pipeline down (to NULL, threads joined, files closed).
        case close(session: Int)
        case play(session: Int)
        case pause(session: Int)
        /// Pause and play again at once: selects a new clock after the old one was lost.
        case restartClock(session: Int)
        /// Send a seek with this sequence number; if the pipeline refuses it, report
        /// ``PlayerMachine/seekRefused(session:seqnum:)``.
        case seek(session: Int, plan: SeekPlan, seqnum: UInt32)
        /// Change the rate without moving the playhead (an instant rate change); if the pipeline
        /// refuses it, report ``PlayerMachine/instantRateRefused(session:rate:position:)``.
        case instantRate(session: Int, rate: Double)
        /// Apply orientation, scaling, background and view frame to the pipeline's video output.
        case applyPresentation(session: Int, VideoPresentation)
        /// Report ``PlayerMachine/preparationTimedOut(session:epoch:after:)`` after the
        /// preparation timeout.
        case scheduleTimeout(session: Int, epoch: Int)
        /// Report ``PlayerMachine/reconnectDue(session:epoch:position:)`` after `after` (the wait before a
        /// reconnection's next try).
        case scheduleReconnect(session: Int, epoch: Int, after: Duration)
        /// Look a few times for a demuxer that stopped without exposing a stream.
        case watchForStalledDemuxer(session: Int)
        /// Playback started once: from now on, buffering ends at the resume threshold.
        case useResumeThreshold(session: Int)
        /// Start (or restart) the timer that raises a scan's rate, and stop it.
        case startScanTimer
        case cancelScanTimer
        /// Look at the position again after this long (wall clock) and report it with
        /// ``PlayerMachine/timedMetadataTick(session:position:)``; replaces the previous such request.
        case scheduleTimedMetadata(session: Int, after: Duration)
        /// Switch to audio track `index`.
        case selectAudioTrack(session: Int, Int)
        /// Draw subtitle track `index` over the movie, or none.
        case selectSubtitleTrack(session: Int, SubtitleChoice?)
        /// Set the sound's gain (the volume, or 0 when muted), without a click.
        case applyGain(session: Int, Double)
        /// Set (or clear, with none) the movies the pipeline goes on to without a gap, in order,
        /// after the one playing (its id).
        case queueNext(session: Int, upcoming: [UpNext.Item], playing: Int?)
        /// Tell a pre-roll's observer how it goes (on the player's thread).
        case reportPreroll(PlayerMachine.PrerollObserver, Int, PrerollReport)
        /// Start reporting the pre-roll's position about ten times a second
        /// (``PlayerMachine/prerollTick(session:position:)``), and stop.
        case startPrerollTicks(session: Int)
        case stopPrerollTicks
        /// Report ``PlayerMachine/prerollTimedOut(session:epoch:item:)`` after `after`.
        case schedulePrerollTimeout(session: Int, epoch: Int, item: Int, after: Duration)
        /// Complete a waiting command.
        case resume(waiter: Int, Result<Void, MediaError>)
        /// Playback started, stopped, moved or changed speed: time observers re-arm.
        case rearmTimeObservers
    }

    /// What a new pipeline is built from.
    struct PipelineBuild: Sendable {
        let session: Int
        let source: any MediaSource
        let videoSink: any VideoSink
        let audioOutput: AudioOutput
        let presentation: VideoPresentation
        /// How much of a network movie to buffer.
        let buffering: BufferingPolicy
        /// Hold the first frame until the seek that applies the playback range, repeat mode or
        /// rate (``PlayerMachine/needsPreparationSeek``) has been sent.
        let holdFirstFrame: Bool
        /// The movies to go on to without a gap after this one (a pre-roll's next items and content).
        var next: [UpNext.Item] = []
        /// The sound's gain (``PlayerMachine/gain``).
        var gain = 1.0
    }

    /// Events and actions an input produced, in order.
    struct Output: Sendable {
        var events: [PlayerEvent] = []
        var actions: [Action] = []
    }
}

extension PlayerMachine.Action: CustomStringConvertible {
    /// One line per action, for tests and diagnostics.
    var description: String {
        switch self {
        case .build(let build): "build \(build.session)\(build.holdFirstFrame ? " holding" : "")"
        case .reload(let session, _, let epoch, let hold): "reload \(session) epoch \(epoch)\(hold ? " holding" : "")"
        case .close(let session): "close \(session)"
        case .play(let session): "play \(session)"
        case .pause(let session): "pause \(session)"
        case .restartClock(let session): "restartClock \(session)"
        case .seek(let session, let plan, let seqnum): "seek \(session) #\(seqnum) \(plan.summary)"
        case .instantRate(let session, let rate): "instantRate \(session) \(rate)"
        case .applyPresentation(let session, _): "applyPresentation \(session)"
        case .scheduleTimeout(let session, let epoch): "scheduleTimeout \(session) epoch \(epoch)"
        case .scheduleReconnect(let session, let epoch, let wait):
            "scheduleReconnect \(session) epoch \(epoch) after \(wait.formattedSeconds)"
        case .watchForStalledDemuxer(let session): "watchForStalledDemuxer \(session)"
        case .useResumeThreshold(let session): "useResumeThreshold \(session)"
        case .startScanTimer: "startScanTimer"
        case .cancelScanTimer: "cancelScanTimer"
        case .scheduleTimedMetadata(let session, let wait):
            "scheduleTimedMetadata \(session) after \(wait.formattedSeconds)"
        case .applyGain(let session, let gain): "applyGain \(session) \(gain)"
        case .selectAudioTrack(let session, let index): "selectAudioTrack \(session) \(index)"
        case .selectSubtitleTrack(let session, let index):
            "selectSubtitleTrack \(session) \(index.map(String.init(describing:)) ?? "none")"
        case .queueNext(let session, let upcoming, _):
            "queueNext \(session) \(upcoming.isEmpty ? "none" : upcoming.map(\.source.uri).joined(separator: " "))"
        case .reportPreroll(_, let item, let report): "reportPreroll \(item) \(report)"
        case .startPrerollTicks(let session): "startPrerollTicks \(session)"
        case .stopPrerollTicks: "stopPrerollTicks"
        case .schedulePrerollTimeout(let session, let epoch, let item, let wait):
            "schedulePrerollTimeout \(session) epoch \(epoch) item \(item) after \(wait.formattedSeconds)"
        case .resume(let waiter, .success): "resume \(waiter)"
        case .resume(let waiter, .failure(let error)): "resume \(waiter) \(error.code)"
        case .rearmTimeObservers: "rearmTimeObservers"
        }
    }
}

extension SeekPlan {
    /// Where, how fast and how: `to 2.000s rate 1.0 exact` (with `looping`, `no flush` and the
    /// range when they apply).
    var summary: String {
        var text = "to \(position.formattedSeconds) rate \(rate) \(accuracy)"
        if !flush { text += " no-flush" }
        if looping { text += " looping" }
        if let rangeStart { text += " from \(rangeStart.formattedSeconds)" }
        if let rangeEnd { text += " until \(rangeEnd.formattedSeconds)" }
        return text
    }
}
