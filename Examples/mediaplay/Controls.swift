import MediaEngine
import MediaplayConsole

/// What mediaplay's keys do to the player (``KeyBindings`` says which key is which command):
/// keys from the terminal, and keys typed into a window sink's window.
/// Everything goes through the player's public API; commands that wait for the pipeline run in
/// a task of their own, so a key is never held up by the one before.
@MainActor
final class Controls {
    private let player: MoviePlayer
    private let output: Output
    private let queueLength: Int
    /// The rate asked for: `currentPlaybackRate` is 0 while paused.
    var rate = 1.0
    /// Where the seek under way goes, so that keys pressed quickly add up. The progress line
    /// shows it while the seek is under way: the position a person sees is the one the next key
    /// starts from.
    private(set) var seekTarget: Duration?
    /// p was pressed and the queue has not announced the item yet.
    private var skippedBack = false
    /// q or Escape was pressed: the player was stopped on purpose.
    private(set) var quitRequested = false

    init(player: MoviePlayer, output: Output, queueLength: Int) {
        self.player = player
        self.output = output
        self.queueLength = queueLength
    }

    /// Whether the queue's change of item was p's doing (it is said as "previous"); asked once per change.
    func takeSkipBack() -> Bool {
        defer { skippedBack = false }
        return skippedBack
    }

    /// Reads keys until the input ends.
    func run(_ keys: AsyncStream<Key>) async {
        for await key in keys { handle(key) }
    }

    /// Does what `key` asks, from the terminal or the player's window.
    func handle(_ key: Key) {
        guard let command = KeyBindings.command(for: key) else { return }
        perform(command)
        output.refresh()
    }

    private func perform(_ command: PlayerCommand) {
        switch command {
        case .playPause:
            let pausing = player.playbackState == .playing || player.playbackState == .interrupted
            attempt { [player] in if pausing { try await player.pause() } else { try await player.play() } }
        case .seek(let step, let exact):
            seek(by: step, exact: exact)
        case .faster, .slower:
            guard let next = KeyBindings.rate(after: rate, faster: command == .faster) else { return }
            attempt { [player] in try await player.setRate(next) }
        case .fullscreen:
            let on = !player.isFullscreen
            attempt("fullscreen") { [player] in try await player.setFullscreen(on, animated: true) }
        case .scalingMode:
            let mode = KeyBindings.scalingMode(after: player.scalingMode)
            player.scalingMode = mode
            output.say("  scaling: \(mode)")
        case .repeatMode:
            player.repeatMode = KeyBindings.repeatMode(after: player.repeatMode, hasQueue: queueLength > 1)
        case .mute:
            player.isMuted.toggle()
        case .volume(let step):
            player.volume = min(max(player.volume + step, 0), 1)
        case .next, .previous:
            guard queueLength > 1 else { return output.say("  one movie: no queue to move in") }
            skippedBack = command == .previous
            let moved = command == .next ? player.advanceToNextItem() : player.returnToPreviousItem()
            if !moved { output.say(command == .next ? "  the last movie: none after it" : "  the first movie") }
        case .audioTrack:
            guard let track = KeyBindings.audioTrack(after: player.currentAudioTrack, in: player.audioTracks) else {
                return output.say("  audio: no other track")
            }
            do {
                try player.selectAudioTrack(track)
            } catch {
                output.say("  audio: \(error.code): \(error.message)")
            }
        case .subtitleTrack:
            guard !player.subtitleTracks.isEmpty else { return output.say("  subtitles: the movie has none") }
            let track = KeyBindings.subtitleTrack(after: player.currentSubtitleTrack, in: player.subtitleTracks)
            do {
                try player.selectSubtitleTrack(track)
                output.say("  subtitles: \(track.map { "\($0)" } ?? "off")")
            } catch {
                output.say("  subtitles: \(error.code): \(error.message)")
            }
        case .help:
            output.say(KeyBindings.help)
        case .quit:
            quitRequested = true
            output.freeze()
            player.stop()
        }
    }

    /// A seek from where the last one goes (or the playhead), within the movie.
    private func seek(by step: Duration, exact: Bool) {
        let start = max((seekTarget ?? player.currentPlaybackTime) + step, .zero)
        let target = player.duration.map { min(start, $0) } ?? start
        seekTarget = target
        let option: SeekOption = exact ? .exact : .nearestKeyFrame
        attempt { [player] in
            // On the main actor, in the same step as the seek's completion: a key handled after
            // it starts from where the seek landed (a keyframe's seek lands off its target).
            defer {
                if self.seekTarget == target {
                    self.seekTarget = nil
                    self.output.refresh()
                }
            }
            try await player.seek(to: target, option: option)
        }
    }

    /// Runs a command that waits for the pipeline; a failure is a line, not the end.
    private func attempt(_ what: String? = nil, _ command: @escaping @MainActor () async throws -> Void) {
        Task {
            do {
                try await command()
            } catch let error as MediaError {
                // Stopped or replaced meanwhile: nothing to say.
                guard error.code != .cancelled else { return }
                self.output.say("  \(what.map { "\($0): " } ?? "")\(error.code): \(error.message)")
            } catch {
                self.output.say("  \(error)")
            }
        }
    }
}
