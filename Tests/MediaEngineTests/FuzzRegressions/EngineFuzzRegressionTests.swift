import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Every movie kept from `make fuzz-engine` (`Inputs/Engine/`), run the way its child ran it
/// (Fuzz/EngineMutation/EngineChild.swift): prepared, played flat out for at most 2 s, sought
/// to half its duration and near its start, stopped and shut down. Each step must complete or
/// fail with a typed error, and the whole within the deadline: these inputs used to leave a
/// seek waiting for ever. The preparation timeout, which also bounds a seek, is 1 s here so the
/// replays stay fast (a timeout is a typed error, so a slow machine does not fail the test).
@Suite("Engine fuzz regressions")
struct EngineFuzzRegressionTests {
    private static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Inputs/Engine")

    @Test("every kept engine fuzz input plays, seeks twice and stops without hanging")
    func replay() async throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: Self.inputs.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
        #expect(!names.isEmpty, "no inputs under \(Self.inputs.path)")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in names {
                let path = Self.inputs.appendingPathComponent(name).path
                group.addTask {
                    try await withDeadline(.seconds(20), "the replay of \(name)") { await Self.run(path) }
                }
            }
            try await group.waitForAll()
        }
    }

    private static func run(_ path: String) async {
        let player = MoviePlayer(
            source: FileSource(path: path), videoSink: NullVideoSink(synchronized: false),
            audioOutput: .element(ElementDescription(factory: "fakesink", properties: ["sync": false])),
            preparationTimeout: .seconds(1))
        do {
            try await player.prepareToPlay()
            try? await player.play()
            let start = ContinuousClock.now
            while player.playbackState == .playing, ContinuousClock.now - start < .seconds(2) {
                try? await Task.sleep(for: .milliseconds(20))
            }
            let duration = player.duration ?? .seconds(1)
            try? await player.seek(to: duration / 2)
            try? await player.seek(to: .milliseconds(100))
        } catch {
            // A typed error from preparation: nothing more to do with this input.
        }
        player.stop()
        await player.shutdown()
    }
}
