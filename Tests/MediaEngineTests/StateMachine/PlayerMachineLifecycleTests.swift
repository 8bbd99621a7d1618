import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The player's decisions about preparing, stopping, failing, replacing and releasing, fed by
/// hand: no GStreamer, no threads, no clocks.
@Suite("Player state machine: lifecycle")
struct PlayerMachineLifecycleTests {
    @Test("prepare builds one pipeline; its preroll publishes the movie's facts in order and completes")
    func prepare() {
        var h = MachineHarness()
        let waiter = MachineHarness.waiter(h.feed { $0.prepare() })
        #expect(h.take().actions == ["build 1"])
        #expect(h.machine.phase == .preparing)
        // A second prepare joins the first.
        let second = MachineHarness.waiter(h.feed { $0.prepare() })
        #expect(h.take().actions.isEmpty)
        #expect(h.feed { $0.pipelineBuilt(session: 1) })
        #expect(h.take().actions == ["scheduleTimeout 1 epoch 0"])
        h.preroll()
        let (events, actions) = h.take()
        #expect(
            events == [
                .durationAvailable(.seconds(10)), .mediaTypesAvailable([.video, .audio]),
                .loadStateChanged([.playable, .playthroughOK]), .preparedToPlayChanged(true),
            ])
        #expect(actions == ["resume \(waiter)", "resume \(second)"])
        #expect(h.machine.phase == .prepared)
        #expect(h.machine.playbackState == .stopped)
        #expect(h.feed { $0.prepare() } == .success)
    }

    @Test("with shouldAutoplay the prepared movie starts playing; playing is reported when the pipeline is")
    func autoplay() {
        var h = MachineHarness(autoplay: true)
        _ = h.feed { $0.prepare() }
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.preroll()
        #expect(h.take().actions.suffix(1) == ["play 1"])
        #expect(h.machine.playbackState == .stopped)
        h.feed { $0.pipelineReached(session: 1, playing: true) }
        #expect(h.take().events == [.playbackStateChanged(.playing)])
    }

    @Test("the playback range, repeat mode or a rate other than 1 need a seek before preparation ends")
    func preparationSeek() {
        var h = MachineHarness()
        h.feed { $0.setPlaybackRange(initial: .seconds(2), end: .seconds(4), position: nil) }
        _ = h.feed { $0.prepare() }
        #expect(h.take().actions == ["build 1 holding"])
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.feed { $0.firstFrameHeld(session: 1) }
        #expect(
            h.take().actions == [
                "scheduleTimeout 1 epoch 0", "seek 1 #101 to 2.000 s rate 1.0 exact from 2.000 s until 4.000 s",
            ])
        // The preroll of the seek lands it, and only then is the movie prepared.
        h.preroll()
        #expect(!h.machine.isPreparedToPlay)
        h.feed {
            $0.firstFrameArrived(
                session: 1, seqnum: 101, streamTime: .seconds(2), displaySize: VideoSize(width: 320, height: 240),
                facts: MachineHarness.facts)
        }
        #expect(h.machine.isPreparedToPlay)
        #expect(h.machine.lastPosition == .seconds(2))
    }

    @Test("stop during preparation fails the waiting commands and finishes with userExited")
    func stopDuringPreparation() {
        var h = MachineHarness()
        let waiter = MachineHarness.waiter(h.feed { $0.prepare() })
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        _ = h.take()
        h.feed { $0.stop() }
        let (events, actions) = h.take()
        #expect(events == [.playbackDidFinish(.userExited, nil)])
        #expect(actions == ["close 1", "resume \(waiter) cancelled"])
        // Whatever the old pipeline still says is ignored.
        h.preroll()
        #expect(h.take().events.isEmpty)
        #expect(!h.machine.isPreparedToPlay)
    }

    @Test("a pipeline built after a stop is not installed (its builder closes it)")
    func builtAfterStop() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { $0.stop() }
        #expect(!h.feed { $0.pipelineBuilt(session: 1) })
        #expect(h.machine.currentSession == nil)
    }

    @Test("stop while playing: stopped at once, at the start, the pipeline closed, userExited last")
    func stopWhilePlaying() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.stop() }
        let (events, actions) = h.take()
        #expect(
            events == [
                .playbackStateChanged(.stopped), .readyForDisplayChanged(false), .preparedToPlayChanged(false),
                .loadStateChanged(.unknown), .playbackDidFinish(.userExited, nil),
            ])
        #expect(actions == ["close 1"])
        #expect(h.machine.lastPosition == .zero)
        #expect(h.machine.phase == .idle)
    }

    @Test("an error in each phase ends the session with the error; an idle player ignores it")
    func errorsInEveryPhase() {
        let failure = PipelineFailure(domain: .stream, code: 1, message: "boom", debug: nil, elementName: "demux")
        for phase in ["preparing", "prepared", "playing", "ended"] {
            var h = MachineHarness()
            let waiter = MachineHarness.waiter(h.feed { $0.prepare() })
            h.feed { _ = $0.pipelineBuilt(session: 1) }
            if phase != "preparing" { h.preroll() }
            if phase == "playing" || phase == "ended" {
                _ = h.feed { $0.play() }
                h.feed { $0.pipelineReached(session: 1, playing: true) }
            }
            if phase == "ended" { h.feed { $0.endOfStream(session: 1, position: .seconds(10)) } }
            _ = h.take()
            h.feed { $0.pipelineError(session: 1, failure, position: nil) }
            let (events, actions) = h.take()
            #expect(events.last?.finish?.0 == .playbackError, "\(phase)")
            #expect(actions.first == "close 1", "\(phase)")
            if phase == "preparing" { #expect(actions.contains("resume \(waiter) streamFailure")) }
            #expect(h.machine.lastError?.element == "demux", "\(phase)")
            #expect(h.machine.phase == .idle)
            h.feed { $0.pipelineError(session: 1, failure, position: nil) }
            #expect(h.take().events.isEmpty, "a second error of the same session changes nothing")
        }
    }

    @Test("the preparation timeout fails only the preparation it was set for")
    func timeout() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.preroll()
        // The movie is replaced: the first preparation's timeout must not fail the second's.
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        h.feed { $0.preparationTimedOut(session: 1, epoch: 0, after: .seconds(30)) }
        #expect(h.machine.phase == .preparing)
        h.feed { $0.preparationTimedOut(session: 1, epoch: 1, after: .seconds(30)) }
        #expect(h.machine.phase == .idle)
        #expect(h.machine.lastError?.code == .timedOut)
    }

    @Test("a new source reuses the pipeline: the old movie finishes, the new one's messages count after its marker")
    func replaceSource() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        let (events, actions) = h.take()
        #expect(
            events == [
                .playbackStateChanged(.stopped), .readyForDisplayChanged(false), .preparedToPlayChanged(false),
                .loadStateChanged(.unknown), .playbackDidFinish(.userExited, nil), .nowPlayingMovieChanged,
            ])
        #expect(actions == ["reload 1 epoch 1", "scheduleTimeout 1 epoch 1"])
        #expect(h.machine.target == .playing)
        // The old movie's preroll, before the marker, is ignored; the new one's completes.
        h.preroll()
        #expect(h.machine.phase == .preparing)
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.preroll()
        #expect(h.machine.phase == .prepared)
        #expect(h.take().actions.last == "play 1")
    }

    @Test("a new source while the first pipeline is being built builds the new one's instead")
    func replaceWhileBuilding() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        #expect(h.take().actions == ["build 1", "build 2"])
        #expect(!h.feed { $0.pipelineBuilt(session: 1) })
        #expect(h.feed { $0.pipelineBuilt(session: 2) })
        #expect(h.machine.source.uri == "file:///b.mp4")
    }

    @Test("with another sink chosen, a new source gets a new pipeline")
    func replaceAfterSinkChange() {
        var h = MachineHarness()
        h.playing()
        _ = h.feed { $0.chooseVideoSink(NullVideoSink(synchronized: false)) }
        // Chosen while prepared: the running pipeline swaps its output, so it is still reusable.
        #expect(!h.machine.videoSinkChanged)
        h.feed { $0.stop() }
        _ = h.feed { $0.chooseVideoSink(NullVideoSink()) }
        _ = h.feed { $0.prepare() }
        h.feed { _ = $0.pipelineBuilt(session: 2) }
        h.feed { $0.asyncDone(session: 2, facts: MachineHarness.facts) }
        h.feed { $0.videoSink = NullVideoSink(synchronized: false) }
        _ = h.take()
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        #expect(h.take().actions == ["close 2", "build 3"])
    }

    @Test("release ends everything without a finish event; waiting commands fail")
    func release() {
        var h = MachineHarness()
        h.playing()
        let waiter = MachineHarness.waiter(h.feed { $0.seek(to: .seconds(3), exact: true) })
        _ = h.take()
        h.feed { $0.release() }
        let (events, actions) = h.take()
        #expect(!events.contains { $0.finish != nil })
        #expect(actions == ["close 1", "resume \(waiter) cancelled"])
    }

    @Test("a demuxer that stalls during preparation fails it as a corrupt container")
    func stalledDemuxer() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.feed { $0.streamTypeFound(session: 1, caps: "video/quicktime") }
        #expect(h.take().actions.last == "watchForStalledDemuxer 1")
        h.feed { $0.stalledDemuxerFound(session: 1, demuxer: "qtdemux0") }
        #expect(h.machine.lastError?.code == .corruptContainer)
        #expect(h.machine.lastError?.element == "qtdemux0")
    }

    @Test("a stream that is not a movie ends preparation with notAMovie")
    func notAMovie() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.feed { $0.streamTypeFound(session: 1, caps: "text/plain") }
        #expect(h.machine.lastError?.code == .notAMovie)
        #expect(h.take().actions.contains("close 1"))
    }
}

/// The app's `movieSourceType` hint (MPMoviePlayerController's settable `movieSourceType`).
@Suite("Player machine: source type hint")
struct PlayerMachineSourceTypeHintTests {
    @Test("a hint is the type every movie reports from its preparation on; a manifest's detection does not override it")
    func hint() {
        var h = MachineHarness(source: MachineHarness.NamedSource(uri: "http://example.test/a", sourceType: .unknown))
        h.machine.sourceTypeHint = .file
        _ = h.feed { $0.prepare() }
        #expect(h.take().events.contains(.sourceTypeAvailable(.file)))
        h.feed { _ = $0.pipelineBuilt(session: 1) }
        h.feed { $0.streamTypeFound(session: 1, caps: "application/x-hls") }
        #expect(h.machine.sourceType == .file)

        var detected = MachineHarness(
            source: MachineHarness.NamedSource(uri: "http://example.test/a", sourceType: .unknown))
        _ = detected.feed { $0.prepare() }
        detected.feed { _ = $0.pipelineBuilt(session: 1) }
        detected.feed { $0.streamTypeFound(session: 1, caps: "application/x-hls") }
        #expect(detected.machine.sourceType == .streaming)
    }
}
