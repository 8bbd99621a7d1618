extension PlayerMachine {
    /// What the player's owner must do after an input: the machine decides, its owner
    /// (``PlayerCore``, through ``PlayerCore/perform(_:)``) does. Pipeline actions run on the
    /// player's own thread in the order they were returned; ``resume(waiter:_:)``, timers and the
    /// subtitle overlay right away. Actions are values: tests compare them as they are.
    ///
    /// Several actions ask the owner to look at the pipeline and report what it found as the
    /// input named in their comment; the machine goes on from there.
    enum Action: Sendable, Equatable {
        // MARK: Pipelines

        /// Build and start a new pipeline for preparation `session`.
        case build(PipelineBuild)
        /// Load another movie into the pipeline of `session`, keeping its elements and sinks;
        /// messages before the marker of `epoch` belong to the previous movie.
        case reload(session: Int, source: SourceRef, epoch: Int, holdFirstFrame: Bool)
        /// Tear the pipeline down (to NULL, threads joined, files closed).
        case close(session: Int)

        // MARK: States

        case play(session: Int)
        case pause(session: Int)
        /// Pause and play again at once: selects a new clock after the old one was lost.
        case restartClock(session: Int)
        /// Pause, wait up to `within` for the frame on its way to the sink to arrive there, and
        /// report where playback got to: ``PlayerMachine/pipelineSettled(session:epoch:position:)``.
        case settle(session: Int, epoch: Int, within: Duration)

        // MARK: Playing in a group

        /// Run the pipeline on the group's clock (which the owner holds), with its start time
        /// left to the machine (`GST_CLOCK_TIME_NONE`: flushes and pauses keep the base time) and
        /// the group's `latency`; video sinks drop frames that come too late.
        case useGroupClock(session: Int, latency: Duration)
        /// The player left its group: the pipeline takes its base time from its clock again.
        case leaveGroupClock(session: Int)
        /// Set the pipeline's base time (a group clock time), before it plays.
        case setBaseTime(session: Int, Duration)
        /// Read the group clock and report it: ``PlayerMachine/groupClockRead(now:)``.
        case readGroupClock

        // MARK: Seeks and rates

        /// Send this flushing seek (numbered `seqnum`); if the pipeline refuses it, report
        /// ``PlayerMachine/seekRefused(session:seqnum:)``.
        case seek(session: Int, plan: SeekPlan, seqnum: UInt32)
        /// Repeat mode's loop, a seek that does not flush: read when the pipeline can take it and
        /// report ``PlayerMachine/loopTimingRead(session:seqnum:timing:)``.
        case readLoopTiming(session: Int, seqnum: UInt32)
        /// Send the loop's seek now (no flush, up from the outputs); report a refusal with
        /// ``PlayerMachine/seekRefused(session:seqnum:)``.
        case sendLoop(session: Int, plan: SeekPlan, seqnum: UInt32)
        /// Change the rate without moving the playhead (an instant rate change numbered
        /// `seqnum`); if the pipeline refuses it, report ``PlayerMachine/instantRateRefused(session:rate:position:)``.
        case instantRate(session: Int, rate: Double, seqnum: UInt32)
        /// Post the instant rate change `seqnum` as `sink`'s request, which the pipeline applies
        /// to every sink from the player's thread.
        case requestInstantRate(session: Int, sink: SinkKind, multiplier: Double, seqnum: UInt32)
        /// Read the movie's video keyframes from its source (file I/O, on the player's thread) and
        /// report them: ``PlayerMachine/keyframeTimesRead(session:epoch:times:)``.
        case readKeyframeTimes(session: Int, epoch: Int, source: SourceRef)

        // MARK: Failures

        /// Let the source make a failure more precise (it may read its file) and report the
        /// result: ``PlayerMachine/failureInterpreted(session:epoch:error:position:)``.
        case interpret(session: Int, epoch: Int, source: SourceRef, error: MediaError, position: Duration?)

        // MARK: The output and the sound

        /// Apply orientation, scaling, background and view frame to the pipeline's video output.
        case applyPresentation(session: Int, VideoPresentation)
        /// Switch to audio track `index`.
        case selectAudioTrack(session: Int, Int)
        /// Draw subtitle track `index` over the movie, or none.
        case selectSubtitleTrack(session: Int, SubtitleChoice?)
        /// Set the sound's gain (the volume, or 0 when muted), without a click.
        case applyGain(session: Int, Double)

        // MARK: Streams

        /// Playback started once: from now on, buffering ends at the resume threshold.
        case useResumeThreshold(session: Int)
        /// Let an adaptive stream's demuxer read past its first fragment.
        case openFragmentGates(session: Int)
        /// Tell the pipeline's gapless gate whether a next movie may follow the one playing.
        case setNextQueued(session: Int, Bool)
        /// Drop the movies handed to the pipeline from stream group `fromGroup` on (the queue no
        /// longer has them next).
        case withdrawHandOvers(session: Int, fromGroup: UInt32)

        // MARK: Time

        /// Arm `timer` to fire after `after` (and then every `repeating`, if given), replacing the
        /// timer with the same identity. A firing is reported as ``PlayerMachine/timerFired(_:facts:)``.
        case startTimer(Timer, after: Duration, repeating: Duration? = nil)
        case cancelTimer(Timer)
        /// Read the pipeline's position and report it: ``PlayerMachine/positionRead(session:position:)``
        /// (time observers re-arm from it and timed metadata due by then is handed out).
        case readPosition(session: Int)

        // MARK: The app

        /// Tell the pre-roll's observer how its item `item` goes (on the player's thread).
        case reportPreroll(item: Int, PrerollReport)
        /// Complete a waiting command.
        case resume(waiter: Int, Completion)
    }

    /// How a waiting command ends.
    enum Completion: Sendable, Equatable {
        case success
        case failure(MediaError)

        init(_ result: Result<Void, MediaError>) {
            switch result {
            case .success: self = .success
            case .failure(let error): self = .failure(error)
            }
        }

        /// What the command returns.
        var result: Result<Void, MediaError> {
            switch self {
            case .success: .success(())
            case .failure(let error): .failure(error)
            }
        }
    }

    /// The sinks an instant rate change is relayed from.
    enum SinkKind: Sendable, Hashable {
        case video, audio
    }

    /// The machine's timers, by what they are for: starting one replaces the armed timer with the
    /// same identity. Each is reported with what the owner reads when it fires
    /// (``PlayerMachine/TimerFacts``).
    enum Timer: Sendable, Hashable {
        /// The preparation of `session` (`epoch`, when the pipeline was reused) takes too long.
        case preparation(session: Int, epoch: Int)
        /// The wait before a reconnection's next try.
        case reconnect(session: Int, epoch: Int)
        /// The network movie is still not going when its source's deadline is over
        /// (``RetryPolicy/deadline``); `epoch` is the one the deadline started in.
        case connectionDeadline(session: Int, epoch: Int)
        /// The seek `seqnum` has not landed (a frame's grace after its preroll, or the
        /// preparation timeout).
        case seekDeadline(session: Int, seqnum: UInt32)
        /// A scan's next rate.
        case scanStep
        /// The next timed metadata item's time.
        case timedMetadata(session: Int)
        /// A pre-roll's position, ten times a second.
        case prerollTick(session: Int)
        /// A pre-roll item's first frame is late.
        case prerollTimeout(session: Int, epoch: Int, item: Int)
        /// An adaptive stream's first fragment takes long to preroll: its demuxer may read ahead.
        case fragmentGates(session: Int, epoch: Int)
        /// A look for a demuxer that stopped without exposing a stream (the `look`th).
        case stalledDemuxer(session: Int, epoch: Int, look: Int)
        /// A time observer's next firing.
        case timeObserver(id: Int)
        /// The group's pause time (a command numbered `generation` by the machine).
        case groupPause(generation: Int)
        /// The group's stop time.
        case groupStop(generation: Int)
        /// A look at the frames a grouped player's video elements dropped.
        case groupHealth
    }

    /// What the owner reads from the pipeline when a timer fires, when the timer still matters
    /// (``PlayerMachine/needsFacts(for:)``).
    struct TimerFacts: Sendable, Equatable {
        var position: Duration?
        var duration: Duration?
        var mediaTypes: MovieMediaTypes = []
        /// The name of a demuxer that gave up without exposing a stream, for ``Timer/stalledDemuxer(session:epoch:look:)``.
        var stalledDemuxer: String?
        /// The frames the pipeline's video elements have dropped so far, for ``Timer/groupHealth``.
        var framesDropped: Int?

        init(
            position: Duration? = nil, duration: Duration? = nil, mediaTypes: MovieMediaTypes = [],
            stalledDemuxer: String? = nil, framesDropped: Int? = nil
        ) {
            self.position = position
            self.duration = duration
            self.mediaTypes = mediaTypes
            self.stalledDemuxer = stalledDemuxer
            self.framesDropped = framesDropped
        }
    }

    /// A source in an action: compared by what it opens (its URI) and its type, so that actions
    /// are values tests can compare.
    struct SourceRef: Sendable, Equatable, CustomStringConvertible {
        let source: any MediaSource

        init(_ source: any MediaSource) {
            self.source = source
        }

        static func == (lhs: SourceRef, rhs: SourceRef) -> Bool {
            lhs.source.uri == rhs.source.uri && type(of: lhs.source) == type(of: rhs.source)
        }

        var description: String { source.uri }
    }

    /// What a new pipeline is built from.
    struct PipelineBuild: Sendable, Equatable {
        let session: Int
        let source: SourceRef
        let videoSink: any VideoSink
        let audioOutput: AudioOutput
        let presentation: VideoPresentation
        /// How much of a network movie to buffer.
        let buffering: BufferingPolicy
        /// Hold the first frame until the seek that applies the playback range, repeat mode or
        /// rate (``PlayerMachine/State/needsPreparationSeek``) has been sent.
        let holdFirstFrame: Bool
        /// Whether movies may follow this one without a gap (the gapless gate starts armed).
        var nextQueued = false
        /// The sound's gain (``PlayerMachine/State/gain``).
        var gain = 1.0

        /// Equal when built for the same session, source, output and settings; sinks compare by type.
        static func == (lhs: PipelineBuild, rhs: PipelineBuild) -> Bool {
            lhs.session == rhs.session && lhs.source == rhs.source
                && type(of: lhs.videoSink) == type(of: rhs.videoSink) && lhs.audioOutput == rhs.audioOutput
                && lhs.presentation == rhs.presentation && lhs.buffering == rhs.buffering
                && lhs.holdFirstFrame == rhs.holdFirstFrame && lhs.nextQueued == rhs.nextQueued
                && lhs.gain == rhs.gain
        }
    }

    /// Events and actions an input produced, in order.
    struct Output: Sendable {
        var events: [PlayerEvent] = []
        var actions: [Action] = []
    }
}

extension PlayerMachine.Action: CustomStringConvertible {
    /// One line per action, for traces and diagnostics.
    var description: String {
        switch self {
        case .build(let build): "build \(build.session) \(build.source)\(build.holdFirstFrame ? " holding" : "")"
        case .reload(let session, let source, let epoch, let hold):
            "reload \(session) \(source) epoch \(epoch)\(hold ? " holding" : "")"
        case .close(let session): "close \(session)"
        case .play(let session): "play \(session)"
        case .pause(let session): "pause \(session)"
        case .restartClock(let session): "restartClock \(session)"
        case .settle(let session, let epoch, let within):
            "settle \(session) epoch \(epoch) within \(within.formattedSeconds)"
        case .useGroupClock(let session, let latency): "useGroupClock \(session) latency \(latency.formattedSeconds)"
        case .leaveGroupClock(let session): "leaveGroupClock \(session)"
        case .setBaseTime(let session, let time): "setBaseTime \(session) \(time.formattedSeconds)"
        case .readGroupClock: "readGroupClock"
        case .seek(let session, let plan, let seqnum): "seek \(session) #\(seqnum) \(plan.summary)"
        case .readLoopTiming(let session, let seqnum): "readLoopTiming \(session) #\(seqnum)"
        case .sendLoop(let session, let plan, let seqnum): "sendLoop \(session) #\(seqnum) \(plan.summary)"
        case .instantRate(let session, let rate, let seqnum): "instantRate \(session) #\(seqnum) \(rate)"
        case .requestInstantRate(let session, let sink, let multiplier, let seqnum):
            "requestInstantRate \(session) #\(seqnum) \(sink) \(multiplier)"
        case .readKeyframeTimes(let session, let epoch, let source):
            "readKeyframeTimes \(session) epoch \(epoch) \(source)"
        case .interpret(let session, let epoch, _, let error, _): "interpret \(session) epoch \(epoch) \(error.code)"
        case .applyPresentation(let session, _): "applyPresentation \(session)"
        case .selectAudioTrack(let session, let index): "selectAudioTrack \(session) \(index)"
        case .selectSubtitleTrack(let session, let index):
            "selectSubtitleTrack \(session) \(index.map(String.init(describing:)) ?? "none")"
        case .applyGain(let session, let gain): "applyGain \(session) \(gain)"
        case .useResumeThreshold(let session): "useResumeThreshold \(session)"
        case .openFragmentGates(let session): "openFragmentGates \(session)"
        case .setNextQueued(let session, let queued): "setNextQueued \(session) \(queued)"
        case .withdrawHandOvers(let session, let group): "withdrawHandOvers \(session) from group \(group)"
        case .startTimer(let timer, let after, let repeating):
            "startTimer \(timer) after \(after.formattedSeconds)"
                + (repeating.map { " every \($0.formattedSeconds)" } ?? "")
        case .cancelTimer(let timer): "cancelTimer \(timer)"
        case .readPosition(let session): "readPosition \(session)"
        case .reportPreroll(let item, let report): "reportPreroll \(item) \(report)"
        case .resume(let waiter, .success): "resume \(waiter)"
        case .resume(let waiter, .failure(let error)): "resume \(waiter) \(error.code)"
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
