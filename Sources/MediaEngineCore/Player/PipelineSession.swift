internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue
internal import CMediaEnginePipeline
internal import CMediaEngineTimedMetadata
internal import CMediaEngineWorkarounds

/// One playbin pipeline and the bus thread that watches it: everything a player builds for
/// one prepared movie, and tears down when the movie stops or fails.
final class PipelineSession: Sendable {
    /// playbin's GstPlayFlags: video, audio, native-video. No deinterlace or colour-balance
    /// filters (the engine adds its own stages to the video bin), no subtitles yet, and no
    /// soft-volume (the engine's own `volume` element does the player's volume).
    private static let playFlags = 0x01 | audioFlag | textFlag | 0x40
    /// GST_PLAY_FLAG_SOFT_VOLUME, which playbin sets by default. Workaround "playsink-volume-leak"
    /// (``GStreamerWorkaround/playsinkVolumeLeak``): playsink leaked its volume element (and its two
    /// pads) once per pipeline, which `GST_TRACERS=leaks` showed after every movie with sound (seen
    /// on 1.22.0 from the engine's first leak check, commit 5789cd0). Fixed in 1.22.3 ("playsink: Fix
    /// volume leak", 917424b3fb, merge request !4459; c6bb20bba8 in 1.24). The leak is on playsink's
    /// path without a sink volume; the engine's audio bin now holds its own `volume` element, which
    /// playsink takes as the sink's (GstStreamVolume) whatever the flag, so that path is not taken.
    /// Off (1.22.3 and later, or forced): the flag is set as playbin's defaults have it, and nothing
    /// changes (engine-leak-check under GST_TRACERS=leaks, forced off and on: nothing left alive).
    /// WorkaroundReproductionTests' playsink-volume-leak test (engine-workaround-check, forced off
    /// and on): off, the flag set and no `volume` left alive after the player's shutdown, as on; a
    /// bare playbin with the flag and a plain fakesink leaves one alive on 1.22.0 (the bug itself,
    /// on a path the engine never takes).
    private static let softVolumeFlag = 0x10
    /// GST_PLAY_FLAG_DOWNLOAD: progressive downloads go to a temporary file (queue2's download mode).
    private static let downloadFlag = 0x80
    /// GST_PLAY_FLAG_VIS: a visualisation stage for movies without video (``backdrop``).
    private static let visualisationFlag = 0x08
    private static let audioFlag = 0x02
    /// GST_PLAY_FLAG_TEXT: the subtitle stream goes to the text sink (``SubtitleDelivery``), whose
    /// cues are drawn only while a track is chosen (playbin links a text stream only when the
    /// flag is on as the movie starts).
    private static let textFlag = 0x04
    /// The audio sink of a pipeline that plays no sound: never linked, never probed.
    private static let silentAudio = ElementDescription(factory: "fakesink", properties: ["sync": false])

    let id: Int
    /// The player's own thread: every call that changes the pipeline runs there.
    let executor: PlayerExecutor
    let playbin: Element
    let videoOutput: VideoOutputBin
    let sourceSetup: SourceSetup
    /// The audio sink (the silent one when the movie's sound is not played).
    private let audioSink: Element
    /// The gain before the audio sink (`volume`), nil when the movie's sound is not played.
    private let volume: Element?
    private let busThread: Locked<BusThread?>
    /// How much of the movie its source holds, asked once per movie (see ``truncation``).
    private let truncationReport: Locked<TruncationReport>
    /// The buffering elements of a network movie and their thresholds.
    private let buffering: BufferingThresholds
    /// Asked at playbin's about-to-finish (a streaming thread) for the movie to go on to without
    /// a gap, with whether the gapless gate lets a hand-over happen: the player's machine
    /// decides (``PlayerMachine/aboutToFinish(session:gateOpen:)``).
    private let nextMovie: @Sendable (Bool) -> (any MediaSource)?
    /// For a window output: what the window shows for a movie without video, the background
    /// colour (`mebackdrop`, playbin's visualisation stage, used only when there is no video).
    private let backdrop: Element?
    /// Drops a stream's end at playsink while a next movie may follow (see ``GaplessGate``);
    /// told by the player whether one is queued (``setNextQueued(_:)``).
    private let gaplessGate: GaplessGate
    /// Held while the pipeline's state changes; once `closed`, no state change but NULL happens,
    /// so a command racing with ``close()`` cannot bring a torn-down pipeline back to life.
    private let lifecycle = Locked(false)

    /// Builds the pipeline for `source`; it stays in NULL until ``start()``.
    /// - Parameters:
    ///   - id: Tells this session's messages from those of earlier ones.
    ///   - source: What to play.
    ///   - videoSink: Where the video goes.
    ///   - audioOutput: Where the audio goes.
    ///   - overlays: What is drawn over the video.
    ///   - presentation: Orientation, scaling mode, background and view frame.
    ///   - buffering: How much of a network movie to buffer.
    ///   - holdFirstFrame: Show nothing until the seek that applies the playback range.
    ///   - gain: The sound's gain: the player's volume, or 0 when muted.
    ///   - executor: The player's own thread.
    ///   - subtitleCue: Called on a streaming thread with each cue of the chosen subtitle track.
    ///   - closedCaptions: Called on the video streaming thread with each frame's caption data,
    ///     and at each flush.
    ///   - nextMovie: Called at playbin's about-to-finish, on a streaming thread, with whether the
    ///     gapless gate allows a hand-over: the movie to go on to, or nil. It must not block.
    ///   - instantRate: Called with an instant rate change that reached a sink (which one, its
    ///     multiplier and seqnum), on the thread that pushed it: it must only hand it over.
    ///   - handler: Called on the bus thread with each message.
    init(
        id: Int, executor: PlayerExecutor, source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput,
        overlays: VideoOverlays, presentation: VideoPresentation, buffering: BufferingPolicy, holdFirstFrame: Bool,
        gain: Double, subtitleCue: @escaping @Sendable (TextCue) -> Void = { _ in },
        closedCaptions: ClosedCaptionWatch.Handler? = nil,
        nextMovie: @escaping @Sendable (Bool) -> (any MediaSource)? = { _ in nil },
        instantRate: @escaping @Sendable (PlayerMachine.SinkKind, Double, UInt32) -> Void = { _, _, _ in },
        handler: @escaping @Sendable (BusMessage) -> BusThread.Verdict
    ) throws(MediaError) {
        executor.assertCurrent("building a pipeline")
        self.id = id
        self.executor = executor
        playbin = try Element.make("playbin", name: "me-playbin-\(id)")
        let output = try videoSink.makeOutput()
        videoOutput = try VideoOutputBin(
            output: output, overlays: overlays, presentation: presentation, holdFirstFrame: holdFirstFrame)
        if let closedCaptions { ClosedCaptionWatch.install(on: videoOutput.bin, closedCaptions) }
        var flags = Self.playFlags
        if !GStreamerWorkaround.playsinkVolumeLeak.isActive { flags |= Self.softVolumeFlag }
        if let audio = audioOutput.resolved(videoSynchronized: output.isSynchronized) {
            audioSink = try VideoOutputBin.makeElement(audio)
            if GStreamerWorkaround.loopRunningTime.isActive { audioSink.staticPad("sink")?.keepLoopsContinuous() }
            // volume ! sink: the player's volume and mute (playbin's own soft volume leaks).
            let volume = try Element.make("volume", name: "me-volume")
            try volume.set("volume", .double(gain))
            me_volume_watch(volume.pointer)
            let bin = try Bin.make(name: "me-audio-output")
            try bin.addAndLink([volume, audioSink])
            guard let input = volume.staticPad("sink") else {
                throw MediaError(.pipelineFailure, "the volume element has no sink pad")
            }
            try bin.addGhostPad(named: "sink", target: input)
            self.volume = volume
            playbin.set("audio-sink", element: bin)
        } else {
            flags &= ~Self.audioFlag
            // playbin makes an audio sink even without its audio flag; without one of ours it
            // would probe the machine's (openalsink, ALSA) on every pipeline.
            audioSink = try VideoOutputBin.makeElement(Self.silentAudio)
            volume = nil
            playbin.set("audio-sink", element: audioSink)
        }
        if buffering.downloadsToCacheFile { flags |= Self.downloadFlag }
        if videoOutput.isWindow {
            let backdrop = try Element.make("mebackdrop", name: "me-backdrop")
            try backdrop.set("color", .int(presentation.backgroundARGB))
            playbin.set("vis-plugin", element: backdrop)
            flags |= Self.visualisationFlag
            self.backdrop = backdrop
        } else {
            backdrop = nil
        }
        try playbin.set([
            "uri": .string(source.uri), "flags": .int(flags),
            "buffer-duration": .int(Int(buffering.maximum.inSeconds * 1e9)),
        ])
        self.buffering = BufferingThresholds(playbin: playbin, policy: buffering)
        playbin.set("video-sink", element: videoOutput.bin)
        playbin.set("text-sink", element: try SubtitleDelivery.makeSink(subtitleCue))
        sourceSetup = SourceSetup(source: source)
        truncationReport = Locked(TruncationReport(source: source))
        self.nextMovie = nextMovie
        sourceSetup.connect(to: playbin)
        me_shorten_audio_queue(playbin.pointer)
        me_schedule_audio_threads_first(playbin.pointer)
        me_watch_timed_metadata_in(playbin.pointer)
        if GStreamerWorkaround.keyframeFlags.isActive { me_mark_keyframes_in(playbin.pointer) }
        me_watch_stream_types(playbin.pointer)
        // The engine's decoders, which the registry ranks NONE so that an app's own pipelines keep theirs.
        me_prefer_engine_decoders(playbin.pointer)
        busThread = Locked(try BusThread(pipeline: playbin, handler: handler))
        gaplessGate = GaplessGate(playbin: playbin)
        AboutToFinishRelay.install(on: playbin) { [weak self] in self?.goOnToNextSource() }
        for (sink, kind) in [(videoOutput.bin, PlayerMachine.SinkKind.video), (audioSink, .audio)]
        where GStreamerWorkaround.instantRateRelay.isActive {
            guard let pad = sink.staticPad("sink") else { continue }
            InstantRateRelay.install(on: pad) { multiplier, seqnum in instantRate(kind, multiplier, seqnum) }
        }
    }

    /// Starts prerolling (`PAUSED`). A refusal is reported on the bus like any other failure.
    /// While the source connects and reads its first bytes, playbin's list of elements to
    /// autoplug from is built here on the player's thread rather than later on the streaming
    /// thread, in the way of the first frame (`me_warm_up_autoplugging`).
    func start() {
        change(to: GST_STATE_PAUSED)
        lifecycle.withLock { closed in
            guard !closed else { return }
            _ = me_warm_up_autoplugging(playbin.pointer)
        }
    }

    /// Lets an adaptive stream's demuxer read past its first fragment, which it holds back while
    /// the movie prerolls (`fragmentgate.c`). On the player's thread, when the player says so
    /// (preparation done, or taking long: ``PlayerMachine/fragmentGateLimit``).
    func openFragmentGates() {
        executor.assertCurrent("opening the fragment gates")
        lifecycle.withLock { closed in
            guard !closed else { return }
            sourceSetup.openFragmentGates(in: playbin)
        }
    }

    /// The state the pipeline has settled in, or nil while a change is under way
    /// (`gst_element_get_state` without waiting).
    var settledState: GstStateValue? {
        let (result, current, pending) = playbin.state(timeout: 0)
        guard result == GST_STATE_CHANGE_SUCCESS, pending == GST_STATE_VOID_PENDING else { return nil }
        return GstStateValue(current)
    }

    /// Whether repeat mode's loop can be sent now (see ``LoopSeekTiming``).
    var loopSeekTiming: LoopSeekTiming {
        let (_, current, pending) = playbin.state(timeout: 0)
        return LoopSeekTiming.decide(
            target: GstStateValue(me_element_target_state(playbin.pointer)), current: GstStateValue(current),
            pending: GstStateValue(pending))
    }

    /// Sets the pipeline to `PLAYING`.
    func play() {
        change(to: GST_STATE_PLAYING)
    }

    /// Sets the pipeline to `PAUSED`.
    func pause() {
        change(to: GST_STATE_PAUSED)
    }

    /// Sets the pipeline to `PAUSED` and waits, on the player's thread, up to `limit` for the
    /// frame on its way to the sink to arrive there (the preroll); with nothing left to show, it
    /// waits the whole `limit`. Afterwards no frame is in transit: the last one the video output
    /// let through is the one shown.
    func pauseAndSettle(within limit: Duration) {
        pause()
        executor.assertCurrent("waiting for a preroll")
        _ = playbin.state(timeout: GstClockTime(clamping: limit.clockTime))
    }

    private func change(to target: GstState) {
        executor.assertCurrent("a state change")
        lifecycle.withLock { closed in
            guard !closed else { return }
            if playbin.setState(target) == GST_STATE_CHANGE_FAILURE {
                // GStreamer posts the reason as an ERROR first; this marks the end of it for the
                // bus thread in case no element said anything.
                playbin.bus?.postApplicationMessage(ME_MESSAGE_STATE_CHANGE_FAILED, from: playbin)
            }
        }
    }

    /// Reuses the pipeline, with its elements, sinks and bus thread, for another movie: down to
    /// `READY` (which stops the old streams), the new URI and settings, a marker on the bus so the
    /// old movie's late messages can be told apart, and up to `PAUSED` again.
    func reload(_ source: any MediaSource, epoch: Int, holdFirstFrame: Bool) throws(MediaError) {
        executor.assertCurrent("reloading a pipeline")
        sourceSetup.replace(with: source)
        truncationReport.withLock { $0 = TruncationReport(source: source) }
        if holdFirstFrame { videoOutput.firstFrame.hold() }
        let result: Result<Void, MediaError> = lifecycle.withLock { closed in
            guard !closed else { return .failure(MediaError(.cancelled, "the pipeline was closed")) }
            // An adaptive demuxer stops its fragment downloads before its own pads: one blocked
            // at a closed gate would never stop (fragmentgate.c).
            sourceSetup.openFragmentGates(in: playbin, refusingNew: true)
            playbin.setState(GST_STATE_READY)
            // The streams are stopped: the gate counts the new movie's groups from its first.
            gaplessGate.restart()
            if GStreamerWorkaround.reloadSources.isActive { me_lock_previous_sources(playbin.pointer) }
            sourceSetup.allowFragmentGates()
            do throws(MediaError) {
                try playbin.set("uri", .string(source.uri))
            } catch {
                return .failure(error)
            }
            playbin.postEpochMarker(epoch)
            if playbin.setState(GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE {
                playbin.bus?.postApplicationMessage(ME_MESSAGE_STATE_CHANGE_FAILED, from: playbin)
            }
            return .success(())
        }
        try result.get()
    }

    /// How long a change of volume takes: short enough to feel immediate, long enough that the
    /// wave is not cut mid-swing (a click).
    static let volumeRamp = Duration.milliseconds(30)

    /// Changes the sound's gain, on the player's thread: in a ramp over ``volumeRamp`` of the
    /// movie's time from the next buffer to reach the volume element, or at once when nothing
    /// plays. The streaming thread ends the ramp (its control points removed, the property set)
    /// at the first buffer past it, or at a flush.
    func setGain(_ target: Double) {
        executor.assertCurrent("changing the volume")
        guard let volume else { return }
        guard settledState == .playing else {
            me_volume_set_now(volume.pointer, target)
            return
        }
        // The streaming thread starts the ramp where the next buffer through the element starts,
        // and ends it at the first buffer past it.
        me_volume_request_ramp(volume.pointer, target, Self.volumeRamp.clockTime)
    }

    /// Tells the gapless gate whether a next movie may follow the one playing (only then may it
    /// drop a stream's end at playsink). Any thread: the player sets it with the decision.
    func setNextQueued(_ queued: Bool) {
        gaplessGate.setNextQueued(queued)
    }

    /// playbin will play (or already plays) movies the player no longer has next: their pictures
    /// and sound are dropped from stream group `group` on (at once if it started), and the player
    /// reloads or closes at their start.
    func withdrawHandOvers(fromGroup group: UInt32) {
        gaplessGate.withdraw(fromGroup: Int(group))
    }

    /// playbin's about-to-finish, on a streaming thread: the next movie's URI and settings go
    /// in now, or playbin ends with EOS. Not when a stream's end already went on to wait in the
    /// stream synchronizer (nothing was queued when it came): the switch would deadlock; the
    /// player then loads the next movie on its own.
    private func goOnToNextSource() {
        let gateOpen = gaplessGate.beginHandOver()
        guard let next = nextMovie(gateOpen) else {
            gaplessGate.cancelHandOver()
            return
        }
        sourceSetup.replace(with: next)
        truncationReport.withLock { $0 = TruncationReport(source: next) }
        do throws(MediaError) {
            try playbin.set("uri", .string(next.uri))
        } catch {
            // playbin has a string `uri` property: this does not happen; without the URI playbin
            // ends the current movie with EOS, which the player handles as usual.
            gaplessGate.cancelHandOver()
            return
        }
    }

    /// Stops the bus thread and takes the pipeline to `NULL`, which stops every streaming
    /// thread and closes the source. Safe to call more than once. Called on the player's thread
    /// (a pipeline that was never installed), or on the teardown thread the player handed it to
    /// (``PipelineTeardown``); never on the cooperative pool.
    func close() {
        let thread = busThread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        thread?.stop()
        // An output a swap unlinked ignores the pipeline's state (locked): shut it down too.
        videoOutput.removeReplacedOutputs()
        lifecycle.withLock { closed in
            closed = true
            sourceSetup.openFragmentGates(in: playbin, refusingNew: true)
            playbin.setState(GST_STATE_NULL)
        }
    }

    /// The elements still between two states, deepest first (`appsink0 (appsink): PAUSED to
    /// READY`), or nil: what holds up a teardown that does not finish. Any thread; it takes no
    /// element's state lock.
    var pendingStateChanges: String? {
        playbin.pendingStateChanges
    }

    /// The current position in the movie, if the pipeline knows it.
    var position: Duration? {
        playbin.queryPosition().flatMap(Duration.init(clockTime:))
    }

    /// The movie's duration, if the pipeline knows it.
    var duration: Duration? {
        playbin.queryDuration().flatMap(Duration.init(clockTime:))
    }

    /// The duration of the movie of stream group `group`, from its own stream: asked of the
    /// elements upstream of playsink that carry that group (`me_stream_group_duration`). playbin
    /// answers for the movie it plays at the moment of the query, and at a gapless hand-over from a
    /// cache of the previous movie's duration until the next movie's decodebin has exposed its
    /// pads; a query upstream from the video output reaches the next movie as soon as it is linked,
    /// before its frames are shown. Nil when no element of the group knows; playbin's answer
    /// for a group of 0 (a stream without group ids).
    func duration(ofStreamGroup group: UInt32) -> Duration? {
        guard group != 0 else { return duration }
        var time: gint64 = -1
        guard me_stream_group_duration(playbin.pointer, guint(group), &time) != 0, time >= 0 else { return nil }
        return Duration(clockTime: GstClockTime(time))
    }

    /// The kinds of streams playbin found.
    var mediaTypes: MovieMediaTypes {
        var types: MovieMediaTypes = []
        if (playbin.int("n-video") ?? 0) > 0 { types.insert(.video) }
        if (playbin.int("n-audio") ?? 0) > 0 { types.insert(.audio) }
        return types
    }

    /// The movie's audio and subtitle tracks as playbin found them, and the audio track playing.
    var tracks: (audio: [MediaTrack], subtitles: [MediaTrack]) {
        func read(_ kind: MediaTrack.Kind) -> [MediaTrack] {
            let text = kind == .subtitle
            let count = playbin.int(text ? "n-text" : "n-audio") ?? 0
            let current = playbin.int(text ? "current-text" : "current-audio") ?? -1
            return (0..<max(0, count)).map { index in
                var tags: [String: String] = [:]
                if let list = me_playbin_stream_tags(playbin.pointer, text ? 1 : 0, gint(index)) {
                    tags = TagList(owning: list).textTags
                }
                return MediaTrack(
                    kind: kind, index: index, languageCode: tags["language-code"] ?? tags["language-name"],
                    codec: tags[text ? "subtitle-codec" : "audio-codec"] ?? tags["codec"], title: tags["title"],
                    isDefault: index == current)
            }
        }
        return (read(.audio), read(.subtitle))
    }

    /// Switches playbin to audio track `index` (its input selector: the video goes on untouched).
    func selectAudioTrack(_ index: Int) {
        executor.assertCurrent("switching the audio track")
        do throws(MediaError) {
            try playbin.set("current-audio", .int(index))
        } catch {
            // playbin has an integer current-audio property; an index it does not have is ignored by it.
            return
        }
    }

    /// The colour a window shows for a movie without video (``backdrop``), ARGB.
    func setBackdropColor(_ argb: Int) {
        // An ARGB word always fits the element's 32-bit colour property: nothing to report.
        try? backdrop?.set("color", .int(argb))
    }

    /// Sends subtitle track `index` to the text sink (playbin's input selector switches at once).
    func selectSubtitleTrack(_ index: Int) {
        executor.assertCurrent("switching the subtitle track")
        do throws(MediaError) {
            try playbin.set("current-text", .int(index))
        } catch {
            // playbin has an integer current-text property; an index it does not have is ignored by it.
            return
        }
    }

    /// Sends a flushing seek numbered `seqnum` (the number the player chose when it decided the
    /// seek; the seek's segment and first frame carry it); false when no element took it.
    @discardableResult
    func seek(_ plan: SeekPlan, seqnum: UInt32) -> Bool {
        executor.assertCurrent("sending a seek")
        guard let event = SeekEvents.seek(plan) else { return false }
        SeekEvents.setSeqnum(event, seqnum)
        // Before the seek: whatever the pipeline posts about the seek comes after this.
        playbin.postSeekSentMarker(seqnum)
        return send(event)
    }

    /// Sends repeat mode's loop, a seek that does not flush, up from the video output's input, or
    /// the audio sink's, holding no element's state lock (`me_send_seek_upstream`, which says why).
    /// False when no element took it. Without workaround "upstream-loop-seek"
    /// (``GStreamerWorkaround/upstreamLoopSeek``) it goes into the pipeline as any event.
    func sendLoop(_ plan: SeekPlan, seqnum: UInt32) -> Bool {
        executor.assertCurrent("sending a loop")
        guard let event = SeekEvents.seek(plan) else { return false }
        SeekEvents.setSeqnum(event, seqnum)
        guard GStreamerWorkaround.upstreamLoopSeek.isActive else { return send(event) }
        let open = lifecycle.withLock { !$0 }
        guard open else {
            SeekEvents.release(event)
            return false
        }
        sourceSetup.openFragmentGates(in: playbin)
        return me_send_seek_upstream(
            videoOutput.bin.pointer, audioSink.pointer, event.raw.assumingMemoryBound(to: GstEvent.self)) != 0
    }

    /// Changes the rate without moving the playhead or flushing
    /// (`GST_SEEK_FLAG_INSTANT_RATE_CHANGE`), numbered `seqnum`; false when no element took it.
    @discardableResult
    func changeRate(instantlyTo rate: Double, seqnum: UInt32) -> Bool {
        executor.assertCurrent("sending an instant rate change")
        guard let event = SeekEvents.instantRate(rate) else { return false }
        SeekEvents.setSeqnum(event, seqnum)
        return send(event)
    }

    /// Whether the movie's source is cut short, and how much of it is present
    /// (``MediaSource/truncation()``, read from the file the first time it is asked, on the
    /// player's thread).
    var truncation: MovieTruncation? {
        truncationReport.withLock { $0.value() }
    }

    /// Sends an event into the pipeline (`gst_element_send_event`, which takes ownership);
    /// false when no element took it or the pipeline is closed.
    @discardableResult
    func send(_ event: OpaqueEvent) -> Bool {
        executor.assertCurrent("sending an event")
        let open = lifecycle.withLock { !$0 }
        guard open else {
            SeekEvents.release(event)
            return false
        }
        // A seek that does not flush stops an adaptive demuxer's downloads before anything else.
        sourceSetup.openFragmentGates(in: playbin)
        return playbin.send(event.raw.assumingMemoryBound(to: GstEvent.self))
    }

    /// Posts INSTANT_RATE_REQUEST for the change `seqnum` from `sink`, as a sink does, on the
    /// player's thread: the pipeline computes the switch time and sends instant-rate-sync-time to
    /// its sinks from this thread (gstpipeline.c), never from a streaming thread while this one
    /// changes the pipeline's state (the deadlock `instantrate.c` describes).
    func requestInstantRate(from sink: PlayerMachine.SinkKind, multiplier: Double, seqnum: UInt32) {
        executor.assertCurrent("applying an instant rate change")
        guard lifecycle.withLock({ !$0 }) else { return }
        let element = sink == .video ? videoOutput.bin : audioSink
        me_post_instant_rate_request(element.pointer, multiplier, seqnum)
    }

    /// Whether every sink has a TIME segment (an instant rate change can be applied to them all).
    var sinksHaveTimeSegments: Bool {
        me_sinks_have_time_segments(playbin.pointer) != 0
    }

    /// The name of a demuxer that gave up without exposing a stream (see `me_find_stalled_demuxer`).
    var stalledDemuxer: String? {
        guard GStreamerWorkaround.stalledDemuxer.isActive else { return nil }
        return takeGString(me_find_stalled_demuxer(playbin.pointer))
    }

    /// Playback has started once: buffering after a stall ends at the resume threshold.
    func useResumeThreshold() {
        buffering.useResumeThreshold()
    }

    /// How far ahead of `position` the movie can play from what has arrived: the end of the
    /// downloaded range (download mode, as a share of the duration), else the progressive
    /// download queue's level. Nil when the pipeline cannot tell (adaptive streams).
    func bufferedAhead(of position: Duration, duration: Duration?) -> Duration? {
        if buffering.policy.downloadsToCacheFile, let duration, duration > .zero {
            let percentMax = 1_000_000.0  // GST_FORMAT_PERCENT_MAX
            let at = gint64(min(1, position.inSeconds / duration.inSeconds) * percentMax)
            let until = me_buffering_downloaded_until(playbin.pointer, at)
            if until >= 0 {
                let end = duration.inSeconds * Double(until) / percentMax
                return .seconds(max(0, end - position.inSeconds))
            }
        }
        return buffering.queuedAhead
    }

    // MARK: A playback group's clock

    /// How late a grouped member's frame may reach its video sink and still be shown (as
    /// GStreamer's video sinks have it): later ones are dropped, so a member behind its group
    /// catches up instead of showing every frame late.
    static let groupMaxLateness: Duration = .milliseconds(20)

    /// Runs the pipeline on a playback group's clock: `gst_pipeline_use_clock`, the start time
    /// left to the player (the base time stays as it sets it through pauses and flushing seeks),
    /// the group's `latency`, and video sinks that drop late frames (`me_drop_late_frames`).
    func joinGroup(clock: PlaybackClock, latency: Duration) {
        executor.assertCurrent("putting a pipeline on a group's clock")
        lifecycle.withLock { closed in
            guard !closed else { return }
            playbin.runOnGroupClock(clock, latency: latency)
            me_drop_late_frames(videoOutput.bin.pointer, gint64(Self.groupMaxLateness.wholeNanoseconds))
        }
    }

    /// The pipeline goes back to choosing its clock and base time itself.
    func leaveGroup() {
        executor.assertCurrent("taking a pipeline off a group's clock")
        lifecycle.withLock { closed in
            guard !closed else { return }
            playbin.leaveGroupClock()
        }
    }

    /// Sets the base time the pipeline plays from (a time of the group's clock), before it plays.
    func setBaseTime(_ time: Duration) {
        executor.assertCurrent("setting a base time")
        lifecycle.withLock { closed in
            guard !closed else { return }
            playbin.setBaseTime(time)
        }
    }

    /// The pipeline's base time, if it has one.
    var baseTime: Duration? { playbin.baseTime }

    /// How far a progressive download has read its file, in bytes of the whole: the source
    /// element's own position and size (an HTTP source's Content-Length). Nil for an adaptive
    /// stream (its source reads the manifest), when the size is unknown (a live stream), and
    /// for a download to a cache file, whose downloaded ranges (``bufferedAhead(of:duration:)``)
    /// say more.
    var downloadProgress: PlayableDuration.Download? {
        guard !buffering.policy.downloadsToCacheFile, !sourceSetup.isAdaptive,
            let bytes = playbin.element("source")?.queryBytes()
        else { return nil }
        return PlayableDuration.Download(received: bytes.position, total: bytes.total)
    }

    /// Recomputes the pipeline's latency after an element asked for it.
    func recalculateLatency() {
        executor.assertCurrent("recalculating latency")
        playbin.recalculateLatency()
    }
}

/// The Swift end of `me_relay_instant_rate`: a closure, kept alive by the probe that calls it.
private final class InstantRateRelay: Sendable {
    let deliver: @Sendable (Double, UInt32) -> Void

    private init(_ deliver: @escaping @Sendable (Double, UInt32) -> Void) {
        self.deliver = deliver
    }

    /// Takes instant rate changes out on `pad` and hands each to `deliver`, on the thread that
    /// pushed it (a streaming thread, or the player's): `deliver` must only enqueue.
    static func install(on pad: Pad, _ deliver: @escaping @Sendable (Double, UInt32) -> Void) {
        me_relay_instant_rate(
            pad.pointer,
            { data, multiplier, seqnum in
                guard let data else { return }
                Unmanaged<InstantRateRelay>.fromOpaque(data).takeUnretainedValue().deliver(multiplier, seqnum)
            },
            Unmanaged.passRetained(InstantRateRelay(deliver)).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<InstantRateRelay>.fromOpaque(data).release()
            })
    }
}

/// The Swift end of playbin's about-to-finish: a closure, kept alive by the signal's handler.
private final class AboutToFinishRelay: Sendable {
    let handle: @Sendable () -> Void

    private init(_ handle: @escaping @Sendable () -> Void) {
        self.handle = handle
    }

    /// Calls `handle` on the streaming thread that emits about-to-finish; it must not block.
    static func install(on playbin: Element, _ handle: @escaping @Sendable () -> Void) {
        me_connect_about_to_finish(
            playbin.pointer,
            { _, data in
                guard let data else { return }
                Unmanaged<AboutToFinishRelay>.fromOpaque(data).takeUnretainedValue().handle()
            },
            Unmanaged.passRetained(AboutToFinishRelay(handle)).toOpaque(),
            { data, _ in
                guard let data else { return }
                Unmanaged<AboutToFinishRelay>.fromOpaque(data).release()
            })
    }
}

/// A movie's truncation, asked of its source once.
private struct TruncationReport {
    let source: any MediaSource
    private var loaded: MovieTruncation??

    init(source: any MediaSource) {
        self.source = source
    }

    mutating func value() -> MovieTruncation? {
        if let loaded { return loaded }
        let found = source.truncation()
        loaded = .some(found)
        return found
    }
}
