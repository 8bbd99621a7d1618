import Testing

@testable import MediaEngineCore

/// Pre-rolls in the state machine: an ad plays first in the player's pipeline, nothing about it
/// is the content's, and the content follows in the same pipeline (playing or paused). The owner
/// feeds the pre-roll's pipeline messages to the same inputs as the content's; the machine routes
/// them to the pre-roll while one plays.
@Suite("Player machine: pre-roll")
struct PlayerMachinePrerollTests {
    typealias Action = PlayerMachine.Action
    static let ad = MachineHarness.NamedSource(uri: "http://ads.test/ad.mp4", sourceType: .file)
    static let second = MachineHarness.NamedSource(uri: "http://ads.test/second.mp4", sourceType: .file)
    static let adFacts = PlayerMachine.PipelineFacts(duration: .seconds(2))
    static let ticks = Action.startTimer(
        .prerollTick(session: 1), after: .milliseconds(100), repeating: .milliseconds(100))

    /// Starts a pre-roll of `items` on `h` and returns its waiter.
    static func begin(
        _ h: inout MachineHarness, _ items: [any MediaSource] = [ad], playsContentAfter: Bool = true,
        timeout: Duration = .seconds(10)
    ) -> Int {
        MachineHarness.waiter(
            h.feed { $0.beginPreroll(items, playsContentAfter: playsContentAfter, timeout: timeout) })
    }

    /// The pre-roll's pipeline (session 1, built from idle) prerolls and shows its first frame.
    static func adStarts(_ h: inout MachineHarness) {
        h.built(1)
        h.asyncDone()
        h.firstFrame(facts: adFacts)
    }

    /// An ad playing (begun from idle, started) and its pre-roll's waiter, the output forgotten.
    static func adPlaying(playsContentAfter: Bool = true) -> (MachineHarness, Int) {
        var h = MachineHarness()
        let waiter = begin(&h, playsContentAfter: playsContentAfter)
        adStarts(&h)
        _ = h.takeAll()
        return (h, waiter)
    }

    /// An ad's item `item` ended as `end`.
    static func ended(_ item: Int, _ end: PrerollEnd, at position: Duration?) -> Action {
        .reportPreroll(item: item, .ended(end, at: position))
    }

    /// The error the pre-roll failed with, if it did.
    static func failure(of h: MachineHarness) -> MediaError? {
        guard case .failed(let error) = h.machine.lastPrerollEnd else { return nil }
        return error
    }

    @Test("from idle: the ad is built, played and reported; at its end the content loads in its pipeline and plays")
    func completes() {
        var h = MachineHarness()
        let waiter = Self.begin(&h)
        #expect(
            h.takeAll().actions == [
                .build(1, Self.ad, nextQueued: true),
                .startTimer(.prerollTimeout(session: 1, epoch: 0, item: 0), after: .seconds(10)),
            ])
        Self.adStarts(&h)
        let started = h.takeAll()
        #expect(started.events.isEmpty, "the ad's preroll, frame and size are not the content's")
        #expect(
            started.actions == [
                .armPreparation(1, epoch: 0), .armFragmentGates(1, epoch: 0), .openFragmentGates(session: 1),
                .play(session: 1), .reportPreroll(item: 0, .started(duration: .seconds(2))), Self.ticks,
            ])
        h.fire(.prerollTick(session: 1), position: .seconds(1))
        h.feed { $0.durationChanged(session: 1, duration: .seconds(2)) }
        h.feed { $0.tagsArrived(session: 1, ["title": "An ad"]) }
        #expect(h.machine.metadata.isEmpty && h.machine.duration == nil)
        #expect(h.takeAll() == ([], [.reportPreroll(item: 0, .position(.seconds(1)))]))
        // The ad's end is the pre-roll's.
        h.feed { $0.endOfStream(session: 1, position: .seconds(2)) }
        #expect(
            h.takeAll().actions == [
                Self.ended(0, .completed, at: .seconds(2)), .cancelTimer(.prerollTick(session: 1)),
                .resume(waiter: waiter, .success), .setNextQueued(session: 1, false),
                .reload(1, MachineHarness.movie, epoch: 1), .armFragmentGates(1, epoch: 1),
                .armPreparation(1, epoch: 1),
            ])
        #expect(h.machine.lastPrerollEnd == .completed && h.machine.preroll == nil)
        // The content's own preparation, in the same pipeline: it plays.
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.asyncDone()
        let content = h.take()
        #expect(content.events.contains(.preparedToPlayChanged(true)))
        #expect(content.events.contains(.durationAvailable(.seconds(10))))
        #expect(content.actions.contains(.play(session: 1)))
    }

    @Test("play() during the ad stops it at once and plays the content; the ad reports contentStarted")
    func playDuringAd() {
        var (h, adWaiter) = Self.adPlaying()
        let playWaiter = MachineHarness.waiter(h.feed { $0.play() })
        let actions = h.take().actions
        #expect(actions.contains(.resume(waiter: adWaiter, .success)))
        #expect(actions.contains(.reload(1, MachineHarness.movie, epoch: 1)))
        #expect(actions.first == Self.ended(0, .contentStarted, at: nil))
        #expect(!actions.contains(.resume(waiter: playWaiter, .success)))
        #expect(h.machine.lastPrerollEnd == .contentStarted && h.machine.target == .playing)
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.asyncDone()
        h.reached(playing: true)
        let after = h.take()
        #expect(after.events.contains(.playbackStateChanged(.playing)))
        #expect(after.actions.contains(.resume(waiter: playWaiter, .success)))
    }

    @Test("refused while the content plays, is about to (autoplay), or another ad plays")
    func refused() {
        let refusal = PlayerMachine.Wait.done(.failure(.coded(.unsupportedOperation)))
        var playing = MachineHarness.whilePlaying()
        #expect(playing.feed { $0.beginPreroll([Self.ad], playsContentAfter: true, timeout: .seconds(1)) } == refusal)
        #expect(playing.takeAll() == ([], []))

        var autoplay = MachineHarness(autoplay: true)
        _ = autoplay.feed { $0.prepare() }
        #expect(autoplay.feed { $0.beginPreroll([Self.ad], playsContentAfter: true, timeout: .seconds(1)) } == refusal)

        var twice = MachineHarness()
        _ = Self.begin(&twice)
        #expect(twice.feed { $0.beginPreroll([Self.ad], playsContentAfter: true, timeout: .seconds(1)) } == refusal)
        #expect(twice.feed { $0.beginPreroll([], playsContentAfter: true, timeout: .seconds(1)) } == refusal)
    }

    @Test("a prepared, paused content is unloaded for the ad and loaded again after it, in the same pipeline")
    func afterPreparedContent() {
        var h = MachineHarness()
        h.prepared()
        _ = Self.begin(&h)
        let begun = h.takeAll()
        #expect(begun.events.contains(.preparedToPlayChanged(false)))
        #expect(
            begun.actions == [
                .reload(1, Self.ad, epoch: 1), .armFragmentGates(1, epoch: 1), .setNextQueued(session: 1, true),
                .startTimer(.prerollTimeout(session: 1, epoch: 1, item: 0), after: .seconds(10)),
            ])
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.asyncDone()
        h.firstFrame(facts: Self.adFacts)
        h.feed { $0.endOfStream(session: 1, position: .seconds(2)) }
        #expect(
            h.take().actions.suffix(2) == [
                .setNextQueued(session: 1, false), .reload(1, MachineHarness.movie, epoch: 2),
            ]
        )
    }

    @Test("a seek still waiting when the ad unloads the content is cancelled: nothing else would complete it")
    func seekWaitingForTheContent() {
        var h = MachineHarness()
        h.prepared()
        let seek = h.seek(to: .seconds(3), exact: true)
        _ = h.takeAll()
        _ = Self.begin(&h)
        #expect(h.take().actions.first == .resume(waiter: seek, .failed(.cancelled)))
        #expect(!h.machine.waiterKinds.contains(.seeksSettled))
    }

    @Test("an ad that fails reports it; the content loads paused (it plays when the app says), no finish event")
    func fails() {
        var h = MachineHarness()
        let waiter = Self.begin(&h)
        h.built()
        _ = h.take()
        let missing = PipelineFailure(
            domain: .resource, code: 0, message: "Not Found", elementName: "source", factoryName: "souphttpsrc",
            httpStatusCode: 404)
        h.feed { $0.pipelineError(session: 1, missing, position: nil) }
        let failed = h.take()
        #expect(!failed.events.contains { if case .playbackDidFinish = $0 { true } else { false } })
        #expect(failed.actions.contains(.resume(waiter: waiter, .success)))
        #expect(failed.actions.contains(.reload(1, MachineHarness.movie, epoch: 1)))
        #expect(!failed.actions.contains { $0.isInterpret }, "an ad's failure is not interpreted: it ends the ad")
        #expect(Self.failure(of: h)?.httpStatusCode == 404)
        #expect(h.machine.target == .paused)
    }

    @Test("the ad's other failures end it too: a refused state change, a stream that is not a movie")
    func otherFailures() {
        var (refused, _) = Self.adPlaying()
        refused.feed { $0.stateChangeFailed(session: 1, position: nil) }
        #expect(Self.failure(of: refused)?.code == .pipelineFailure)
        #expect(refused.machine.lastError == nil, "the content has not failed")

        var notAMovie = MachineHarness()
        _ = Self.begin(&notAMovie)
        notAMovie.built()
        notAMovie.feed { $0.streamTypeFound(session: 1, caps: "text/html") }
        #expect(Self.failure(of: notAMovie)?.code == .notAMovie)
        #expect(!notAMovie.takeAll().actions.contains { $0.isInterpret })
    }

    @Test("stop() during the ad ends it (stopped) and the pipeline, with no content finish event")
    func stopped() {
        var (h, waiter) = Self.adPlaying()
        h.feed { $0.stop() }
        let stopped = h.take()
        #expect(stopped.actions.contains(.resume(waiter: waiter, .success)))
        #expect(stopped.actions.contains(.close(session: 1)))
        #expect(!stopped.actions.contains { if case .reload = $0 { true } else { false } })
        #expect(!stopped.events.contains { if case .playbackDidFinish = $0 { true } else { false } })
        #expect(h.machine.lastPrerollEnd == .stopped && h.machine.phase == .idle)
    }

    @Test("the media timeout ends an ad whose first frame did not come, and only such an ad")
    func timeout() {
        var h = MachineHarness()
        _ = Self.begin(&h)
        h.built()
        h.fire(.preparation(session: 1, epoch: 0))
        #expect(h.machine.preroll != nil, "the content's preparation timeout does not apply to the ad")
        h.fire(.prerollTimeout(session: 1, epoch: 0, item: 0))
        #expect(h.machine.lastPrerollEnd == .timedOut)

        var (started, _) = Self.adPlaying()
        started.fire(.prerollTimeout(session: 1, epoch: 0, item: 0))
        #expect(started.machine.preroll != nil)
    }

    @Test("pause() pauses the ad and resumePreroll() resumes it; skip ends it as skipped and the content plays")
    func pauseResumeSkip() {
        var (h, _) = Self.adPlaying()
        #expect(h.feed { $0.pause(position: nil) } == .success)
        #expect(h.take().actions == [.pause(session: 1), .reportPreroll(item: 0, .paused)])
        h.feed { $0.resumePreroll() }
        #expect(h.take().actions == [.play(session: 1), .reportPreroll(item: 0, .resumed)])
        let skipped = h.feed { $0.skipPreroll(position: .seconds(1)) }
        #expect(skipped)
        #expect(h.machine.lastPrerollEnd == .skipped && h.machine.target == .playing)
        let again = h.feed { $0.skipPreroll(position: nil) }
        #expect(!again)
    }

    @Test("an ad that does not play on: its content waits, paused, when the request says so")
    func contentWaits() {
        var h = MachineHarness()
        _ = Self.begin(&h, playsContentAfter: false)
        Self.adStarts(&h)
        h.feed { $0.endOfStream(session: 1, position: .seconds(2)) }
        #expect(h.machine.target == .paused && h.machine.phase == .preparing)
    }

    @Test("the output swap of a sink during the ad completes")
    func swapDuringAd() {
        var (h, _) = Self.adPlaying()
        let waiter = MachineHarness.waiter(h.feed { $0.awaitOutputSwap(session: 1) })
        _ = h.take()
        h.feed { $0.outputSwapped(session: 1) }
        #expect(h.take().actions.contains(.resume(waiter: waiter, .success)))
    }

    @Test("the ad's network buffer: below 100 % it pauses, at 100 % it plays on")
    func buffering() {
        var (h, _) = Self.adPlaying()
        h.feed { $0.buffering(session: 1, percent: 20, stats: BufferingStats()) }
        h.feed { $0.buffering(session: 1, percent: 40, stats: BufferingStats()) }
        #expect(h.take() == ([], [.pause(session: 1)]))
        h.feed { $0.buffering(session: 1, percent: 100, stats: BufferingStats()) }
        #expect(h.take() == ([], [.play(session: 1)]))
    }

    @Test(
        "gapless: the content queued behind the ad takes over at its stream start, prepared and playing, with no reload"
    )
    func gaplessHandover() {
        var h = MachineHarness()
        let waiter = Self.begin(&h)
        #expect(h.take().actions.first == .build(1, Self.ad, nextQueued: true))
        #expect(h.machine.pipeline?.upNext.pending.map(\.source.uri) == [MachineHarness.movie.uri])
        Self.adStarts(&h)
        // playbin reads the ad's last bytes: the content is handed over, nothing follows it.
        let next = h.feed { $0.aboutToFinish(session: 1, gateOpen: true) }
        #expect(next?.uri == MachineHarness.movie.uri)
        h.streamStarted(group: 7)
        h.fire(.prerollTick(session: 1), position: .milliseconds(1900))
        // The content's first frame can reach the output before its stream start is on the bus.
        h.firstFrame(size: VideoSize(width: 640, height: 360), facts: PlayerMachine.PipelineFacts())
        h.streamStarted(group: 7)
        #expect(h.machine.preroll != nil, "the ad's own group again is not a hand-over")
        _ = h.takeAll()
        h.streamStarted(group: 8)
        let over = h.takeAll()
        #expect(h.machine.lastPrerollEnd == .completed && h.machine.preroll == nil && h.machine.phase == .prepared)
        #expect(
            over.actions == [
                Self.ended(0, .completed, at: .milliseconds(1900)), .cancelTimer(.prerollTick(session: 1)),
                .resume(waiter: waiter, .success), .play(session: 1),
            ])
        #expect(over.events.contains(.naturalSizeAvailable(VideoSize(width: 640, height: 360))))
        #expect(over.events.contains(.durationAvailable(.seconds(10))))
        #expect(over.events.contains(.preparedToPlayChanged(true)))
        h.reached(playing: true)
        #expect(h.take().events == [.playbackStateChanged(.playing)])
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        #expect(h.take().events.contains(.playbackDidFinish(.playbackEnded, nil)))
    }

    /// An ad whose content (the harness's movie, or a queue's first item) took over without a gap.
    static func handedOverToContent(_ h: inout MachineHarness) {
        _ = begin(&h)
        adStarts(&h)
        _ = h.feed { $0.aboutToFinish(session: 1, gateOpen: true) }
        h.streamStarted(group: 1)
        h.streamStarted(group: 2)
        #expect(h.machine.preroll == nil && h.machine.phase == .prepared)
    }

    @Test("after a gapless hand-over the content is no longer on its way: its next period is still the same movie")
    func contentsNextPeriod() {
        var h = MachineHarness()
        Self.handedOverToContent(&h)
        #expect(h.machine.startingItem == nil, "the content has started")
        h.reached(playing: true)
        _ = h.takeAll()
        // An adaptive stream's next period: a new group, no movie handed.
        h.streamStarted(group: 3)
        #expect(h.takeAll() == ([], []))
        #expect(h.machine.phase == .prepared && h.machine.playbackState == .playing)
    }

    @Test("a queue's first movie after a gapless pre-roll: the rest of the queue follows it, and it is not withdrawn")
    func queueAfterPreroll() {
        var h = MachineHarness()
        h.feed { _ = $0.setQueue(PlayerMachineQueueTests.sources("a", "b"), startingAt: 0) }
        Self.handedOverToContent(&h)
        let actions = h.take().actions
        #expect(!actions.contains { if case .withdrawHandOvers = $0 { true } else { false } }, "\(actions)")
        #expect(actions.contains(.setNextQueued(session: 1, true)))
        #expect(h.machine.pipeline?.upNext.pending.map(\.source.uri) == ["file:///b.mp4"])
    }

    @Test("a content that starts with a seek (initial playback time) is loaded on its own after the ad")
    func noHandoverWithRange() {
        var h = MachineHarness()
        h.feed { $0.setPlaybackRange(initial: .seconds(1), end: nil, position: nil) }
        _ = Self.begin(&h)
        #expect(h.take().actions.first == .build(1, Self.ad, nextQueued: false))
        #expect(h.machine.pipeline?.upNext.pending.isEmpty == true)
    }

    @Test("an ad pod: each ad follows the one before without a gap, a skipped one is followed by a load of the next")
    func pod() {
        var h = MachineHarness()
        let waiter = Self.begin(&h, [Self.ad, Self.second], timeout: .seconds(5))
        #expect(
            h.machine.pipeline?.upNext.pending.map(\.source.uri) == [Self.second.uri, MachineHarness.movie.uri],
            "the second ad is queued behind the first, the content behind it")
        Self.adStarts(&h)
        h.streamStarted(group: 1)
        #expect(h.feed { $0.aboutToFinish(session: 1, gateOpen: true) }?.uri == Self.second.uri)
        _ = h.takeAll()
        h.streamStarted(group: 2)
        #expect(
            h.takeAll().actions == [
                Self.ended(0, .completed, at: nil), .setNextQueued(session: 1, true),
                .startTimer(.prerollTimeout(session: 1, epoch: 0, item: 1), after: .seconds(5)),
            ])
        h.firstFrame(facts: Self.adFacts)
        #expect(h.takeAll().actions == [.reportPreroll(item: 1, .started(duration: .seconds(2))), Self.ticks])
        #expect(h.machine.preroll?.index == 1)
        h.streamStarted(group: 3)
        #expect(h.take().actions.contains(.resume(waiter: waiter, .success)))
        #expect(h.machine.lastPrerollEnd == .completed && h.machine.phase == .prepared)

        var skipping = MachineHarness()
        _ = Self.begin(&skipping, [Self.ad, Self.second], timeout: .seconds(5))
        Self.adStarts(&skipping)
        _ = skipping.takeAll()
        let skipped = skipping.feed { $0.skipPreroll(position: .seconds(1)) }
        #expect(skipped)
        #expect(
            skipping.takeAll().actions == [
                Self.ended(0, .skipped, at: .seconds(1)), .cancelTimer(.prerollTick(session: 1)),
                .setNextQueued(session: 1, false), .reload(1, Self.second, epoch: 1), .armFragmentGates(1, epoch: 1),
                .setNextQueued(session: 1, true),
                .startTimer(.prerollTimeout(session: 1, epoch: 1, item: 1), after: .seconds(5)),
            ])
        #expect(skipping.machine.preroll?.index == 1 && skipping.machine.lastPrerollEnd == nil)
    }
}
