import Testing

@testable import MediaEngineCore

/// Audio track switches without GStreamer: at once while playing; while paused, announced at once
/// but switched just before the pipeline plays (playbin 1.22 deadlocks a flushing seek after a
/// switch in PAUSED).
@Suite("PlayerMachine: tracks")
struct PlayerMachineTracksTests {
    static let english = MediaTrack(kind: .audio, index: 0, languageCode: "en", codec: nil, title: nil, isDefault: true)
    static let french = MediaTrack(kind: .audio, index: 1, languageCode: "fr", codec: nil, title: nil, isDefault: false)

    @Test("while playing, the switch goes to the pipeline at once")
    func playing() {
        var h = MachineHarness()
        h.playing()
        h.feed { $0.setTracks(audio: [Self.english, Self.french], subtitles: []) }
        _ = h.take()
        #expect(h.feed { $0.selectAudioTrack(1) }.isSuccess)
        let (events, actions) = h.take()
        #expect(events == [.audioTrackChanged(Self.french)])
        #expect(actions == ["selectAudioTrack 1 1"])
    }

    @Test("while paused, announced at once, switched just before play; a seek meanwhile goes alone")
    func paused() {
        var h = MachineHarness()
        h.prepared()
        h.feed { $0.setTracks(audio: [Self.english, Self.french], subtitles: []) }
        _ = h.take()
        #expect(h.feed { $0.selectAudioTrack(1) }.isSuccess)
        let (events, actions) = h.take()
        #expect(events == [.audioTrackChanged(Self.french)] && actions.isEmpty)
        #expect(h.machine.currentAudioTrack == 1)
        _ = h.feed { $0.seek(to: .seconds(2), exact: true) }
        #expect(!h.take().actions.contains { $0.hasPrefix("selectAudioTrack") })
        h.preroll()
        _ = h.take()
        _ = h.feed { $0.play() }
        let played = h.take().actions
        let switchAt = played.firstIndex(of: "selectAudioTrack 1 1")
        let playAt = played.firstIndex(of: "play 1")
        #expect(switchAt != nil && playAt != nil && switchAt! < playAt!, "\(played)")
        _ = h.feed { $0.play() }
        #expect(!h.take().actions.contains { $0.hasPrefix("selectAudioTrack") }, "switched once")
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
