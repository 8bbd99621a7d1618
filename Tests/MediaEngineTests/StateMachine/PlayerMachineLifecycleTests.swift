import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The player's decisions about preparing, stopping, failing, replacing and releasing, fed by
/// hand: no GStreamer, no threads, no clocks.
@Suite("Player state machine: lifecycle")
struct PlayerMachineLifecycleTests {
    static let other = MachineHarness.NamedSource(uri: "file:///b.mp4")

    @Test("prepare builds one pipeline; its preroll publishes the movie's facts in order and completes")
    func prepare() {
        var h = MachineHarness()
        let waiter = MachineHarness.waiter(h.feed { $0.prepare() })
        #expect(h.takeAll().actions == [.build(1)])
        #expect(h.machine.phase == .preparing)
        // A second prepare joins the first.
        let second = MachineHarness.waiter(h.feed { $0.prepare() })
        #expect(h.takeAll().actions.isEmpty)
        let built = h.built()
        #expect(built)
        #expect(h.takeAll().actions == [.armPreparation(1, epoch: 0), .armFragmentGates(1, epoch: 0)])
        h.preroll()
        let (events, actions) = h.takeAll()
        #expect(
            events == [
                .durationAvailable(.seconds(10)), .mediaTypesAvailable([.video, .audio]),
                .loadStateChanged([.playable, .playthroughOK]), .preparedToPlayChanged(true),
            ])
        // Prepared and paused: the demuxer may read ahead now.
        #expect(
            actions == [
                .resume(waiter: waiter, .success), .resume(waiter: second, .success), .openFragmentGates(session: 1),
            ]
        )
        #expect(h.machine.phase == .prepared)
        #expect(h.machine.playbackState == .stopped)
        #expect(h.feed { $0.prepare() } == .success)
    }

    @Test("with shouldAutoplay the prepared movie starts playing; playing is reported when the pipeline is")
    func autoplay() {
        var h = MachineHarness(autoplay: true)
        let waiter = h.preparing()
        _ = h.takeAll()
        h.preroll()
        // About to play: the fragment gates wait for PLAYING.
        #expect(h.takeAll().actions == [.resume(waiter: waiter, .success), .play(session: 1)])
        #expect(h.machine.playbackState == .stopped)
        h.reached(playing: true)
        #expect(h.takeAll() == ([.playbackStateChanged(.playing)], [.openFragmentGates(session: 1)]))
    }

    @Test("the playback range, repeat mode or a rate other than 1 need a seek before preparation ends")
    func preparationSeek() {
        var h = MachineHarness()
        h.feed { $0.setPlaybackRange(initial: .seconds(2), end: .seconds(4), position: nil) }
        _ = h.feed { $0.prepare() }
        #expect(h.takeAll().actions == [.build(1, holding: true)])
        h.built()
        h.feed { $0.firstFrameHeld(session: 1) }
        #expect(
            h.takeAll().actions == [
                .armPreparation(1, epoch: 0), .armFragmentGates(1, epoch: 0), .openFragmentGates(session: 1),
                .seek(1, 101, to: .seconds(2), from: .seconds(2), until: .seconds(4)), .armSeekDeadline(1, 101),
            ])
        // The preroll of the seek lands it with its frame, and only then is the movie prepared.
        h.preroll()
        #expect(!h.machine.isPreparedToPlay)
        h.firstFrame(seqnum: 101, at: .seconds(2))
        #expect(h.machine.isPreparedToPlay)
        #expect(h.machine.lastPosition == .seconds(2))
    }

    @Test("stop during preparation fails the waiting commands and finishes with userExited")
    func stopDuringPreparation() {
        var h = MachineHarness()
        let waiter = h.preparing()
        _ = h.takeAll()
        h.feed { $0.stop() }
        #expect(
            h.takeAll() == (
                [.playbackDidFinish(.userExited, nil)],
                [.close(session: 1), .resume(waiter: waiter, .failed(.cancelled))]
            ))
        // Whatever the old pipeline still says is ignored.
        h.preroll()
        #expect(h.takeAll() == ([], []))
        #expect(!h.machine.isPreparedToPlay)
    }

    @Test("a pipeline built after a stop is not installed (its builder closes it)")
    func builtAfterStop() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { $0.stop() }
        let built = h.built(1)
        #expect(!built)
        #expect(h.machine.currentSession == nil)
    }

    @Test("stop while playing: stopped at once, at the start, the pipeline closed, userExited last")
    func stopWhilePlaying() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.stop() }
        let (events, actions) = h.takeAll()
        #expect(
            events == [
                .playbackStateChanged(.stopped), .readyForDisplayChanged(false), .preparedToPlayChanged(false),
                .loadStateChanged(.unknown), .playbackDidFinish(.userExited, nil),
            ])
        #expect(actions == [.close(session: 1)])
        #expect(h.machine.lastPosition == .zero)
        #expect(h.machine.phase == .idle)
    }

    @Test("an error in each phase is interpreted by the source, then ends the session; an idle player ignores it")
    func errorsInEveryPhase() {
        let failure = PipelineFailure(domain: .stream, code: 1, message: "boom", debug: nil, elementName: "demux")
        for phase in ["preparing", "prepared", "playing", "ended"] {
            var h = MachineHarness()
            let waiter = h.preparing()
            if phase != "preparing" { h.preroll() }
            if phase == "playing" || phase == "ended" {
                _ = h.feed { $0.play() }
                h.reached(playing: true)
            }
            if phase == "ended" { h.feed { $0.endOfStream(session: 1, position: .seconds(10)) } }
            _ = h.take()
            h.feed { $0.pipelineError(session: 1, failure, position: nil) }
            let asked = h.take().actions
            #expect(asked.count == 1 && asked.first?.isInterpret == true, "\(phase): \(asked)")
            h.interpreted()
            let (events, actions) = h.take()
            #expect(events.last?.finish?.0 == .playbackError, "\(phase)")
            #expect(actions.first == .close(session: 1), "\(phase)")
            if phase == "preparing" { #expect(actions.contains(.resume(waiter: waiter, .failed(.streamFailure)))) }
            #expect(h.machine.lastError?.element == "demux", "\(phase)")
            #expect(h.machine.phase == .idle)
            h.feed { $0.pipelineError(session: 1, failure, position: nil) }
            #expect(h.takeAll() == ([], []), "a second error of the same session changes nothing")
        }
    }

    @Test("the preparation timeout fails only the preparation it was set for")
    func timeout() {
        var h = MachineHarness()
        h.preparing()
        h.preroll()
        // The movie is replaced: the first preparation's timeout (still armed) must not fail the second's.
        h.feed { $0.replaceSource(with: Self.other) }
        #expect(h.isArmed(.preparation(session: 1, epoch: 0)) && h.isArmed(.preparation(session: 1, epoch: 1)))
        h.fire(.preparation(session: 1, epoch: 0))
        #expect(h.machine.phase == .preparing)
        h.fire(.preparation(session: 1, epoch: 1))
        #expect(h.machine.phase == .idle)
        #expect(h.machine.lastError?.code == .timedOut)
    }

    @Test(
        "a new source reuses the pipeline: the old movie pauses, with no finish, the new one's messages count after its marker"
    )
    func replaceSource() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.replaceSource(with: Self.other) }
        let (events, actions) = h.takeAll()
        // MPMoviePlayerController: "the movie pauses and the new movie begins loading".
        #expect(
            events == [
                .playbackStateChanged(.paused), .readyForDisplayChanged(false), .preparedToPlayChanged(false),
                .loadStateChanged(.unknown), .nowPlayingMovieChanged,
            ])
        #expect(
            actions == [.reload(1, Self.other, epoch: 1), .armFragmentGates(1, epoch: 1), .armPreparation(1, epoch: 1)])
        #expect(h.machine.target == .playing)
        // The old movie's preroll, before the marker, is ignored; the new one's completes.
        h.preroll()
        #expect(h.machine.phase == .preparing)
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        h.preroll()
        #expect(h.machine.phase == .prepared)
        #expect(h.take().actions.last == .play(session: 1))
    }

    @Test("a new source while the first pipeline is being built builds the new one's instead")
    func replaceWhileBuilding() {
        var h = MachineHarness()
        _ = h.feed { $0.prepare() }
        h.feed { $0.replaceSource(with: Self.other) }
        #expect(h.takeAll().actions == [.build(1), .build(2, Self.other)])
        let (first, second) = (h.built(1), h.built(2))
        #expect(!first && second)
        #expect(h.machine.source.uri == Self.other.uri)
    }

    @Test(
        "a sink chosen while prepared swaps the output; one chosen while preparing gets the next movie a new pipeline")
    func replaceAfterSinkChange() {
        var h = MachineHarness.whilePlaying()
        _ = h.feed { $0.chooseVideoSink(NullVideoSink(synchronized: false)) }
        // Chosen while prepared: the running pipeline swaps its output, so it is still reusable.
        #expect(!h.machine.videoSinkChanged)
        h.feed { $0.stop() }
        let waiter = MachineHarness.waiter(h.feed { $0.prepare() })
        h.built(2)
        // Chosen while the pipeline prepares: nothing swaps, and the pipeline keeps the old sink.
        #expect(h.feed { $0.chooseVideoSink(NullVideoSink()) } == .success(nil))
        #expect(h.machine.videoSinkChanged)
        _ = h.take()
        h.feed { $0.replaceSource(with: Self.other) }
        #expect(
            h.take().actions == [
                .close(session: 2), .resume(waiter: waiter, .failed(.cancelled)), .build(3, Self.other),
            ])
    }

    @Test("release ends everything without a finish event; waiting commands fail")
    func release() {
        var h = MachineHarness.whilePlaying()
        let waiter = h.seek(to: .seconds(3), exact: true)
        _ = h.take()
        h.feed { $0.release() }
        let (events, actions) = h.takeAll()
        #expect(!events.contains { $0.finish != nil })
        #expect(actions == [.close(session: 1), .resume(waiter: waiter, .failed(.cancelled))])
    }

    @Test("a demuxer that stalls during preparation fails it as a corrupt container")
    func stalledDemuxer() {
        var h = MachineHarness()
        h.preparing()
        _ = h.takeAll()
        h.feed { $0.streamTypeFound(session: 1, caps: "video/quicktime") }
        #expect(
            h.takeAll().actions
                == PlayerMachine.stalledDemuxerLooks.enumerated().map {
                    .startTimer(.stalledDemuxer(session: 1, epoch: 0, look: $0), after: $1)
                })
        h.fire(.stalledDemuxer(session: 1, epoch: 0, look: 0), stalledDemuxer: "qtdemux0")
        h.fire(.stalledDemuxer(session: 1, epoch: 0, look: 1), stalledDemuxer: "qtdemux0")
        h.interpreted()
        #expect(h.machine.lastError?.code == .corruptContainer)
        #expect(h.machine.lastError?.element == "qtdemux0")
    }

    @Test("a stream that is not a movie is interpreted by the source, then ends preparation with notAMovie")
    func notAMovie() {
        var h = MachineHarness()
        h.preparing()
        _ = h.take()
        h.feed { $0.streamTypeFound(session: 1, caps: "text/plain") }
        #expect(
            h.takeAll().actions == [
                .interpret(
                    session: 1, epoch: 0, source: .named("file:///a.mp4"), error: .coded(.notAMovie), position: nil)
            ])
        h.interpreted()
        #expect(h.machine.lastError?.code == .notAMovie)
        #expect(h.take().actions.contains(.close(session: 1)))
    }
}

/// The app's `movieSourceType` hint (MPMoviePlayerController's settable `movieSourceType`).
@Suite("Player machine: source type hint")
struct PlayerMachineSourceTypeHintTests {
    static let network = MachineHarness.NamedSource(uri: "http://example.test/a", sourceType: .unknown)

    @Test("a hint is the type every movie reports from its preparation on; a manifest's detection does not override it")
    func hint() {
        var h = MachineHarness(source: Self.network)
        h.feed { $0.setSourceTypeHint(.file) }
        _ = h.feed { $0.prepare() }
        #expect(h.take().events.contains(.sourceTypeAvailable(.file)))
        h.built()
        h.feed { $0.streamTypeFound(session: 1, caps: "application/x-hls") }
        #expect(h.machine.sourceType == .file)

        var detected = MachineHarness(source: Self.network)
        detected.preparing()
        detected.feed { $0.streamTypeFound(session: 1, caps: "application/x-hls") }
        #expect(detected.machine.sourceType == .streaming)
    }
}

extension PlayerMachine.Action {
    var isInterpret: Bool { if case .interpret = self { true } else { false } }
}
