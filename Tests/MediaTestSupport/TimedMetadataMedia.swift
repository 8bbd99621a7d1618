import Foundation

/// Movies with timed metadata for tests, made from clips GStreamer encodes.
public enum TimedMetadataMedia {
    /// 3.5 s of H.264 bars (30 fps, a keyframe every half second) in MPEG-TS, no metadata.
    public static let transportStream = TestMedia.Clip(
        fileExtension: "ts",
        pipeline: """
            videotestsrc num-buffers=105 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! mpegtsmux ! filesink location=LOCATION
            """)

    /// The same, 10 s long (a test that must find items ahead of wherever a busy machine let it
    /// pause).
    public static let longTransportStream = TestMedia.Clip(
        fileExtension: "ts",
        pipeline: """
            videotestsrc num-buffers=300 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! mpegtsmux ! filesink location=LOCATION
            """)

    /// 3 s of a sine tone as AAC in ADTS frames (packed audio, as an HLS audio-only segment).
    public static let packedAudio = TestMedia.Clip(
        fileExtension: "aac",
        pipeline: """
            audiotestsrc num-buffers=130 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! \
            aacparse ! audio/mpeg,stream-format=adts ! filesink location=LOCATION
            """)

    /// The TS clip with an ID3 timed-metadata stream carrying `tags` (time from the first frame,
    /// tag bytes), written to a new file in `folder`.
    public static func transportStream(
        with tags: [(time: Duration, bytes: [UInt8])], in folder: URL, name: String = "timed.ts",
        clip: TestMedia.Clip = transportStream
    ) async throws -> URL {
        let plain = try Data(contentsOf: try await TestMedia.url(for: clip))
        let bytes = try TimedMetadataTransportStream.adding(id3Tags: tags, to: Array(plain))
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// The AAC clip with `tag` in front of it, written to a new file in `folder`.
    public static func packedAudio(withTag tag: [UInt8], in folder: URL) async throws -> URL {
        let audio = try Data(contentsOf: try await TestMedia.url(for: packedAudio))
        let url = folder.appendingPathComponent("packed.aac")
        try (Data(tag) + audio).write(to: url)
        return url
    }
}
