/// The movie's audio and subtitle tracks: read when the movie is prepared, announced, and the
/// audio track switched while playing.
extension PlayerMachine.State {
    /// Keeps and announces the tracks the prepared movie has.
    mutating func setTracks(audio: [MediaTrack], subtitles streamSubtitles: [MediaTrack]) {
        facts.streamSubtitleTracks = streamSubtitles
        let subtitles = streamSubtitles + closedCaptionTracks
        guard audio != facts.audioTracks || subtitles != facts.subtitleTracks else { return }
        facts.audioTracks = audio
        facts.subtitleTracks = subtitles
        facts.deferredAudioTrack = nil
        facts.currentAudioTrack = audio.first { $0.isDefault }?.index ?? (audio.isEmpty ? nil : 0)
        publish(.tracksAvailable(audio + subtitles))
    }

    /// `selectAudioTrack(_:)`: announced at once; playbin switches at once while playing (the
    /// video goes on), and just before it plays otherwise. Switching playbin's audio selector in
    /// PAUSED deadlocks the next flushing seek in GStreamer 1.22: the old track's thread waits in
    /// playsink's full audio queue holding the selector's output, the new track's thread waits
    /// for it, and the seek's flush pauses the old track's task before it reaches the new track
    /// to unblock the queue. Nothing is heard while paused, so waiting for play changes nothing
    /// a person notices. Workaround "paused-audio-switch" (``PlayerMachine/Workarounds``): seen on
    /// 1.22.0, no upstream issue found, found by the track tests' seek after a paused switch
    /// (the test process deadlocked); off, the switch happens at once.
    mutating func selectAudioTrack(_ index: Int) -> Result<Void, MediaError> {
        guard phase == .prepared, hasSession, preroll == nil else {
            return .failure(MediaError(.notPrepared, "choosing an audio track needs a prepared movie"))
        }
        guard let track = facts.audioTracks.first(where: { $0.index == index }) else {
            return .failure(
                MediaError(
                    .invalidArgument, "the movie has no audio track \(index) (it has \(facts.audioTracks.count))"))
        }
        guard facts.currentAudioTrack != index else { return .success(()) }
        facts.currentAudioTrack = index
        if target == .playing || !workarounds.defersPausedAudioSwitch {
            facts.deferredAudioTrack = nil
            perform(.selectAudioTrack(session: sessionID, index))
        } else {
            facts.deferredAudioTrack = index
        }
        publish(.audioTrackChanged(track))
        return .success(())
    }

    /// The video carries closed captions in `channels` (``ClosedCaptions``): each becomes a
    /// subtitle track after the container's, announced at once if the movie is prepared, with
    /// the other tracks when preparation ends otherwise (the first frame, which brings them,
    /// often comes first).
    mutating func closedCaptionsFound(session: Int, channels: [ClosedCaptionChannel]) {
        guard session == sessionID, hasSession, preroll == nil else { return }
        let new = channels.filter { !facts.closedCaptionChannels.contains($0) }
        guard !new.isEmpty else { return }
        facts.closedCaptionChannels += new
        guard phase == .prepared else { return }
        facts.subtitleTracks = facts.streamSubtitleTracks + closedCaptionTracks
        publish(.tracksAvailable(facts.audioTracks + facts.subtitleTracks))
    }

    /// The closed-captions channels as subtitle tracks, numbered after the container's.
    var closedCaptionTracks: [MediaTrack] {
        facts.closedCaptionChannels.enumerated().map { offset, channel in
            MediaTrack(
                kind: .subtitle, index: facts.streamSubtitleTracks.count + offset, codec: channel.standard,
                title: channel.description)
        }
    }

    /// What subtitle track `index` is: a stream of the container or a closed-captions channel.
    func subtitleChoice(_ index: Int) -> SubtitleChoice {
        let channel = index - facts.streamSubtitleTracks.count
        return facts.closedCaptionChannels.indices.contains(channel)
            ? .closedCaptions(facts.closedCaptionChannels[channel]) : .stream(index)
    }

    /// `selectSubtitleTrack(_:)`: track `index` is drawn over the movie from its next cue, or
    /// none with nil (playbin decodes subtitles only while one is chosen); announced.
    mutating func selectSubtitleTrack(_ index: Int?) -> Result<Void, MediaError> {
        guard phase == .prepared, hasSession, preroll == nil else {
            return .failure(MediaError(.notPrepared, "choosing a subtitle track needs a prepared movie"))
        }
        var track: MediaTrack?
        if let index {
            guard let found = facts.subtitleTracks.first(where: { $0.index == index }) else {
                return .failure(
                    MediaError(
                        .invalidArgument,
                        "the movie has no subtitle track \(index) (it has \(facts.subtitleTracks.count))"))
            }
            track = found
        }
        guard facts.currentSubtitleTrack != index else { return .success(()) }
        facts.currentSubtitleTrack = index
        perform(.selectSubtitleTrack(session: sessionID, index.map(subtitleChoice)))
        publish(.subtitleTrackChanged(track))
        return .success(())
    }
}
