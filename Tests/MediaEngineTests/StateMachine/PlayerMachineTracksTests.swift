import Testing

@testable import MediaEngineCore

/// Audio track switches without GStreamer: at once while playing; while paused, announced at once
/// but switched just before the pipeline plays (playbin 1.22 deadlocks a flushing seek after a
/// switch in PAUSED).
@Suite("PlayerMachine: tracks")
struct PlayerMachineTracksTests {
    static let english = MediaTrack(kind: .audio, index: 0, languageCode: "en", codec: nil, title: nil, isDefault: true)
    static let french = MediaTrack(kind: .audio, index: 1, languageCode: "fr", codec: nil, title: nil, isDefault: false)
    static let facts: PlayerMachine.PipelineFacts = {
        var facts = MachineHarness.facts
        facts.audioTracks = [english, french]
        return facts
    }()

    @Test("while playing, the switch goes to the pipeline at once")
    func playing() {
        var h = MachineHarness()
        h.playing(facts: Self.facts)
        #expect(h.feed { $0.selectAudioTrack(1) }.isSuccess)
        #expect(h.takeAll() == ([.audioTrackChanged(Self.french)], [.selectAudioTrack(session: 1, 1)]))
    }

    @Test("while paused, announced at once, switched just before play; a seek meanwhile goes alone")
    func paused() {
        var h = MachineHarness()
        h.prepared(facts: Self.facts)
        #expect(h.machine.currentAudioTrack == 0, "the default track")
        #expect(h.feed { $0.selectAudioTrack(1) }.isSuccess)
        #expect(h.takeAll() == ([.audioTrackChanged(Self.french)], []))
        #expect(h.machine.currentAudioTrack == 1)
        h.seek(to: .seconds(2), exact: true)
        #expect(h.take().actions == [.seek(1, 101, to: .seconds(2))])
        h.preroll()
        _ = h.take()
        _ = h.feed { $0.play() }
        #expect(h.take().actions == [.selectAudioTrack(session: 1, 1), .play(session: 1)])
        _ = h.feed { $0.play() }
        #expect(!h.take().actions.contains(.selectAudioTrack(session: 1, 1)), "switched once")
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
