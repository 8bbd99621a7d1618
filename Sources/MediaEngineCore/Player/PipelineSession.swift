internal import CGStreamer
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
    /// The movie's video keyframes, for keyframe seeks (see ``keyframeSnapped(_:)``).
    private let keyframes: Locked<KeyframeTimes>
    /// How much of the movie its source holds, asked once per movie (see ``truncation``).
    private let truncationReport: Locked<TruncationReport>
    /// Instant rate changes on their way to the sinks (see ``relayInstantRate(_:seqnum:from:)``).
    private let instantRates = Locked(InstantRates())
    /// Repeat mode's loop, held while the pipeline is paused (``holdLoopSeek(_:)``).
    private let heldLoopSeek = Locked<LoopSeek?>(nil)
    /// The buffering elements of a network movie and their thresholds.
    private let buffering: BufferingThresholds
    /// The movies playbin goes on to, without a gap, when the current one's source has delivered
    /// everything (``queueNext(_:playing:)``); taken one by one by the about-to-finish handler.
    private let upNext = Locked(UpNext())
    /// For a window output: what the window shows for a movie without video, the background
    /// colour (`mebackdrop`, playbin's visualisation stage, used only when there is no video).
    private let backdrop: Element?
    /// Drops a stream's end at playsink while a next movie may follow (see ``GaplessGate``);
    /// told under `upNext`'s lock whether one is queued.
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
    ///   - handler: Called on the bus thread with each message.
    init(
        id: Int, executor: PlayerExecutor, source: any MediaSource, videoSink: any VideoSink, audioOutput: AudioOutput,
        overlays: VideoOverlays, presentation: VideoPresentation, buffering: BufferingPolicy, holdFirstFrame: Bool,
        gain: Double, subtitleCue: @escaping @Sendable (TextCue) -> Void = { _ in },
        closedCaptions: ClosedCaptionWatch.Handler? = nil,
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
        keyframes = Locked(KeyframeTimes(source: source))
        truncationReport = Locked(TruncationReport(source: source))
        sourceSetup.connect(to: playbin)
        me_shorten_audio_queue(playbin.pointer)
        me_watch_timed_metadata_in(playbin.pointer)
        if GStreamerWorkaround.keyframeFlags.isActive { me_mark_keyframes_in(playbin.pointer) }
        me_watch_stream_types(playbin.pointer)
        // The engine's decoders, which the registry ranks NONE so that an app's own pipelines keep theirs.
        me_prefer_engine_decoders(playbin.pointer)
        busThread = Locked(try BusThread(pipeline: playbin, handler: handler))
        gaplessGate = GaplessGate(playbin: playbin)
        AboutToFinishRelay.install(on: playbin) { [weak self] in self?.goOnToNextSource() }
        for (sink, kind) in [(videoOutput.bin, SinkKind.video), (audioSink, .audio)]
        where GStreamerWorkaround.instantRateRelay.isActive {
            guard let pad = sink.staticPad("sink") else { continue }
            InstantRateRelay.install(on: pad) { [weak self] multiplier, seqnum in
                guard let self else { return }
                executor.enqueue { [weak self] in self?.relayInstantRate(multiplier, seqnum: seqnum, from: kind) }
            }
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
        openFragmentGates(after: Self.fragmentGateLimit)
    }

    /// How long an adaptive stream's first fragment may take to preroll before its demuxer is let
    /// read ahead anyway (a first fragment too short to decode a picture from, say).
    static let fragmentGateLimit = Duration.milliseconds(750)

    private func openFragmentGates(after delay: Duration) {
        executor.enqueue(after: delay) { [weak self] in self?.openFragmentGates() }
    }

    /// Lets an adaptive stream's demuxer read past its first fragment, which it holds back while
    /// the movie prerolls (`fragmentgate.c`). On the player's thread, when preparation is done
    /// (or taking long).
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

    /// Keeps repeat mode's loop until the player sets the pipeline to PLAYING (see
    /// ``LoopSeekTiming``); a loop held before is replaced. A flushing seek drops it: it restarts
    /// the stream with a segment of its own, which loops again at its end.
    func holdLoopSeek(_ loop: LoopSeek) { heldLoopSeek.withLock { $0 = loop } }

    /// The loop held by ``holdLoopSeek(_:)``, if any, which the session no longer keeps.
    func takeHeldLoopSeek() -> LoopSeek? {
        heldLoopSeek.withLock { held in
            defer { held = nil }
            return held
        }
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
        keyframes.withLock { $0 = KeyframeTimes(source: source) }
        truncationReport.withLock { $0 = TruncationReport(source: source) }
        if holdFirstFrame { videoOutput.firstFrame.hold() }
        instantRates.withLock { $0.flushed() }
        changeUpNext { $0.clear() }
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
        openFragmentGates(after: Self.fragmentGateLimit)
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

    /// Sets the movies to play after the current one (`playing`, by its id), in order, in the same
    /// pipeline and without a gap: when a movie's source has delivered everything, playbin's
    /// about-to-finish sets the next one's URI (a pre-roll's content, a queue's next movie). Each
    /// next movie's start is a ``BusMessage/streamStarted(group:)`` of a new group; no EOS comes
    /// between. An empty list clears what is queued.
    func queueNext(_ upcoming: [UpNext.Item], playing: Int?) {
        let withdrawn = changeUpNext { $0.replace(with: upcoming, playing: playing) }
        // playbin will play (or already plays) a movie the queue no longer has next: its pictures
        // and sound are dropped from its start, or from now if it started, and the player reloads
        // or closes at its start. Hand-over n is the movie's stream group n + 1 (the first movie
        // is group 1).
        if let withdrawn { gaplessGate.withdraw(fromGroup: withdrawn + 1) }
    }

    /// The id of the oldest movie handed to playbin that the player has not yet acknowledged as
    /// playing: at a new stream group, the one that started.
    var startingItem: Int? {
        upNext.withLock { $0.handed.first }
    }

    /// Changes what is queued, and tells the gapless gate whether something is, in one step.
    private func changeUpNext<T>(_ change: (inout UpNext) -> T) -> T {
        upNext.withLock { upNext in
            let result = change(&upNext)
            gaplessGate.setNextQueued(!upNext.pending.isEmpty)
            return result
        }
    }

    /// playbin's about-to-finish, on a streaming thread: the next movie's URI and settings go
    /// in now, or playbin ends with EOS.
    private func goOnToNextSource() {
        // Not when a stream's end already went on to wait in the stream synchronizer (nothing
        // was queued when it came): the switch would deadlock. The movie ends with EOS, and the
        // player loads the next one on its own.
        guard gaplessGate.beginHandOver() else {
            changeUpNext { $0.clear() }
            gaplessGate.cancelHandOver()
            return
        }
        guard let next = changeUpNext({ $0.take() }) else {
            gaplessGate.cancelHandOver()
            return
        }
        sourceSetup.replace(with: next)
        keyframes.withLock { $0 = KeyframeTimes(source: next) }
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
        instantRates.withLock { $0.flushed() }
        // An output a swap unlinked ignores the pipeline's state (locked): shut it down too.
        videoOutput.removeReplacedOutputs()
        lifecycle.withLock { closed in
            closed = true
            sourceSetup.openFragmentGates(in: playbin, refusingNew: true)
            playbin.setState(GST_STATE_NULL)
        }
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

    /// Sends a seek numbered `seqnum` (the number the player chose when it decided the seek; the
    /// seek's segment and first frame carry it); false when no element took it.
    @discardableResult
    func seek(_ plan: SeekPlan, seqnum: UInt32) -> Bool {
        executor.assertCurrent("sending a seek")
        guard let event = SeekEvents.seek(keyframeSnapped(plan) ?? plan) else { return false }
        SeekEvents.setSeqnum(event, seqnum)
        guard plan.flush else { return sendUpstream(event) }
        heldLoopSeek.withLock { $0 = nil }
        instantRates.withLock { $0.flushed() }
        // Before the seek: whatever the pipeline posts about the seek comes after this.
        playbin.postSeekSentMarker(seqnum)
        return send(event)
    }

    /// Sends a seek that does not flush (repeat mode's loop) up from the video output's input, or
    /// the audio sink's, holding no element's state lock (`me_send_seek_upstream`, which says why).
    private func sendUpstream(_ event: OpaqueEvent) -> Bool {
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
    /// (`GST_SEEK_FLAG_INSTANT_RATE_CHANGE`); false when no element took it.
    @discardableResult
    func changeRate(instantlyTo rate: Double) -> Bool {
        executor.assertCurrent("sending an instant rate change")
        guard let event = SeekEvents.instantRate(rate) else { return false }
        let seqnum = SeekEvents.seqnum(event)
        instantRates.withLock { $0.sent(seqnum) }
        return send(event)
    }

    /// Whether the movie's source is cut short, and how much of it is present
    /// (``MediaSource/truncation()``, read from the file the first time it is asked, on the
    /// player's thread).
    var truncation: MovieTruncation? {
        truncationReport.withLock { $0.value() }
    }

    /// A keyframe seek made exact, to the video keyframe at or before its position, when the
    /// source knows its keyframes; nil otherwise (the seek goes as it is).
    ///
    /// qtdemux snaps a KEY_UNIT seek to the earliest keyframe of *all* streams before the target,
    /// and every audio frame is a keyframe: the seek landed on an audio frame's start, up to one
    /// audio frame before the video keyframe, and the video then decoded a whole GOP from the
    /// keyframe before that. An accurate seek to the keyframe's own time decodes one picture.
    /// Workaround "keyunit-seek-snap" (``GStreamerWorkaround/keyUnitSeekSnap``): qtdemux's
    /// gst_qtdemux_adjust_seek takes the earliest keyframe over every stream, in every release
    /// (seen on 1.22.0, the same in 1.29.2's source; no upstream issue found); found measuring
    /// keyframe seeks against a bare playbin (commit b5445ca). Off: the KEY_UNIT seek goes as it is.
    /// Backward seeks keep the demuxer's snapping (the keyframe to decode from is after them).
    private func keyframeSnapped(_ plan: SeekPlan) -> SeekPlan? {
        guard plan.accuracy == .keyFrame, plan.rate > 0, GStreamerWorkaround.keyUnitSeekSnap.isActive else {
            return nil
        }
        guard let times = keyframes.withLock({ $0.times() }), let first = times.first else { return nil }
        // The last keyframe at or before the position (the first one if the position is before it).
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= plan.position { low = middle + 1 } else { high = middle }
        }
        var snapped = plan
        snapped.position = low == 0 ? first : times[low - 1]
        if let end = plan.rangeEnd, snapped.position >= end { return nil }
        snapped.accuracy = .exact
        return snapped
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

    /// The sinks an instant rate change is relayed from.
    private enum SinkKind {
        case video, audio
    }

    /// Applies an instant rate change that reached a sink, on the player's thread: posts the
    /// sink's INSTANT_RATE_REQUEST, so the pipeline computes the switch time and sends
    /// instant-rate-sync-time to its sinks from this thread (gstpipeline.c), never from a
    /// streaming thread while this one changes the pipeline's state (the deadlock `instantrate.c`
    /// describes).
    ///
    /// Only the first sink's copy of the change sent last, and only if nothing flushed since: a
    /// copy pushed again after a flush (the event is sticky and outlives FLUSH_STOP) would apply
    /// the old multiplier on top of the rate the flushing seek already set, and would reach sinks
    /// that have no segment yet. Every seek and reload carries the player's rate itself.
    private func relayInstantRate(_ multiplier: Double, seqnum: UInt32, from kind: SinkKind) {
        executor.assertCurrent("applying an instant rate change")
        guard instantRates.withLock({ $0.take(seqnum) }), lifecycle.withLock({ !$0 }) else { return }
        // Every sink answers the pipeline's sync-time event; one without a segment would assert and
        // keep its old rate while the others change. Not expected between seeks (the player sends
        // instant rate changes only then); leave the rates as they were rather than split them.
        guard me_sinks_have_time_segments(playbin.pointer) != 0 else { return }
        let sink = kind == .video ? videoOutput.bin : audioSink
        me_post_instant_rate_request(sink.pointer, multiplier, seqnum)
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

    /// Recomputes the pipeline's latency after an element asked for it.
    func recalculateLatency() {
        executor.assertCurrent("recalculating latency")
        playbin.recalculateLatency()
    }
}

/// Which instant rate change the sinks may still apply: the last one sent, until a flush.
/// Only the player's thread reads and writes it.
private struct InstantRates {
    private var pending: UInt32?

    mutating func sent(_ seqnum: UInt32) {
        pending = seqnum
    }

    /// A flushing seek, a reload or the close: what was sent before no longer applies.
    mutating func flushed() {
        pending = nil
    }

    /// Whether the change `seqnum` is the pending one; it is no longer pending afterwards.
    mutating func take(_ seqnum: UInt32) -> Bool {
        guard pending == seqnum else { return false }
        pending = nil
        return true
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

/// A movie's video keyframe times, read from its source at the first keyframe seek.
private struct KeyframeTimes {
    let source: any MediaSource
    private var loaded: [Duration]??

    init(source: any MediaSource) {
        self.source = source
    }

    mutating func times() -> [Duration]? {
        if let loaded { return loaded }
        let times = source.videoKeyframeTimes()
        loaded = .some(times)
        return times
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
