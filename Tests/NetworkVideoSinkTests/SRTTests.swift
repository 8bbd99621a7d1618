import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import NetworkVideoSink
import Testing

/// SRT to a receiver on loopback, when this machine's GStreamer has srtsink.
@Suite("SRT sink")
struct SRTTests {
    /// Whether GStreamer has srtsink and srtsrc (Debian: gstreamer1.0-plugins-bad, built with libsrt).
    static let srtInstalled: Bool = {
        ["srtsink", "srtsrc"].allSatisfy { element in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["gst-inspect-1.0", "--exists", element]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return false
            }
            // A registry lookup, run once while the tests are listed: it does not hold anything up.
            return process.reap().code == 0
        }
    }()

    /// The receiving end: srtsrc at `uri`, the MPEG-TS taken apart and the H.264 decoded.
    static func receiver(_ uri: String) -> [String] {
        ["srtsrc", "uri=\(uri)", "latency=50", "!", "tsdemux", "!", "h264parse", "!", "avdec_h264"]
    }

    /// A player sending the numbered clip to the sink the registry makes from `specification`.
    static func sender(_ specification: String, repeating: Bool) async throws -> MoviePlayer {
        let registry = VideoSinkRegistry(builtIns: false)
        try NetworkVideoSink.register(in: registry)
        let sink = try registry.makeSink(specification: specification)
        #expect(sink.capabilities == .external)
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        if repeating { player.repeatMode = .one }
        return player
    }

    /// A looping player sending to a listener sink on a free port (the default mode), its events
    /// recorded from the start, and a receiver that calls it once the movie plays and joins at the
    /// next keyframe, once `frames` frames have arrived. The caller kills the receiver.
    static func playingListener(untilFrames frames: Int) async throws -> (
        sender: MoviePlayer, events: EventRecorder, receiver: FrameReceiver
    ) {
        let port = try LoopbackPorts.freeUDP()[0]
        let sender = try await Self.sender("srt:port=\(port),latency=50", repeating: true)
        let events = EventRecorder(sender)
        try await sender.play()
        let receiver = try await FrameReceiver.start(Self.receiver("srt://127.0.0.1:\(port)?mode=caller"))
        do {
            try await receiver.waitUntil("\(frames) frames received", within: .seconds(15)) { $0.count >= frames }
        } catch {
            receiver.kill()
            throw error
        }
        return (sender, events, receiver)
    }

    /// The frames are all the clip's, in order, from a keyframe (frame 0 or 30) on.
    static func check(_ frames: [FrameReceiver.Frame]) {
        let numbers = frames.compactMap(\.number)
        #expect(numbers.count == frames.count, "\(frames)")
        #expect(FrameRun.isConsecutive(numbers), "\(numbers)")
        #expect(numbers.first.map { $0 % 30 == 0 } == true, "\(numbers)")
    }

    @Test(
        "a listener sink is called by a receiver that joins late, and goes on through a pause and a seek",
        .enabled(if: srtInstalled, "needs srtsink and srtsrc (gstreamer1.0-plugins-bad with libsrt)"))
    func listener() async throws {
        // The clip loops, so the movie outlasts a slow start of the receiver.
        let (sender, events, receiver) = try await Self.playingListener(untilFrames: 30)
        defer { receiver.kill() }
        Self.check(receiver.frames)
        // A pause and a seek (each a flush of the sink) do not end the connection.
        try await sender.pause()
        try await sender.play()
        try await sender.seek(to: .seconds(1))
        let count = receiver.frames.count
        try await receiver.waitUntil("15 more frames after the pause and the seek") { $0.count >= count + 15 }
        sender.stop()
        #expect(!events.events.contains { $0.finish?.1 != nil }, "\(events.events)")
    }

    @Test(
        "a listener sink's stream goes on through 20 pauses, each of which completes",
        .enabled(if: srtInstalled, "needs srtsink and srtsrc (gstreamer1.0-plugins-bad with libsrt)"))
    func pauses() async throws {
        // GstBaseSink cancels srtsink's socket wait when it pauses and clears that before it
        // returns; a frame rendered in between made srtsink say FLUSHING, mpegtsmux stopped for
        // good, and the pause waited for a frame that never came (sinkflowguard.c).
        let (sender, _, receiver) = try await Self.playingListener(untilFrames: 10)
        defer { receiver.kill() }
        for pause in 1...20 {
            try await withDeadline(.seconds(5), "pause \(pause)") { try await sender.pause() }
            try await sender.play()
            let count = receiver.frames.count
            try await receiver.waitUntil("2 more frames after pause \(pause)", within: .seconds(5)) {
                $0.count >= count + 2
            }
        }
        sender.stop()
    }

    @Test(
        "a caller sink, given by URI, calls a listening receiver",
        .enabled(if: srtInstalled, "needs srtsink and srtsrc (gstreamer1.0-plugins-bad with libsrt)"))
    func caller() async throws {
        let port = try LoopbackPorts.freeUDP()[0]
        // The receiver listens first; the sink calls it, trying again until it answers. The clip
        // plays once: a repeating player seeks before it starts, and see callerAfterPause.
        let receiver = try await FrameReceiver.start(Self.receiver("srt://127.0.0.1:\(port)?mode=listener"))
        defer { receiver.kill() }
        let sender = try await Self.sender(
            "srt:uri=srt://127.0.0.1:\(port)?mode=caller&latency=50", repeating: false)
        try await sender.play()
        // From frame 0, or from frame 30 when the answer came after the first keyframe.
        try await receiver.waitUntil("20 frames received", within: .seconds(15)) { $0.count >= 20 }
        sender.stop()
        Self.check(receiver.frames)
    }

    @Test(
        "a caller sink sends nothing more after a pause (GStreamer 1.22's srtsink)",
        .enabled(if: srtInstalled, "needs srtsink and srtsrc (gstreamer1.0-plugins-bad with libsrt)"))
    func callerAfterPause() async throws {
        let port = try LoopbackPorts.freeUDP()[0]
        let receiver = try await FrameReceiver.start(Self.receiver("srt://127.0.0.1:\(port)?mode=listener"))
        defer { receiver.kill() }
        let sender = try await Self.sender("srt:mode=caller,host=127.0.0.1,port=\(port)", repeating: false)
        try await sender.play()
        try await receiver.waitUntil("10 frames received") { $0.count >= 10 }
        try await sender.pause()
        try await sender.play()
        let count = receiver.frames.count
        // srtsink's unlock (a pause, a seek's flush) takes a caller's socket out of its poll set
        // (gst_srt_object_wakeup: srt_epoll_remove_usock) and nothing puts it back: the sink
        // drops every buffer from then on, without an error. A listener keeps its callers apart
        // and is not affected. It does not happen every time (a pause that did not reach the
        // socket's wait, one run in several): the known issue is intermittent.
        await withKnownIssue(
            "srtsink in caller mode stops sending after a pause or seek (GStreamer 1.22)", isIntermittent: true
        ) {
            try await receiver.waitUntil("15 more frames after the pause", within: .seconds(2)) {
                $0.count >= count + 15
            }
        }
        sender.stop()
    }

    @Test(
        "without srtsink the registry refuses the srt sink with missingPlugin",
        .disabled(if: srtInstalled, "srtsink is installed here, so its absence cannot be seen"))
    func missing() throws {
        let registry = VideoSinkRegistry(builtIns: false)
        try NetworkVideoSink.register(in: registry)
        #expect {
            try registry.makeSink(specification: "srt:port=7001")
        } throws: {
            ($0 as? MediaError)?.code == .missingPlugin && ($0 as? MediaError)?.element == "srtsink"
        }
    }
}
