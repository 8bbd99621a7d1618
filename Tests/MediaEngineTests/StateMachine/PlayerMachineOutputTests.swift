import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The player's decisions about its video output, presentation and the rarer transitions:
/// swaps, repeat turned off mid-loop, pause during a scan, a new source after the end.
@Suite("Player state machine: outputs and edges")
struct PlayerMachineOutputTests {
    @Test("a sink chosen while prepared swaps the running output and waits for the swap")
    func swap() {
        var h = MachineHarness.whilePlaying()
        let swap = try? h.feed { $0.chooseVideoSink(NullVideoSink(synchronized: false)) }.get()
        #expect(swap == PlayerMachine.OutputSwap(session: 1, presentation: VideoPresentation(), paused: false))
        let waiter = MachineHarness.waiter(h.feed { $0.awaitOutputSwap(session: 1) })
        h.feed { $0.outputSwapped(session: 1) }
        #expect(h.takeAll() == ([.videoSinkChanged], [.resume(waiter: waiter, .success)]))
        // A swap of a pipeline that is gone is not waited for.
        h.feed { $0.stop() }
        #expect(h.feed { $0.awaitOutputSwap(session: 1) } == .stopped)
    }

    @Test("an external sink is refused while external playback is not allowed")
    func external() {
        struct ExternalSink: VideoSink {
            func makeOutput() throws(MediaError) -> VideoOutput { try NullVideoSink().makeOutput() }
            static var capabilities: VideoSinkCapabilities { .external }
        }
        var h = MachineHarness()
        h.feed { $0.setAllowsExternalPlayback(false) }
        #expect(throws: MediaError.self) { try h.feed { $0.chooseVideoSink(ExternalSink()) }.get() }
        h.feed { $0.setAllowsExternalPlayback(true) }
        _ = h.feed { $0.chooseVideoSink(ExternalSink()) }
        #expect(h.takeAll() == ([.externalPlaybackActiveChanged(true)], []))
    }

    @Test("presentation changes apply to the running pipeline and announce a new scaling mode")
    func presentation() {
        var filled = VideoPresentation()
        filled.scalingMode = .fill
        var h = MachineHarness()
        h.feed { $0.updatePresentation { $0.scalingMode = .fill } }
        #expect(h.takeAll() == ([.scalingModeChanged(.fill)], []))
        h.prepared()
        h.feed { $0.updatePresentation { $0.scalingMode = .fill } }
        #expect(h.takeAll() == ([], [.applyPresentation(session: 1, filled)]))
    }

    @Test("repeat turned off during a looping pass: the pass ends at the end of the movie, with EOS")
    func repeatOffMidLoop() {
        var h = MachineHarness.whilePlaying()
        // Repeat on: the segment restarts as a looping one; its seek lands.
        h.feed { $0.setRepeatMode(.one, position: .seconds(1)) }
        h.landSeek(at: .seconds(1))
        #expect(h.machine.looping)
        _ = h.take()
        // Turned off where the position is not known: nothing restarts the segment, which loops
        // on to its SEGMENT_DONE.
        h.feed { $0.setRepeatMode(.none, position: nil) }
        #expect(h.takeAll() == ([], []))
        h.feed { $0.segmentDone(session: 1) }
        // A keyframe seek to the end: the movie's keyframes are asked for first.
        #expect(
            h.take().actions == [.readKeyframeTimes(session: 1, epoch: 0, source: .named("file:///a.mp4"))])
        h.keyframesRead(nil)
        #expect(h.take().actions == [.seek(1, 102, to: .seconds(10), .keyFrame)])
        #expect(!h.machine.looping)
    }

    @Test("pause during a scan ends the scan first, back at the paused state")
    func pauseDuringScan() {
        var h = MachineHarness.whilePlaying()
        _ = h.feed { $0.beginScan(forward: false, position: .seconds(5)) }
        _ = h.take()
        #expect(h.machine.playbackState == .seekingBackward)
        // play() during a scan changes nothing.
        #expect(h.feed { $0.play() } == .success)
        _ = h.feed { $0.pause(position: .seconds(4)) }
        let (events, actions) = h.takeAll()
        #expect(events.first == .playbackStateChanged(.playing))
        #expect(actions == [.cancelTimer(.scanStep), .play(session: 1), .pause(session: 1)])
        #expect(h.machine.scan == nil)
        #expect(h.machine.target == .paused)
    }

    @Test("a scan that runs into the end of the movie pauses there, at the old rate")
    func scanIntoEnd() {
        var h = MachineHarness.whilePlaying()
        _ = h.feed { $0.beginScan(forward: true, position: .seconds(9)) }
        h.preroll()
        _ = h.take()
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        #expect(
            h.takeAll() == (
                [.playbackStateChanged(.paused)],
                [
                    .cancelTimer(.scanStep), .seek(1, 102, to: .seconds(10)), .armSeekDeadline(1, 102),
                    .pause(session: 1),
                ]
            ))
    }

    @Test("a new source after the end announces no second finish")
    func replaceAfterEnd() {
        var h = MachineHarness.whilePlaying()
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        _ = h.take()
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        let (events, _) = h.take()
        #expect(!events.contains { $0.finish != nil })
        #expect(events.contains(.nowPlayingMovieChanged))
    }

    @Test("a rate set while idle is stored and announced; the duration is announced once unless it really changes")
    func idleRateAndDuration() {
        var idle = MachineHarness()
        _ = idle.feed { $0.setRate(2, position: nil) }
        #expect(idle.takeAll() == ([.playbackRateChanged(2)], []))
        #expect(idle.machine.needsPreparationSeek)
        var h = MachineHarness()
        h.prepared()
        h.feed { $0.durationChanged(session: 1, duration: .milliseconds(10_010)) }
        #expect(h.take().events.isEmpty)
        h.feed { $0.durationChanged(session: 1, duration: .seconds(12)) }
        #expect(h.take().events == [.durationAvailable(.seconds(12))])
    }

    @Test("tags during preparation are announced once when it ends; later only meaningful changes")
    func metadata() {
        var h = MachineHarness()
        h.preparing()
        _ = h.take()
        h.feed { $0.tagsArrived(session: 1, ["title": "A"]) }
        h.feed { $0.tagsArrived(session: 1, ["bitrate": "100"]) }
        #expect(h.take().events.isEmpty)
        h.preroll()
        #expect(h.take().events.contains(.metadataAvailable(["title": "A", "bitrate": "100"])))
        h.feed { $0.tagsArrived(session: 1, ["bitrate": "120"]) }
        #expect(h.take().events.isEmpty)
        h.feed { $0.tagsArrived(session: 1, ["artist": "B"]) }
        #expect(h.take().events.count == 1)
    }

    @Test("a repaint of the paused frame seeks to it; once play() is on its way it does nothing")
    func repaint() {
        var h = MachineHarness()
        h.prepared()
        let wait = h.feed { $0.repaint(session: 1, at: .milliseconds(500)) }
        #expect(MachineHarness.waiter(wait) >= 0)
        #expect(h.take().actions == [.seek(1, 101, to: .milliseconds(500))], "the paused frame drawn again")
        h.preroll()
        _ = h.take()
        _ = h.feed { $0.play() }
        _ = h.take()
        // The controls asked for a repaint just before play(): the frames that follow show them.
        #expect(h.feed { $0.repaint(session: 1, at: .milliseconds(500)) } == .success)
        #expect(h.take().actions.isEmpty)
    }
}
