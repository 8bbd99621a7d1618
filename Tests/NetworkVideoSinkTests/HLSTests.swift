import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import NetworkVideoSink
import Testing

/// HLS written into a folder, played back by the engine itself.
@Suite("HLS sink")
struct HLSTests {
    /// The frames of an HLS playlist played to its end by the engine (as fast as they decode),
    /// which must end without an error.
    static func playedBack(_ playlist: URL) async throws -> [FrameRecorder.Record] {
        let frames = FrameRecorder()
        let playback = MoviePlayer(
            source: FileSource(url: playlist), videoSink: frames.sink(synchronized: false), audioOutput: .discard)
        let events = EventRecorder(playback)
        try await playback.play()
        let (reason, error) = try await events.waitForFinish()
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        return frames.records
    }

    /// How many segments a playlist lists (0 while it is not written yet).
    static func listedSegments(_ playlist: URL) -> Int {
        let text = (try? String(contentsOf: playlist, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\n").filter { $0.hasPrefix("#EXTINF:") }.count
    }

    /// A folder name that would end, extend or re-quote an unquoted pipeline description, with
    /// printf conversions for hlssink2's segment pattern and a backslash.
    static let hostileName = #"live ! filesink location=pwned "q" %s %d \x"#

    @Test("the folder gets a playlist and segments, at playback speed, that play back as the movie frame for frame")
    func playlistPlaysBack() async throws {
        let scratch = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent(Self.hostileName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let destination = HLSDestination(folder: folder, targetDuration: 1, playlistLength: 0)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            videoSink: NetworkVideoSink(.hls(destination)), audioOutput: .discard)
        let recorder = EventRecorder(player)
        let start = ContinuousClock.now
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        let elapsed = ContinuousClock.now - start
        #expect(reason == .playbackEnded && error == nil, "\(reason) \(String(describing: error))")
        // Paced by the clock (the last of the 60 frames is due 1.97 s in), not flat out.
        #expect(elapsed >= .milliseconds(1900), "\(elapsed)")
        #expect(player.isExternalPlaybackActive)

        // Everything went into the folder, under its own name; nothing beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [Self.hostileName])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["playlist.m3u8", "segment00000.ts", "segment00001.ts"], "\(files)")
        let playlist = try String(contentsOf: destination.playlist, encoding: .utf8)
        #expect(playlist.hasPrefix("#EXTM3U\n"))
        #expect(playlist.contains("#EXT-X-TARGETDURATION:1\n"))
        #expect(playlist.contains("\nsegment00000.ts\n") && playlist.contains("\nsegment00001.ts\n"))
        #expect(playlist.hasSuffix("\n#EXT-X-ENDLIST"), "\(playlist)")  // the movie ended: the list is closed

        // The playlist, played as any HLS stream: every frame, in order, each the clip's own.
        let frames = try await Self.playedBack(destination.playlist)
        #expect(frames.compactMap(\.number) == Array(0...59), "\(frames)")
    }

    @Test("swapped to while playing and away again, the HLS output closes its playlist and holds what was sent")
    func swapInAndOut() async throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = HLSDestination(folder: folder, targetDuration: 1, playlistLength: 0)
        let local = FrameRecorder()
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            videoSink: local.sink(label: "before"), audioOutput: .discard)
        player.repeatMode = .one
        let recorder = EventRecorder(player)
        _ = try player.addPeriodicTimeObserver(every: .milliseconds(100))
        try await player.play()
        try await local.waitForFrames(5)
        try await withDeadline(.seconds(5), "the swap to HLS") {
            try await player.setVideoSink(NetworkVideoSink(.hls(destination)))
        }
        #expect(player.isExternalPlaybackActive)
        let lastLocal = try #require(local.records.last?.number)
        // Three segments listed, rechecked at each tick of the time observer: more than the 2 s
        // movie, so the output runs across a loop (repeat mode's segment seek to the movie's end)
        // and its third second is all after one. splitmuxsink closes a segment only once the next
        // one is whole (it reads a keyframe interval ahead), so the third is listed after 4 s.
        // Each listed segment must hold its second: that seek once reached the output's muxer and
        // every segment after its stop came out empty (issue 15).
        try await recorder.waitUntil("three HLS segments listed") { _ in
            Self.listedSegments(destination.playlist) >= 3
        }
        try await withDeadline(.seconds(5), "the swap back") {
            try await player.setVideoSink(local.sink(label: "after"))
        }
        try await local.waitUntil("5 frames back home") { $0.filter { $0.sink == "after" }.count >= 5 }
        #expect(!player.isExternalPlaybackActive)
        await player.shutdown()

        // hlssink2, shut down by the swap, closed the playlist; the segments not closed yet are
        // left out of it (there was no end of stream to finish them: the public API has no way
        // to give an output one before it is taken away).
        let playlist = try String(contentsOf: destination.playlist, encoding: .utf8)
        #expect(playlist.contains("\nsegment00000.ts\n") && playlist.hasSuffix("\n#EXT-X-ENDLIST"), "\(playlist)")
        let listed = Self.listedSegments(destination.playlist)
        #expect(listed >= 3, "\(playlist)")
        let frames = try await Self.playedBack(destination.playlist)
        // The stream starts with the frame after the last one shown here, and runs on, a whole
        // second for each listed segment (segments start at the encoder's keyframes, 30 frames
        // apart).
        let numbers = frames.compactMap(\.number)
        #expect(numbers.count == frames.count)
        #expect(numbers.first == FrameRun.after(lastLocal), "\(lastLocal) -> \(numbers)")
        #expect(FrameRun.isConsecutive(numbers), "\(numbers)")
        #expect(numbers.count == 30 * listed, "\(numbers.count) frames, \(listed) segments")
    }

    @Test("a looping movie's HLS output holds every second its playlist lists, loop after loop")
    func loopingMovie() async throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = HLSDestination(folder: folder, targetDuration: 1, playlistLength: 0)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            videoSink: NetworkVideoSink(.hls(destination)), audioOutput: .discard)
        // Repeat mode seeks before playback starts: that seek, sent into hlssink2 too, was once
        // refused there, and play() failed with pipelineFailure.
        player.repeatMode = .one
        let recorder = EventRecorder(player)
        _ = try player.addPeriodicTimeObserver(every: .milliseconds(100))
        try await player.play()
        // Three segments listed (rechecked at each tick): the third second is the second pass's.
        try await recorder.waitUntil("three HLS segments listed") { _ in
            Self.listedSegments(destination.playlist) >= 3
        }
        await player.shutdown()

        let listed = Self.listedSegments(destination.playlist)
        let frames = try await Self.playedBack(destination.playlist)
        // The movie from its first frame, looped: a whole second for each listed segment.
        let numbers = frames.compactMap(\.number)
        #expect(numbers.count == frames.count)
        #expect(numbers.first == 0, "\(numbers)")
        #expect(FrameRun.isConsecutive(numbers), "\(numbers)")
        #expect(numbers.count == 30 * listed, "\(numbers.count) frames, \(listed) segments")
    }

    @Test("sync=false writes as fast as it encodes, and says so to the player")
    func unsynchronized() async throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = VideoSinkRegistry(builtIns: false)
        try NetworkVideoSink.register(in: registry)
        let paced = try registry.makeSink(specification: "hls:folder=\(folder.path)")
        #expect(try paced.makeOutput().isSynchronized)
        let sink = try registry.makeSink(
            specification: "hls:folder=\(folder.path),sync=false,target-duration=1,playlist-length=1,max-files=1")
        #expect(try !sink.makeOutput().isSynchronized)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded && error == nil, "\(reason) \(String(describing: error))")
        // A live window of one segment, older files deleted: the last segment alone is left.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["playlist.m3u8", "segment00001.ts"], "\(files)")
        let playlist = try String(contentsOf: folder.appendingPathComponent("playlist.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-MEDIA-SEQUENCE:1\n"), "\(playlist)")
        #expect(!playlist.contains("segment00000.ts"), "\(playlist)")
    }
}
