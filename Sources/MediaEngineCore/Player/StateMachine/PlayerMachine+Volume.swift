/// The sound's volume and mute: kept for every pipeline, applied to the one playing at once
/// (in a short ramp, without a click), announced, and told to a pre-roll ad (its mute beacons).
extension PlayerMachine.State {
    /// The gain the pipeline applies: the volume, or nothing when muted.
    var gain: Double { settings.isMuted ? 0 : settings.volume }

    /// `volume = value`: clamped to 0...1 (a NaN is ignored).
    mutating func setVolume(_ value: Double) {
        guard !value.isNaN else { return }
        let clamped = min(1, max(0, value))
        guard clamped != settings.volume else { return }
        settings.volume = clamped
        publish(.volumeChanged(clamped))
        if hasSession { perform(.applyGain(session: sessionID, gain)) }
    }

    /// `isMuted = value`.
    mutating func setMuted(_ value: Bool) {
        guard value != settings.isMuted else { return }
        settings.isMuted = value
        publish(.mutedChanged(value))
        if hasSession { perform(.applyGain(session: sessionID, gain)) }
        report(.mutedChanged(value))
    }
}
