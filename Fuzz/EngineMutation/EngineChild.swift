import FileSource
import Foundation
import MediaEngine
import Synchronization

/// The child's side: one input through the engine's public API, in a process of its own so a
/// crash or a hang ends only this input. Prints one JSON line (what each step ended with) and
/// exits 0 when every step completed or failed with a typed error; a trap, a signal or a step
/// that never returns is the driver's finding.
///
/// - A movie: `prepareToPlay()`, `play()` into the null sink unsynchronized and the sound into a
///   `fakesink` (both flat out) until it
///   finishes or for at most ``playBound``, a seek to half its duration and one near its start,
///   `stop()`, `shutdown()`.
/// - Subtitles: `TextOverlay(subtitlesAt:)`, then, when they load, shown over `movie` played the
///   same way (the cues are laid out and drawn).
/// - A picture: `ImageOverlay(contentsOf:)`, then, when it loads, shown over `movie`.
enum EngineChild {
    /// How long a movie plays before the seeks.
    static let playBound: Duration = .seconds(2)
    /// The player's preparation timeout, which also bounds a seek the pipeline never completes:
    /// a child's worst case (preparation, play, two such seeks, about 14 s) stays under the
    /// driver's 20 s timeout.
    static let preparationTimeout: Duration = .seconds(4)

    /// Runs one input.
    /// - Parameters:
    ///   - use: What the file is opened as.
    ///   - file: The input.
    ///   - movie: A valid movie to show an overlay on.
    static func run(_ use: InputFormat.Use, file: String, movie: String) async {
        var steps: [String: String] = [:]
        let url = URL(fileURLWithPath: file)
        switch use {
        case .movie:
            await play(FileSource(path: file), overlay: nil, steps: &steps)
        case .subtitles:
            do {
                let overlay = try TextOverlay(subtitlesAt: url)
                steps["load"] = "ok"
                await play(FileSource(path: movie), overlay: overlay, steps: &steps)
            } catch {
                steps["load"] = error.code.name
            }
        case .picture:
            do {
                let overlay = try await ImageOverlay(contentsOf: url)
                steps["load"] = "ok"
                await play(FileSource(path: movie), overlay: overlay, steps: &steps)
            } catch {
                steps["load"] = error.code.name
            }
        }
        let line = steps.keys.sorted().map { "\"\($0)\":\"\(steps[$0]!)\"" }.joined(separator: ",")
        print("{\(line)}")
    }

    /// A player's life: prepare, play flat out, seek twice, stop, shut down; each step's outcome
    /// (`ok` or the error's code) in `steps`.
    private static func play(_ source: FileSource, overlay: (any VideoOverlay)?, steps: inout [String: String]) async {
        // The sound decoded and dropped flat out too (`.discard` and `.automatic` leave it out
        // beside an unsynchronized video sink, and an ADTS file would have nothing to play).
        let player = MoviePlayer(
            source: source, videoSink: NullVideoSink(synchronized: false),
            audioOutput: .element(ElementDescription(factory: "fakesink", properties: ["sync": false])),
            preparationTimeout: Self.preparationTimeout)
        if let overlay { _ = player.overlays.add(overlay) }
        let finished = Finished()
        let events = player.events
        let watcher = Task {
            for await event in events {
                if case .playbackDidFinish(let reason, let error) = event {
                    finished.set("\(reason)" + (error.map { " \($0.code.name)" } ?? ""))
                }
            }
        }
        defer { watcher.cancel() }
        func step(_ name: String, _ body: () async throws(MediaError) -> Void) async {
            // On standard error as it starts: a hang's log names the step that never returned.
            FileHandle.standardError.write(Data("engine-mutation-fuzz: \(name)\n".utf8))
            do {
                try await body()
                steps[name] = "ok"
            } catch {
                steps[name] = error.code.name
            }
        }
        await step("prepare") { () throws(MediaError) in try await player.prepareToPlay() }
        if steps["prepare"] == "ok" {
            await step("play") { () throws(MediaError) in try await player.play() }
            let start = ContinuousClock.now
            while finished.value == nil, ContinuousClock.now - start < playBound {
                try? await Task.sleep(for: .milliseconds(20))
            }
            let duration = player.duration ?? .seconds(1)
            await step("seek1") { () throws(MediaError) in try await player.seek(to: duration / 2) }
            await step("seek2") { () throws(MediaError) in try await player.seek(to: .milliseconds(100)) }
        }
        FileHandle.standardError.write(Data("engine-mutation-fuzz: stop and shutdown\n".utf8))
        player.stop()
        await player.shutdown()
        steps["finish"] = finished.value ?? "none"
    }

    /// How playback finished, set by the events' task.
    private final class Finished: Sendable {
        private let state = Mutex<String?>(nil)
        var value: String? { state.withLock { $0 } }
        func set(_ value: String) { state.withLock { $0 = $0 ?? value } }
    }
}
