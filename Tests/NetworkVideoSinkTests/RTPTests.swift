import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import NetworkVideoSink
import Testing

/// RTP over UDP to a receiver on loopback that reads the SDP file the sink wrote.
@Suite("RTP sink")
struct RTPTests {
    /// The receiver: the SDP file read by sdpdemux (udpsrc and a jitter buffer), the payload
    /// taken out and decoded.
    static func receiver(sdp: URL) async throws -> FrameReceiver {
        try await FrameReceiver.start([
            "filesrc", "location=\(sdp.path)", "!", "sdpdemux", "latency=100", "!", "rtph264depay", "!", "avdec_h264",
        ])
    }

    @Test("a receiver decodes the movie, frame after frame, from the SDP file the sink wrote")
    func receiverDecodes() async throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try LoopbackPorts.freeUDP()[0]
        let sdp = folder.appendingPathComponent("stream.sdp")
        let registry = VideoSinkRegistry(builtIns: false)
        try NetworkVideoSink.register(in: registry)
        // Made through the registry as an app or mediaplay would, which writes nothing; the player
        // writes the SDP file when it makes the output, before the first packet.
        let sink = try registry.makeSink(specification: "rtp:host=127.0.0.1,port=\(port),sdp=\(sdp.path)")
        #expect(sink.capabilities == .external)
        #expect(!FileManager.default.fileExists(atPath: sdp.path))
        let sender = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        // Looping, the movie goes on however late the receiver starts listening: it then joins at
        // the next keyframe (30 frames apart), which carries SPS and PPS (config-interval=-1).
        sender.repeatMode = .one
        try await sender.prepareToPlay()
        let description = try String(contentsOf: sdp, encoding: .utf8)
        #expect(description.hasPrefix("v=0\r\n"))
        #expect(description.contains("c=IN IP4 127.0.0.1\r\n"))
        #expect(description.contains("m=video \(port) RTP/AVP 96\r\n"))
        #expect(description.contains("a=rtpmap:96 H264/90000\r\n"))
        #expect(description.contains("a=fmtp:96 packetization-mode=1\r\n"))

        let receiver = try await Self.receiver(sdp: sdp)
        defer { receiver.kill() }
        try await sender.play()
        try await receiver.waitUntil("45 frames received", within: .seconds(15)) { $0.count >= 45 }
        sender.stop()
        let frames = receiver.frames
        let numbers = frames.compactMap(\.number)
        // Every picture is one of the clip's (its bars where they belong), and none is missing
        // or repeated: 1.5 s of the movie, in order.
        #expect(numbers.count == frames.count, "\(frames)")
        #expect(FrameRun.isConsecutive(numbers), "\(numbers)")
        // It starts at a keyframe: the clip's frame 0 or 30 (the encoder's first frame, then
        // every 30th; the clip's 60 frames loop in step with them).
        #expect(numbers.first.map { $0 % 30 == 0 } == true, "\(numbers)")
    }

    @Test("the AirPlay switch: a playing movie moves to the RTP sink and back, and no frame is lost")
    func externalSwitch() async throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try LoopbackPorts.freeUDP()[0]
        let sdp = folder.appendingPathComponent("stream.sdp")
        let network = NetworkVideoSink(
            .rtp(RTPDestination(host: "127.0.0.1", port: port, sessionDescriptionFile: sdp)))
        _ = try network.makeOutput()  // the SDP file, for the receiver; the player makes the output again
        let receiver = try await Self.receiver(sdp: sdp)
        defer { receiver.kill() }

        let local = FrameRecorder()
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            videoSink: local.sink(label: "before"), audioOutput: .discard)
        player.repeatMode = .one
        let recorder = EventRecorder(player)
        try await player.play()
        try await local.waitForFrames(10)
        #expect(!player.isExternalPlaybackActive)

        try await withDeadline(.seconds(5), "the swap to RTP") { try await player.setVideoSink(network) }
        #expect(player.isExternalPlaybackActive)
        // setVideoSink returns once the new output is linked: the local sink has had its last frame.
        let lastLocal = try #require(local.records.last?.number)
        try await receiver.waitUntil("15 frames received", within: .seconds(15)) { $0.count >= 15 }
        try await withDeadline(.seconds(5), "the swap back") {
            try await player.setVideoSink(local.sink(label: "after"))
        }
        #expect(!player.isExternalPlaybackActive)
        try await local.waitUntil("10 frames back home") { $0.filter { $0.sink == "after" }.count >= 10 }
        let firstBack = try #require(local.records.first { $0.sink == "after" }?.number)
        // The receiver gets what was sent up to the swap back (after its jitter buffer's 100 ms).
        try await receiver.waitUntil("the frame before the swap back, received") {
            $0.last?.number == FrameRun.after(firstBack, by: -1)
        }
        player.stop()

        let received = receiver.frames.compactMap(\.number)
        #expect(received.count == receiver.frames.count, "\(receiver.frames)")
        #expect(FrameRun.isConsecutive(received), "\(received)")
        // The network stream starts with the frame after the last one shown here (or, when the
        // receiver was still starting, at a later keyframe: 30 frames apart), and the picture
        // comes home with the frame after the last one sent.
        let first = try #require(received.first)
        #expect(FrameRun.distance(from: FrameRun.after(lastLocal), to: first) % 30 == 0, "\(lastLocal) -> \(received)")
        // One reading of the frames: stop() does not wait for the pipeline to go, so a frame
        // already on its way may still arrive (once, under load, between two readings).
        let records = local.records
        let localNumbers = records.compactMap(\.number)
        #expect(localNumbers.count == records.count, "\(records.map { "\($0.sink)\($0)" })")
        #expect(FrameRun.isConsecutive(records.filter { $0.sink == "before" }.compactMap(\.number)))
        #expect(FrameRun.isConsecutive(records.filter { $0.sink == "after" }.compactMap(\.number)))

        let external = recorder.events.compactMap { event -> Bool? in
            if case .externalPlaybackActiveChanged(let active) = event { return active }
            return nil
        }
        #expect(external == [true, false])
        #expect(recorder.events.filter { $0 == .videoSinkChanged }.count == 2)
    }
}
