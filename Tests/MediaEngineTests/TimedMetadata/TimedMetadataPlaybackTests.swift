import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

@Suite("Timed metadata in playback", .serialized)
struct TimedMetadataPlaybackTests {
    /// The three tags of the TS tests: TXXX at 0.5 s, TIT2 at 1.5 s, PRIV at 2.5 s.
    static let tags: [(time: Duration, bytes: [UInt8])] = [
        (.milliseconds(500), ID3TagWriter.tag([.userText(description: "com.example.cue", value: "first")])),
        (.milliseconds(1500), ID3TagWriter.tag([.text("TIT2", "Second title")])),
        (.milliseconds(2500), ID3TagWriter.tag([.privateData(owner: "com.example.owner", [1, 2, 3, 0xFF])])),
    ]

    /// One timed-metadata event and where playback was when the test saw it.
    struct Arrival: Sendable {
        let items: [TimedMetadataItem]
        let position: Duration
    }

    /// Plays `url` to the end (or runs `during` first) and returns the timed-metadata events
    /// with the position read as each arrived, and all events.
    private func play(
        _ url: URL, during: @Sendable (MoviePlayer) async throws -> Void = { _ in }
    ) async throws -> (arrivals: [Arrival], events: [PlayerEvent], player: MoviePlayer) {
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink(), audioOutput: .discard)
        player.shouldAutoplay = false
        let arrivals = Locked<[Arrival]>([])
        let events = player.events
        let watcher = Task {
            var all: [PlayerEvent] = []
            for await event in events {
                all.append(event)
                if case .timedMetadataChanged(let items) = event {
                    let position = player.currentPlaybackTime
                    arrivals.withLock { $0.append(Arrival(items: items, position: position)) }
                }
                if event.finish != nil { break }
            }
            return all
        }
        try await player.prepareToPlay()
        #expect(player.timedMetadata.isEmpty, "nothing is delivered at preparation")
        try await during(player)
        try await player.play()
        let all = try await withDeadline(.seconds(15), "the end of the movie") { await watcher.value }
        return (arrivals.withLock { $0 }, all, player)
    }

    @Test("ID3 tags in a TS metadata stream arrive with their keys, values and times, when playback reaches them")
    func transportStream() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try await TimedMetadataMedia.transportStream(with: Self.tags, in: folder)
        let (arrivals, _, player) = try await play(url)
        let delivered = arrivals.filter { !$0.items.isEmpty }
        try #require(delivered.count == 3, "\(arrivals.map(\.items))")

        let txxx = try #require(delivered[0].items.first)
        #expect(txxx.key == "TXXX" && txxx.keySpace == .id3)
        #expect(txxx.identifier == "com.example.cue" && txxx.value == .text("first"))
        let title = try #require(delivered[1].items.first)
        #expect(title.key == "TIT2" && title.value == .text("Second title"))
        let priv = try #require(delivered[2].items.first)
        #expect(priv.key == "PRIV" && priv.identifier == "com.example.owner" && priv.value == .data([1, 2, 3, 0xFF]))

        for (arrival, expected) in zip(delivered, [0.5, 1.5, 2.5]) {
            let time = try #require(arrival.items.first?.time).inSeconds
            #expect(abs(time - expected) < 0.05, "item time \(time), expected \(expected)")
            // Delivered when playback reached the time: not before, and soon after.
            #expect(arrival.position.inSeconds >= expected - 0.04, "arrived at \(arrival.position)")
            #expect(arrival.position.inSeconds <= expected + 0.3 * TestTime.scale, "arrived at \(arrival.position)")
        }
        #expect(player.timedMetadata == delivered[2].items)
        await player.shutdown()
    }
}
