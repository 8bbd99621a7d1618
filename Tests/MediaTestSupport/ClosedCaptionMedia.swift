import Foundation

/// Movies whose H.264 video carries CEA-608 closed captions the way broadcast and streaming
/// video does: ATSC A/53 `cc_data` in an SEI message (user data registered by ITU-T T.35, "GA94")
/// in front of each picture. x264 writes no captions, so the SEI messages are added to its byte
/// stream here, and GStreamer muxes the result into MPEG-TS, then MP4.
public enum ClosedCaptionMedia {
    /// Black 320x240 at 30 fps, H.264 without B-frames (the SEI order is then the display order),
    /// a keyframe every half second, as a byte stream with an access unit delimiter per picture.
    static func plainStream(frames: Int) -> TestMedia.Clip {
        TestMedia.Clip(
            fileExtension: "h264",
            pipeline: """
                videotestsrc num-buffers=\(frames) pattern=black ! \
                video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
                x264enc key-int-max=15 bframes=0 speed-preset=ultrafast aud=true ! \
                video/x-h264,stream-format=byte-stream,alignment=au ! filesink location=LOCATION
                """)
    }

    /// A movie of `frames` frames whose frame `n` carries the field-1 pair `captions[n]` (CC1
    /// and CC2; padding where there is none) and the CEA-708 triplets `services[n]`. Made once
    /// per content and kept with the other test media (its name is a hash of the captions), so
    /// tests that play it do not encode and mux beside other tests' timing bounds.
    public static func movie(
        frames: Int, captions: [Int: CEA608Writer.Pair], services: [Int: [CEA708Writer.Triplet]] = [:]
    ) async throws -> URL {
        let plain = [UInt8](try Data(contentsOf: try await TestMedia.url(for: plainStream(frames: frames))))
        let captioned = insertingCaptions(captions, services: services, into: plain)
        let output = TestMedia.directory.appendingPathComponent(
            String(
                format: "captioned-%016llx.mp4",
                captioned.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }))
        if FileManager.default.fileExists(atPath: output.path) { return output }
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = folder.appendingPathComponent("captioned.h264")
        try Data(captioned).write(to: stream)
        let transportStream = folder.appendingPathComponent("captioned.ts")
        let partial = folder.appendingPathComponent("captioned.mp4")
        // A byte stream has no timestamps for mp4mux: mpegtsmux gives the frames times from the
        // frame rate, and the MPEG-TS is then remuxed into MP4 (captions stay in the pictures).
        for pipeline in [
            "filesrc location=\(stream.path) ! video/x-h264,stream-format=byte-stream,framerate=30/1 ! h264parse ! "
                + "mpegtsmux ! filesink location=\(transportStream.path)",
            "filesrc location=\(transportStream.path) ! tsdemux ! h264parse ! mp4mux faststart=true ! "
                + "filesink location=\(partial.path)",
        ] {
            let result = try await ProcessRunner.run(
                "gst-launch-1.0", ["-q"] + pipeline.split(separator: " ").map(String.init))
            guard result.status == 0 else {
                throw TestMediaError(message: "gst-launch-1.0 failed (\(result.status)): \(result.standardError)")
            }
        }
        // Another test may have made it meanwhile: the same bytes either way.
        if (try? FileManager.default.moveItem(at: partial, to: output)) == nil,
            !FileManager.default.fileExists(atPath: output.path)
        {
            throw TestMediaError(message: "could not keep \(output.path)")
        }
        return output
    }

    /// Lays caption pairs out one a frame from `frame` on.
    public static func schedule(
        _ pairs: [CEA608Writer.Pair], from frame: Int, into captions: inout [Int: CEA608Writer.Pair]
    ) {
        for (offset, pair) in pairs.enumerated() { captions[frame + offset] = pair }
    }

    /// Lays CEA-708 triplets out from `frame` on, at most `perFrame` a frame (a 30 fps frame has
    /// room for 20 in ATSC's budget).
    public static func schedule(
        _ triplets: [CEA708Writer.Triplet], from frame: Int, perFrame: Int = 10,
        into services: inout [Int: [CEA708Writer.Triplet]]
    ) {
        for (offset, start) in stride(from: 0, to: triplets.count, by: perFrame).enumerated() {
            services[frame + offset, default: []] += triplets[start..<min(start + perFrame, triplets.count)]
        }
    }

    /// `stream` with an A/53 caption SEI in front of the first slice of each picture.
    static func insertingCaptions(
        _ captions: [Int: CEA608Writer.Pair], services: [Int: [CEA708Writer.Triplet]], into stream: [UInt8]
    ) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(stream.count + captions.count * 24)
        var picture = 0
        for unit in nalUnits(stream) {
            let header = unit.payloadStart
            let type = stream[header] & 0x1F
            // A slice (1, or 5 for IDR) whose first_mb_in_slice is 0 (ue(v) "1": the top bit of
            // the byte after the header) starts a picture.
            if type == 1 || type == 5, header + 1 < unit.end, stream[header + 1] & 0x80 != 0 {
                let pair = captions[picture] ?? CEA608Writer.padding
                output += seiNAL([(0xFC, pair.0, pair.1)] + (services[picture] ?? []))
                picture += 1
            }
            output += stream[unit.start..<unit.end]
        }
        return output
    }

    private struct NALUnit {
        var start: Int
        var payloadStart: Int
        var end: Int
    }

    /// The NAL units of an Annex B byte stream, each from its start code.
    private static func nalUnits(_ stream: [UInt8]) -> [NALUnit] {
        var starts: [(start: Int, payload: Int)] = []
        var index = 0
        while index + 3 <= stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                let start = index > 0 && stream[index - 1] == 0 ? index - 1 : index
                starts.append((start, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().compactMap { offset, unit in
            let end = offset + 1 < starts.count ? starts[offset + 1].start : stream.count
            return unit.payload < end ? NALUnit(start: unit.start, payloadStart: unit.payload, end: end) : nil
        }
    }

    /// An SEI NAL unit with one A/53 `cc_data` construct holding `triplets` (the first, a
    /// CEA-608 field-1 pair: marker bits, cc_valid, cc_type 0).
    private static func seiNAL(_ triplets: [CEA708Writer.Triplet]) -> [UInt8] {
        let data = triplets.prefix(31).flatMap { [$0.0, $0.1, $0.2] }
        let payload: [UInt8] =
            [0xB5, 0x00, 0x31] + Array("GA94".utf8) + [
                0x03,  // user_data_type_code: cc_data
                0x40 | UInt8(min(triplets.count, 31)),  // process_cc_data_flag, cc_count
                0xFF,  // em_data
            ] + data + [0xFF]  // marker bits
        // payloadType 4 (user data registered by ITU-T T.35), its size, the payload, rbsp trailing bits.
        let body = [4, UInt8(payload.count)] + payload + [0x80]
        var escaped: [UInt8] = []
        var zeros = 0
        for byte in body {
            if zeros >= 2, byte <= 3 {
                escaped.append(3)  // emulation prevention
                zeros = 0
            }
            escaped.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return [0, 0, 0, 1, 0x06] + escaped
    }
}
