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
        /// The position read when the test saw the event (a busy machine shows it late).
        let position: Duration
        /// The position of the last periodic time event the player published before it: where
        /// playback was, as the player itself saw it, whenever the test gets to read it.
        let tickBefore: Duration?
    }

    /// Plays `url` to the end (or runs `during` first) and returns the timed-metadata events
    /// with the position read as each arrived, and all events.
    private func play(
        _ url: URL, expectingNothingAtPreparation: Bool = false,
        during: @Sendable (MoviePlayer) async throws -> Void = { _ in }
    ) async throws -> (arrivals: [Arrival], events: [PlayerEvent], player: MoviePlayer) {
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink(), audioOutput: .discard)
        player.shouldAutoplay = false
        let arrivals = Locked<[Arrival]>([])
        let events = player.events
        _ = try player.addPeriodicTimeObserver(every: .milliseconds(50))
        let watcher = Task {
            var all: [PlayerEvent] = []
            var tick: Duration?
            for await event in events {
                all.append(event)
                if case .periodicTime(_, let time) = event { tick = time }
                if case .timedMetadataChanged(let items) = event {
                    let position = player.currentPlaybackTime
                    arrivals.withLock { $0.append(Arrival(items: items, position: position, tickBefore: tick)) }
                }
                if event.finish != nil { break }
            }
            return all
        }
        try await player.prepareToPlay()
        if expectingNothingAtPreparation {
            #expect(player.timedMetadata.isEmpty, "nothing is delivered at preparation")
        }
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
        let (arrivals, _, player) = try await play(url, expectingNothingAtPreparation: true)
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
            let before = try #require(arrival.tickBefore, "a periodic time event before it").inSeconds
            #expect(before <= expected + 0.3 * TestTime.scale, "published after playback reached \(before)")
        }
        #expect(player.timedMetadata == delivered[2].items)
        await player.shutdown()
    }
}

extension TimedMetadataPlaybackTests {
    /// TXXX at 0.5 s, then a title every second from 1.5 s to 8.5 s ("title 1" to "title 8"), in
    /// the 10-second clip.
    static let everySecond: [(time: Duration, bytes: [UInt8])] =
        [(.milliseconds(500), ID3TagWriter.tag([.userText(description: "com.example.cue", value: "first")]))]
        + (1...8).map { (.milliseconds(500 + 1000 * $0), ID3TagWriter.tag([.text("TIT2", "title \($0)")])) }

    @Test("a seek past an item skips it; the list empties at the seek and fills with what playback reaches next")
    func seekSkips() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try await TimedMetadataMedia.transportStream(
            with: Self.everySecond, in: folder, clip: TimedMetadataMedia.longTransportStream)
        let player = MoviePlayer(source: FileSource(url: url), videoSink: NullVideoSink(), audioOutput: .discard)
        player.shouldAutoplay = false
        let recorder = EventRecorder(player)
        try await player.prepareToPlay()
        try await player.play()
        try await recorder.waitFor("the first item") {
            if case .timedMetadataChanged(let items) = $0 { items.first?.key == "TXXX" } else { false }
        }
        // Paused wherever this task gets to it (on a busy machine, up to seconds after the first
        // item), then sought past the next item ahead of that place, to between it and the one
        // after: the test holds however late the pause came.
        try await player.pause()
        let pausedAt = player.currentPlaybackTime
        let ahead = Self.everySecond.map(\.time).filter { $0 > pausedAt + .milliseconds(100) }
        try #require(ahead.count >= 2, "paused at \(pausedAt): fewer than two items left ahead")
        let (skipped, next) = (ahead[0], ahead[1])
        try await player.seek(to: skipped + .milliseconds(500))
        #expect(player.timedMetadata.isEmpty, "the seek left \(player.timedMetadata) behind")
        try await player.play()
        try await recorder.waitFor("the item after the seek") {
            if case .timedMetadataChanged(let items) = $0 { items.first?.time == next } else { false }
        }
        let lists = recorder.events.compactMap { event -> [Duration]? in
            if case .timedMetadataChanged(let items) = event { return items.map(\.time) }
            return nil
        }
        // Before the seek: the items playback reached, in order, from TXXX on. At the seek: the
        // list empties. After it: the item after the skipped one (which never arrives).
        let seekAt = try #require(lists.firstIndex(of: []), "the seek emptied the list: \(lists)")
        let reached = Self.everySecond.map(\.time).filter { $0 <= pausedAt + .milliseconds(100) }
        #expect(lists[..<seekAt].map { $0.first } == reached.prefix(seekAt).map { $0 }, "\(lists)")
        #expect(lists.first == [.milliseconds(500)], "\(lists)")
        // Read up to the item waited for: a task resumed late may find later items already listed.
        let afterSeek = lists[seekAt...].prefix { $0 != [next] } + [[next]]
        #expect(Array(afterSeek) == [[], [next]], "paused at \(pausedAt), skipping \(skipped): \(lists)")
        await player.shutdown()
    }

    @Test("a seek before playing starts at the new position: only the items after it arrive")
    func seekBeforePlaying() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try await TimedMetadataMedia.transportStream(with: Self.tags, in: folder)
        let (arrivals, _, player) = try await play(url) { player in
            try await player.seek(to: .milliseconds(1200))
        }
        #expect(arrivals.map { $0.items.map(\.key) } == [["TIT2"], ["PRIV"]], "\(arrivals.map(\.items))")
        await player.shutdown()
    }

    @Test("hostile ID3 payloads (lying sizes, truncated, garbage) give no crash and no item; the stream plays on")
    func hostilePayloads() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = ID3TagWriter.tag([.text("TIT2", "after the garbage")])
        var tooLongFrame = ID3TagWriter.tag([.text("TIT2", "x")])
        tooLongFrame.replaceSubrange(14..<18, with: [0x7F, 0x7F, 0x7F, 0x7F])  // the frame claims 256 MB
        var plainSizeFrame = ID3TagWriter.tag([.userText(description: "d", value: "v")])
        plainSizeFrame.replaceSubrange(14..<18, with: [0xFF, 0xFF, 0xFF, 0xFF])  // not synchsafe at all
        let hostile: [(time: Duration, bytes: [UInt8])] = [
            (.milliseconds(300), ID3TagWriter.header(size: 0x0FFF_FFFF) + [1, 2, 3]),  // tag claims 256 MB
            (.milliseconds(600), Array(valid.prefix(valid.count - 5))),  // truncated
            (.milliseconds(900), (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }),  // garbage
            (.milliseconds(1200), tooLongFrame),
            (.milliseconds(1500), plainSizeFrame),
            (.milliseconds(1800), Array("ID3".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),  // bad version
            (.milliseconds(2100), ID3TagWriter.header(size: 0)),  // empty
            (.milliseconds(2500), valid),
        ]
        let url = try await TimedMetadataMedia.transportStream(with: hostile, in: folder)
        let (arrivals, events, player) = try await play(url)
        #expect(events.last?.finish?.0 == .playbackEnded, "\(events.suffix(3))")
        let items = arrivals.flatMap(\.items)
        #expect(items.last?.value == .text("after the garbage"), "\(items)")
        // Whatever libgsttag made of the damaged tags before it is clean: no text with garbage
        // sizes, every key a frame ID or a tag name.
        for item in items.dropLast() {
            #expect(item.key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }, "\(item)")
        }
        await player.shutdown()
    }

    @Test("packed audio: the ID3 tag at the start of an AAC file, with HLS's transport stream timestamp, at time 0")
    func packedAudio() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tag = ID3TagWriter.tag([
            .transportStreamTimestamp(900_000), .text("TIT2", "Packed"),
            .userText(description: "com.example.segment", value: "one"),
        ])
        let url = try await TimedMetadataMedia.packedAudio(withTag: tag, in: folder)
        let (arrivals, _, player) = try await play(url)
        let items = arrivals.flatMap(\.items)
        let priv = try #require(items.first { $0.key == "PRIV" }, "\(items)")
        #expect(priv.identifier == TimedMetadataItem.transportStreamTimestampOwner)
        #expect(priv.transportStreamTimestamp == .seconds(10))
        #expect(items.contains { $0.key == "TIT2" && $0.value == .text("Packed") }, "\(items)")
        #expect(
            items.contains { $0.key == "TXXX" && $0.identifier == "com.example.segment" && $0.value == .text("one") },
            "\(items)")
        #expect(items.allSatisfy { $0.time == .zero }, "\(items)")
        await player.shutdown()
    }
}
