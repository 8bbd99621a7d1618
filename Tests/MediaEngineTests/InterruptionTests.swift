import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// A stream that arrives slower than it plays: the player is interrupted while it buffers and
/// plays on by itself once the buffer is full again.
@Suite("Interruptions")
struct InterruptionTests {
    @Test("buffering a slow stream interrupts playback, and playback resumes by itself")
    func slowStream() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: TestMedia.heavyNumbered), to: folder.appendingPathComponent("movie.mp4"))
        // The clip needs about 250 kB/s to play; the server sends 120 kB/s.
        let server = try await LoopbackHTTPServer(serving: folder, bytesPerSecond: 120_000)
        let player = MoviePlayer(
            source: URISource(uri: server.url("movie.mp4")), videoSink: NullVideoSink(), audioOutput: .discard)
        let recorder = EventRecorder(player)
        do {
            try await withDeadline(.seconds(20), "play()") { try await player.play() }
        } catch {
            Issue.record("\(error): \(recorder.events)")
            throw error
        }
        #expect(player.movieSourceType == .file)  // a progressive download
        do {
            try await recorder.waitUntil("interrupted, then playing again", within: .seconds(30)) { events in
                let states = events.compactMap(\.playbackState)
                guard let interrupted = states.firstIndex(of: .interrupted) else { return false }
                return states[interrupted...].contains(.playing)
            }
        } catch {
            Issue.record("\(error): \(recorder.events)")
            throw error
        }
        #expect(recorder.events.contains(.loadStateChanged([.playable, .stalled])))
        player.stop()
        _ = server
    }
}
