import FileSource
import Foundation
import MediaEngine
import MediaTestSupport

/// The two workarounds the player's state machine applies (`PlayerMachine.Workarounds`, read from
/// the registry when a player is made), end to end.
extension Scenario {
    static let machine: [Scenario] = [
        // Off: a keyframe seek just after a video keyframe of an MP4 with AAC lands on the audio
        // frame that starts before it (qtdemux snaps to any stream's keyframe), not on the picture.
        Scenario(.keyUnitSeekSnap, arguments: ["MOVIE"]) { arguments, report in
            let frames = FrameRecorder()
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: frames.sink(), audioOutput: .discard)
            player.shouldAutoplay = false
            try await player.prepareToPlay()
            frames.reset()
            // 4.002 s: 2 ms after the keyframe at 4 s (frame 120, a keyframe every 30); an AAC
            // frame starts 6.2 ms before 4 s.
            try await player.seek(to: .milliseconds(4002), option: .nearestKeyFrame)
            try await frames.waitForFrames(1)
            let landed = frames.records.last
            report.set("landedMicroseconds", Int(((landed?.presentationTime ?? .zero).inSeconds * 1e6).rounded()))
            report.set("keyframe", landed?.isKeyframe ?? false)
            report.set("position", Int((player.currentPlaybackTime.inSeconds * 1e6).rounded()))
        },
        // Off: the switch goes to playbin while PAUSED, and the flushing seek after it deadlocks
        // (the old track's thread waits in playsink's full queue holding the input-selector's output).
        Scenario(.pausedAudioSwitch, limit: .seconds(4), arguments: ["MOVIE"]) { arguments, report in
            let player = MoviePlayer(
                source: FileSource(path: arguments[0]), videoSink: FrameSink(synchronized: false),
                audioOutput: .unpaced)
            player.shouldAutoplay = false
            let events = EventRecorder(player)
            try await player.prepareToPlay()
            try await player.pause()
            let tracks = player.audioTracks
            report.set("tracks", tracks.count)
            try player.selectAudioTrack(tracks[1])
            try await events.waitFor("the switch announced") { $0 == .audioTrackChanged(tracks[1]) }
            report.mark("switched")
            try await player.seek(to: .seconds(1), option: .exact)
            report.mark("sought")
            report.set("position", player.currentPlaybackTime.inSeconds)
        },
    ]
}
