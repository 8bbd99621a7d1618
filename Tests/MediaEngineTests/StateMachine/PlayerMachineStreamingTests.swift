import Testing

@testable import MediaEngineCore

/// What streamed content (HLS, DASH) changes in the machine's decisions.
@Suite("Player machine: streamed content")
struct PlayerMachineStreamingTests {
    @Test("a stream starts at the segment boundary before initialPlaybackTime and ignores endPlaybackTime")
    func playbackRangeOfAStream() {
        var h = MachineHarness(source: MachineHarness.NamedSource(uri: "http://host/a.m3u8", sourceType: .streaming))
        h.feed { $0.setPlaybackRange(initial: .seconds(3), end: .seconds(4), position: nil) }
        h.preparing()
        h.feed { $0.streamTypeFound(session: 1, caps: "application/x-hls") }
        h.feed { $0.firstFrameHeld(session: 1) }
        // A keyframe seek (snapping before: the demuxer takes it to the segment's start), with no
        // end; a stream's source knows no keyframes.
        #expect(h.take().actions.last?.isKeyframeRead == true)
        h.keyframesRead(nil)
        #expect(h.take().actions == [.seek(1, 101, to: .seconds(3), .keyFrame, from: .seconds(3))])
        #expect(h.machine.endPlaybackTime == .seconds(4))
        #expect(h.machine.playbackEnd == nil)
    }

    @Test("endPlaybackTime alone needs no seek on a stream; on a file it does")
    func endAloneOnAStream() {
        let source = MachineHarness.NamedSource(uri: "http://host/a.m3u8", sourceType: .streaming)
        var stream = MachineHarness(source: source)
        stream.feed { $0.setPlaybackRange(initial: nil, end: .seconds(4), position: nil) }
        _ = stream.feed { $0.prepare() }
        #expect(stream.take().actions == [.build(1, source, holding: false)])
        #expect(!stream.machine.needsPreparationSeek)
        var file = MachineHarness()
        file.feed { $0.setPlaybackRange(initial: nil, end: .seconds(4), position: nil) }
        _ = file.feed { $0.prepare() }
        #expect(file.take().actions == [.build(1, holding: true)])
    }

    @Test("a variant switch is announced; a segment's download is not")
    func variantSwitch() {
        var h = MachineHarness.whilePlaying(
            MachineHarness.NamedSource(uri: "http://host/a.m3u8", sourceType: .streaming))
        let change = VariantSwitch(uri: "http://host/high.m3u8", indicatedBitrate: 1_800_000)
        h.feed { $0.adaptiveStreamingReported(session: 1, .variantSwitched(change)) }
        h.feed {
            $0.adaptiveStreamingReported(
                session: 1, .segmentDownloaded(uri: "http://host/high001.ts", bytes: 1000, downloadTime: nil))
        }
        #expect(h.take().events == [.variantSwitched(change)])
        // A previous pipeline's report is not this movie's.
        h.feed { $0.adaptiveStreamingReported(session: 0, .variantSwitched(change)) }
        #expect(h.take().events.isEmpty)
    }

    @Test("with the manifest read, a segment of another variant is a switch (DASH); unknown segments are not")
    func switchFromSegments() {
        var h = MachineHarness(
            source: MachineHarness.NamedSource(uri: "http://user:pw@host/a.mpd", sourceType: .streaming))
        h.playing()
        let variants = SegmentVariants { uri in
            uri.contains("/low")
                ? SegmentVariant(id: "low", bandwidth: 250_000)
                : uri.contains("/high") ? SegmentVariant(id: "high", bandwidth: 1_800_000) : nil
        }
        func downloaded(_ uri: String) {
            h.feed {
                $0.adaptiveStreamingReported(
                    session: 1, .segmentDownloaded(uri: uri, bytes: 1000, downloadTime: nil))
            }
        }
        h.feed { $0.manifestRead(session: 1, variants: variants) }
        downloaded("http://host/low000.ts")  // the first variant: where the stream starts, no switch
        downloaded("http://host/low001.ts")
        downloaded("http://host/init.mp4")  // no variant's: changes nothing
        #expect(h.take().events.isEmpty)
        downloaded("http://host/high002.ts")
        // The manifest's URI without its user information, and the representation's id.
        #expect(
            h.take().events == [
                .variantSwitched(VariantSwitch(uri: "http://host/a.mpd#high", indicatedBitrate: 1_800_000))
            ])
        downloaded("http://host/high003.ts")
        #expect(h.take().events.isEmpty)
        // Another preparation forgets the manifest.
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "http://host/b.mpd", sourceType: .streaming)) }
        h.feed { $0.epochMarkerArrived(session: 1, epoch: 1) }
        _ = h.take()
        downloaded("http://host/low004.ts")
        #expect(h.take().events.isEmpty)
    }
}

extension PlayerMachine.Action {
    var isKeyframeRead: Bool { if case .readKeyframeTimes = self { true } else { false } }
}

/// The fragment gates: an adaptive stream's demuxer is held to its first fragment until the
/// movie is under way (so that downloads do not slow its start), then let read ahead.
@Suite("Player machine: fragment gates")
struct PlayerMachineFragmentGateTests {
    static let open = PlayerMachine.Action.openFragmentGates(session: 1)

    @Test("the gates' timer (750 ms from the build, and from each load) opens the current movie's gates only")
    func timer() {
        var h = MachineHarness()
        h.preparing()
        #expect(h.timers[.fragmentGates(session: 1, epoch: 0)]?.after == .milliseconds(750))
        h.fire(.fragmentGates(session: 1, epoch: 0))
        #expect(h.takeAll().actions.last == Self.open)
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        #expect(h.isArmed(.fragmentGates(session: 1, epoch: 1)))
        _ = h.takeAll()
        h.feed { $0.timerFired(.fragmentGates(session: 1, epoch: 0)) }
        #expect(h.takeAll() == ([], []), "the previous movie's timer")
        h.fire(.fragmentGates(session: 1, epoch: 1))
        #expect(h.takeAll() == ([], [Self.open]))
    }

    @Test(
        "opened when the movie is under way: prerolled and not about to play, PLAYING, the first frame held for a seek")
    func whenUnderWay() {
        // Prepared, paused: the demuxer may read ahead at once.
        var paused = MachineHarness()
        paused.preparing()
        _ = paused.takeAll()
        paused.asyncDone()
        #expect(paused.takeAll().actions.contains(Self.open))
        // About to play: not before PLAYING, so that downloads do not slow the move there.
        var playing = MachineHarness(autoplay: true)
        playing.preparing()
        _ = playing.takeAll()
        playing.asyncDone()
        #expect(!playing.takeAll().actions.contains(Self.open))
        playing.reached(playing: true)
        #expect(playing.takeAll().actions.first == Self.open)
        // A movie held on its first frame until its preparation's seek.
        var held = MachineHarness()
        held.feed { $0.setPlaybackRange(initial: .seconds(1), end: nil, position: nil) }
        held.preparing()
        _ = held.takeAll()
        held.feed { $0.firstFrameHeld(session: 1) }
        #expect(held.takeAll().actions.first == Self.open)
        // Another pipeline's PLAYING opens nothing.
        held.feed { $0.pipelineReached(session: 2, playing: true) }
        #expect(held.takeAll() == ([], []))
    }
}
