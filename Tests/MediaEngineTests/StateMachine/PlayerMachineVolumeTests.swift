import Testing

@testable import MediaEngineCore

/// Volume and mute in the state machine: kept, clamped, announced, applied to the pipeline as a
/// gain, and told to a pre-roll ad.
@Suite("Player machine: volume")
struct PlayerMachineVolumeTests {
    @Test("volume is clamped to 0...1 and announced once per change; NaN is ignored; mute sets the gain to 0")
    func volumeAndMute() {
        var h = MachineHarness()
        h.feed { $0.setVolume(0.5) }
        h.feed { $0.setVolume(0.5) }
        h.feed { $0.setVolume(7) }
        h.feed { $0.setVolume(-1) }
        h.feed { $0.setVolume(.nan) }
        let changes = h.take()
        #expect(changes.events == [.volumeChanged(0.5), .volumeChanged(1), .volumeChanged(0)])
        #expect(changes.actions.isEmpty, "no pipeline yet: nothing to apply")
        h.feed { $0.setVolume(0.25) }
        h.prepared()
        h.feed { $0.setMuted(true) }
        h.feed { $0.setMuted(true) }
        #expect(h.machine.gain == 0)
        let muted = h.take()
        #expect(muted.events == [.mutedChanged(true)])
        #expect(muted.actions == [.applyGain(session: 1, 0)])
        h.feed { $0.setVolume(0.75) }
        #expect(h.take().actions == [.applyGain(session: 1, 0)], "muted: the new volume waits for the unmute")
        h.feed { $0.setMuted(false) }
        #expect(h.take().actions == [.applyGain(session: 1, 0.75)])
    }

    @Test("a new pipeline starts at the player's gain")
    func buildCarriesGain() {
        var h = MachineHarness()
        h.feed { $0.setVolume(0.4) }
        _ = h.take()
        _ = h.feed { $0.prepare() }
        #expect(h.take().actions == [.build(1, gain: 0.4)])
    }

    @Test("muting during a pre-roll is told to the pre-roll's observer (the ad's mute beacons)")
    func mutedDuringPreroll() {
        var h = MachineHarness()
        _ = h.feed {
            $0.beginPreroll(
                [MachineHarness.NamedSource(uri: "file:///ad.mp4")], playsContentAfter: true, timeout: .seconds(5))
        }
        _ = h.take()
        h.feed { $0.setMuted(true) }
        #expect(h.take() == ([.mutedChanged(true)], [.reportPreroll(item: 0, .mutedChanged(true))]))
    }
}
