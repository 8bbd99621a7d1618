import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// A stream whose data stops arriving while it plays: the player is interrupted while it
/// buffers and plays on by itself once the data comes again.
@Suite("Interruptions")
struct InterruptionTests {
    @Test("buffering a stream that stops arriving interrupts playback, and playback resumes by itself")
    func slowStream() async throws {
        // The first 40 % of the 4-second movie arrives, then nothing until the player says it
        // was interrupted, then the rest. (A server sending slower than the movie plays made an
        // interruption only if playback started early enough: on a busy machine, preparation
        // took long enough for most of the movie to arrive first.)
        let movie = try await TestMedia.url(for: TestMedia.heavyNumbered)
        let size = try FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int ?? 0
        let server = try FaultInjectingServer(
            serving: movie, fault: .holdThenContinue(bytes: size * 2 / 5), faultLimit: 1)
        let player = MoviePlayer(
            source: URISource(uri: server.url()), videoSink: NullVideoSink(), audioOutput: .discard)
        let recorder = EventRecorder(player)
        do {
            try await withDeadline(.seconds(20), "play()") { try await player.play() }
        } catch {
            Issue.record("\(error): \(recorder.events)")
            throw error
        }
        #expect(player.movieSourceType == .file)  // a progressive download
        do {
            try await recorder.waitUntil("playing, then interrupted", within: .seconds(20)) { events in
                let states = events.compactMap(\.playbackState)
                return zip(states, states.dropFirst()).contains { $0 == .playing && $1 == .interrupted }
            }
            server.releaseHeldResponses()
            try await recorder.waitUntil("playing again", within: .seconds(20)) { events in
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
        server.stop()
    }
}
