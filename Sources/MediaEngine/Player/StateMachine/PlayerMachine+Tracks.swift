/// The movie's audio and subtitle tracks: read when the movie is prepared, announced, and the
/// audio track switched while playing.
extension PlayerMachine {
    /// Keeps and announces the tracks the prepared movie has.
    mutating func setTracks(audio: [MediaTrack], subtitles: [MediaTrack]) {
        guard audio != audioTracks || subtitles != subtitleTracks else { return }
        audioTracks = audio
        subtitleTracks = subtitles
        currentAudioTrack = audio.first { $0.isDefault }?.index ?? (audio.isEmpty ? nil : 0)
        publish(.tracksAvailable(audio + subtitles))
    }

    /// `selectAudioTrack(_:)`: playbin switches at once (the video goes on); announced.
    mutating func selectAudioTrack(_ index: Int) -> Result<Void, MediaError> {
        guard phase == .prepared, hasSession, preroll == nil else {
            return .failure(MediaError(.notPrepared, "choosing an audio track needs a prepared movie"))
        }
        guard let track = audioTracks.first(where: { $0.index == index }) else {
            return .failure(
                MediaError(.invalidArgument, "the movie has no audio track \(index) (it has \(audioTracks.count))"))
        }
        guard currentAudioTrack != index else { return .success(()) }
        currentAudioTrack = index
        perform(.selectAudioTrack(session: sessionID, index))
        publish(.audioTrackChanged(track))
        return .success(())
    }

    /// `selectSubtitleTrack(_:)`: track `index` is drawn over the movie from its next cue, or
    /// none with nil (playbin decodes subtitles only while one is chosen); announced.
    mutating func selectSubtitleTrack(_ index: Int?) -> Result<Void, MediaError> {
        guard phase == .prepared, hasSession, preroll == nil else {
            return .failure(MediaError(.notPrepared, "choosing a subtitle track needs a prepared movie"))
        }
        var track: MediaTrack?
        if let index {
            guard let found = subtitleTracks.first(where: { $0.index == index }) else {
                return .failure(
                    MediaError(
                        .invalidArgument, "the movie has no subtitle track \(index) (it has \(subtitleTracks.count))"))
            }
            track = found
        }
        guard currentSubtitleTrack != index else { return .success(()) }
        currentSubtitleTrack = index
        perform(.selectSubtitleTrack(session: sessionID, index))
        publish(.subtitleTrackChanged(track))
        return .success(())
    }
}
