import Testing

@testable import MediaEngineCore

/// Pre-rolls in the state machine: an ad plays first in the player's pipeline, nothing about it
/// is the content's, and the content follows in the same pipeline (playing or paused).
@Suite("Player machine: pre-roll")
struct PlayerMachinePrerollTests {
    static let ad = MachineHarness.NamedSource(uri: "http://ads.test/ad.mp4", sourceType: .file)
    static let size = VideoSize(width: 320, height: 240)

    /// Starts a pre-roll on `h` and returns its waiter.
    static func begin(_ h: inout MachineHarness, playsContentAfter: Bool = true) -> Int {
        MachineHarness.waiter(
            h.feed { $0.beginPreroll([ad], playsContentAfter: playsContentAfter, timeout: .seconds(10)) { _, _ in } })
    }

    /// The pre-roll's pipeline (session 1, built from idle) prerolls and shows its first frame.
    static func adStarts(_ h: inout MachineHarness) {
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
        h.feed { $0.prerollPrerolled(session: 1) }
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: 1, streamTime: .zero, displaySize: size, facts: MachineHarness.facts)
        }
        h.feed { $0.prerollFirstFrame(session: 1, duration: .seconds(2), displaySize: Self.size) }
    }

    @Test("from idle: the ad is built, played and reported; at its end the content loads in its pipeline and plays")
    func completes() {
        var h = MachineHarness()
        let waiter = Self.begin(&h)
        #expect(h.take().actions == ["build 1", "schedulePrerollTimeout 1 epoch 0 item 0 after 10.000 s"])
        Self.adStarts(&h)
        let started = h.take()
        #expect(started.events.isEmpty, "the ad's preroll, frame and size are not the content's")
        #expect(
            started.actions == [
                "scheduleTimeout 1 epoch 0", "play 1", "reportPreroll 0 started(2.000 s)",
                "startPrerollTicks 1",
            ])
        h.feed { $0.prerollTick(session: 1, position: .seconds(1)) }
        h.feed { $0.durationChanged(session: 1, duration: .seconds(2)) }
        h.feed { $0.tagsArrived(session: 1, ["title": "An ad"]) }
        h.feed { $0.endOfStream(session: 1, position: .seconds(2)) }
        #expect(h.machine.metadata.isEmpty && h.machine.duration == nil)
        #expect(h.take().actions == ["reportPreroll 0 position(1.000 s)"])
        h.feed { $0.prerollReachedEnd(session: 1, position: .seconds(2)) }
        #expect(
            h.take().actions == [
                "reportPreroll 0 ended(completed at 2.000 s)", "stopPrerollTicks", "resume \(waiter)",
                "queueNext 1 none", "reload 1 epoch 1", "scheduleTimeout 1 epoch 1",
            ])
        #expect(h.machine.lastPrerollEnd == .completed && h.machine.preroll == nil)
        // The content's own preparation, in the same pipeline: it plays.
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
        let content = h.take()
        #expect(content.events.contains(.preparedToPlayChanged(true)))
        #expect(content.events.contains(.durationAvailable(.seconds(10))))
        #expect(content.actions.contains("play 1"))
    }

    @Test("play() during the ad stops it at once and plays the content; the ad reports contentStarted")
    func playDuringAd() {
        var h = MachineHarness()
        let adWaiter = Self.begin(&h)
        Self.adStarts(&h)
        _ = h.take()
        let playWaiter = MachineHarness.waiter(h.feed { $0.play() })
        let actions = h.take().actions
        #expect(actions.contains("resume \(adWaiter)") && actions.contains("reload 1 epoch 1"))
        #expect(!actions.contains("resume \(playWaiter)"))
        #expect(h.machine.lastPrerollEnd == .contentStarted && h.machine.target == .playing)
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.feed { $0.asyncDone(session: 1, facts: MachineHarness.facts) }
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        let after = h.take()
        #expect(after.events.contains(.playbackStateChanged(.playing)))
        #expect(after.actions.contains("resume \(playWaiter)"))
    }

    @Test("refused while the content plays, is about to (autoplay), or another ad plays")
    func refused() {
        var playing = MachineHarness()
        playing.playing()
        let wait = playing.feed {
            $0.beginPreroll([Self.ad], playsContentAfter: true, timeout: .seconds(1)) { _, _ in }
        }
        #expect(wait == .done(.failure(MediaError(.unsupportedOperation, ""))))
        #expect(playing.take().actions.isEmpty)

        var autoplay = MachineHarness(autoplay: true)
        _ = autoplay.feed { $0.prepare() }
        let refused = autoplay.feed {
            $0.beginPreroll([Self.ad], playsContentAfter: true, timeout: .seconds(1)) { _, _ in }
        }
        #expect(refused == .done(.failure(MediaError(.unsupportedOperation, ""))))

        var twice = MachineHarness()
        _ = Self.begin(&twice)
        let second = twice.feed {
            $0.beginPreroll([Self.ad], playsContentAfter: true, timeout: .seconds(1)) { _, _ in }
        }
        #expect(second == .done(.failure(MediaError(.unsupportedOperation, ""))))
    }

    @Test("a prepared, paused content is unloaded for the ad and loaded again after it, in the same pipeline")
    func afterPreparedContent() {
        var h = MachineHarness()
        h.prepared()
        _ = Self.begin(&h)
        let begun = h.take()
        #expect(begun.events.contains(.preparedToPlayChanged(false)))
        #expect(
            begun.actions == [
                "reload 1 epoch 1", "queueNext 1 file:///a.mp4",
                "schedulePrerollTimeout 1 epoch 1 item 0 after 10.000 s",
            ])
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.feed { $0.prerollPrerolled(session: 1) }
        h.feed { $0.prerollFirstFrame(session: 1, duration: .seconds(2), displaySize: Self.size) }
        h.feed { $0.prerollReachedEnd(session: 1, position: .seconds(2)) }
        #expect(h.take().actions.suffix(3) == ["queueNext 1 none", "reload 1 epoch 2", "scheduleTimeout 1 epoch 2"])
    }

    @Test("an ad that fails reports it; the content loads paused (it plays when the app says), no finish event")
    func fails() {
        var h = MachineHarness()
        let waiter = Self.begin(&h)
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        _ = h.take()
        let missing = PipelineFailure(
            domain: .resource, code: 0, message: "Not Found", elementName: "source", factoryName: "souphttpsrc",
            httpStatusCode: 404)
        h.feed { $0.pipelineError(session: 1, missing, position: nil) }
        #expect(h.take().actions.isEmpty, "the content's error input ignores the ad's pipeline")
        h.feed { $0.prerollError(session: 1, missing) }
        let failed = h.take()
        #expect(!failed.events.contains { if case .playbackDidFinish = $0 { true } else { false } })
        #expect(failed.actions.contains("resume \(waiter)") && failed.actions.contains("reload 1 epoch 1"))
        guard case .failed(let error) = h.machine.lastPrerollEnd else {
            Issue.record("expected a failure, got \(String(describing: h.machine.lastPrerollEnd))")
            return
        }
        #expect(error.httpStatusCode == 404)
        #expect(h.machine.target == .paused)
    }

    @Test("stop() during the ad ends it (stopped) and the pipeline, with no content finish event")
    func stopped() {
        var h = MachineHarness()
        let waiter = Self.begin(&h)
        Self.adStarts(&h)
        _ = h.take()
        h.feed { $0.stop() }
        let stopped = h.take()
        #expect(stopped.actions.contains("resume \(waiter)") && stopped.actions.contains("close 1"))
        #expect(!stopped.actions.contains { $0.hasPrefix("reload") })
        #expect(!stopped.events.contains { if case .playbackDidFinish = $0 { true } else { false } })
        #expect(h.machine.lastPrerollEnd == .stopped && h.machine.phase == .idle)
    }

    @Test("the media timeout ends an ad whose first frame did not come, and only such an ad")
    func timeout() {
        var h = MachineHarness()
        _ = Self.begin(&h)
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.feed { $0.preparationTimedOut(session: 1, epoch: 0, after: .seconds(30)) }
        #expect(h.machine.preroll != nil, "the content's preparation timeout does not apply to the ad")
        h.feed { $0.prerollTimedOut(session: 1, epoch: 0, item: 0) }
        #expect(h.machine.lastPrerollEnd == .timedOut)

        var started = MachineHarness()
        _ = Self.begin(&started)
        Self.adStarts(&started)
        started.feed { $0.prerollTimedOut(session: 1, epoch: 0, item: 0) }
        #expect(started.machine.preroll != nil)
    }

    @Test("pause() pauses the ad and resumePreroll() resumes it; skip ends it as skipped and the content plays")
    func pauseResumeSkip() {
        var h = MachineHarness()
        _ = Self.begin(&h)
        Self.adStarts(&h)
        _ = h.take()
        #expect(h.feed { $0.pause(position: nil) } == .success)
        #expect(h.take().actions == ["pause 1", "reportPreroll 0 paused"])
        h.feed { $0.resumePreroll() }
        #expect(h.take().actions == ["play 1", "reportPreroll 0 resumed"])
        #expect(h.feed { $0.skipPreroll(position: .seconds(1)) })
        #expect(h.machine.lastPrerollEnd == .skipped && h.machine.target == .playing)
        #expect(!h.feed { $0.skipPreroll(position: nil) })
    }

    @Test("an ad that does not play on: its content waits, paused, when the request says so")
    func contentWaits() {
        var h = MachineHarness()
        _ = Self.begin(&h, playsContentAfter: false)
        Self.adStarts(&h)
        h.feed { $0.prerollReachedEnd(session: 1, position: .seconds(2)) }
        #expect(h.machine.target == .paused && h.machine.phase == .preparing)
    }

    @Test("the output swap of a sink during the ad completes")
    func swapDuringAd() {
        var h = MachineHarness()
        _ = Self.begin(&h)
        Self.adStarts(&h)
        let waiter = h.feed { $0.addWaiter(.outputSwapped) }
        _ = h.take()
        h.feed { $0.outputSwapped(session: 1) }
        #expect(h.take().actions.contains("resume \(waiter)"))
    }

    @Test(
        "gapless: the content queued behind the ad takes over at its stream start, prepared and playing, with no reload"
    )
    func gaplessHandover() {
        var h = MachineHarness()
        let waiter = Self.begin(&h)
        guard case .build(let build) = h.actions.first else {
            Issue.record("expected a build, got \(h.actions)")
            return
        }
        #expect(build.next.map(\.source.uri) == ["file:///a.mp4"])
        Self.adStarts(&h)
        h.feed { $0.prerollStreamStarted(session: 1, group: 7, facts: MachineHarness.facts) }
        h.feed { $0.prerollTick(session: 1, position: .milliseconds(1900)) }
        // The content's first frame can reach the output before its stream start is on the bus.
        h.feed { $0.prerollFirstFrame(session: 1, duration: nil, displaySize: VideoSize(width: 640, height: 360)) }
        h.feed { $0.prerollStreamStarted(session: 1, group: 7, facts: MachineHarness.facts) }
        #expect(h.machine.preroll != nil, "the ad's own group again is not a hand-over")
        _ = h.take()
        h.feed { $0.prerollStreamStarted(session: 1, group: 8, facts: MachineHarness.facts) }
        let over = h.take()
        #expect(h.machine.lastPrerollEnd == .completed && h.machine.preroll == nil && h.machine.phase == .prepared)
        #expect(
            over.actions == [
                "reportPreroll 0 ended(completed at 1.900 s)", "stopPrerollTicks", "resume \(waiter)", "play 1",
            ])
        #expect(over.events.contains(.naturalSizeAvailable(VideoSize(width: 640, height: 360))))
        #expect(over.events.contains(.durationAvailable(.seconds(10))))
        #expect(over.events.contains(.preparedToPlayChanged(true)))
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        #expect(h.take().events == [.playbackStateChanged(.playing)])
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        #expect(h.take().events.contains(.playbackDidFinish(.playbackEnded, nil)))
    }

    @Test("a content that starts with a seek (initial playback time) is loaded on its own after the ad")
    func noHandoverWithRange() {
        var h = MachineHarness()
        h.machine.initialPlaybackTime = .seconds(1)
        _ = Self.begin(&h)
        guard case .build(let build) = h.actions.first else {
            Issue.record("expected a build")
            return
        }
        #expect(build.next.isEmpty)
    }

    @Test("an ad pod: each ad follows the one before without a gap, a skipped one is followed by a load of the next")
    func pod() {
        let second = MachineHarness.NamedSource(uri: "http://ads.test/second.mp4", sourceType: .file)
        var h = MachineHarness()
        let waiter = MachineHarness.waiter(
            h.feed { $0.beginPreroll([Self.ad, second], playsContentAfter: true, timeout: .seconds(5)) { _, _ in } })
        guard case .build(let build) = h.actions.first else {
            Issue.record("expected a build")
            return
        }
        #expect(
            build.next.map(\.source.uri) == [second.uri, "file:///a.mp4"],
            "the second ad is queued behind the first, the content behind it")
        Self.adStarts(&h)
        h.feed { $0.prerollStreamStarted(session: 1, group: 1, facts: MachineHarness.facts) }
        _ = h.take()
        h.feed { $0.prerollStreamStarted(session: 1, group: 2, facts: MachineHarness.facts) }
        #expect(
            h.take().actions == [
                "reportPreroll 0 ended(completed)", "queueNext 1 file:///a.mp4",
                "schedulePrerollTimeout 1 epoch 0 item 1 after 5.000 s",
            ])
        h.feed { $0.prerollFirstFrame(session: 1, duration: .seconds(2), displaySize: Self.size) }
        #expect(h.take().actions == ["reportPreroll 1 started(2.000 s)", "startPrerollTicks 1"])
        #expect(h.machine.preroll?.index == 1)
        h.feed { $0.prerollStreamStarted(session: 1, group: 3, facts: MachineHarness.facts) }
        #expect(h.take().actions.contains("resume \(waiter)"))
        #expect(h.machine.lastPrerollEnd == .completed && h.machine.phase == .prepared)

        var skipping = MachineHarness()
        _ = skipping.feed {
            $0.beginPreroll([Self.ad, second], playsContentAfter: true, timeout: .seconds(5)) { _, _ in }
        }
        Self.adStarts(&skipping)
        _ = skipping.take()
        #expect(skipping.feed { $0.skipPreroll(position: .seconds(1)) })
        #expect(
            skipping.take().actions == [
                "reportPreroll 0 ended(skipped at 1.000 s)", "stopPrerollTicks", "reload 1 epoch 1",
                "queueNext 1 file:///a.mp4", "schedulePrerollTimeout 1 epoch 1 item 1 after 5.000 s",
            ])
        #expect(skipping.machine.preroll?.index == 1 && skipping.machine.lastPrerollEnd == nil)
    }
}
