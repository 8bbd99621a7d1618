import Foundation
import MediaEngine

/// HLS and DASH streams of the numbered bars (``FrameNumber``: the bars scroll 4 pixels a frame
/// at 320 pixels wide, so a frame's number modulo 80 can be read from its pixels), made with
/// GStreamer's `hlssink2` and `dashsink` the first time a test asks, and kept in the test media
/// folder under a name derived from the pipeline.
public enum AdaptiveStreamMedia {
    /// Frames per second of every stream.
    public static let framesPerSecond = 30

    /// Three HLS variants of 6 s of the bars in 2-second MPEG-TS segments, and `master.m3u8`
    /// listing them highest first (as a server that wants the best picture at once would):
    /// `high.m3u8` 640x480 (1.8 Mbit/s), `mid.m3u8` 320x240 (650 kbit/s), `low.m3u8`
    /// 160x120 (250 kbit/s); segments `high000.ts` ... `low002.ts`.
    public static func hlsVariants() async throws -> URL {
        try await folder(
            named: "hls-variants",
            complete: ["low.m3u8": "#EXT-X-ENDLIST", "mid.m3u8": "#EXT-X-ENDLIST", "high.m3u8": "#EXT-X-ENDLIST"],
            pipeline: """
                videotestsrc num-buffers=180 pattern=smpte horizontal-speed=4 ! \
                video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! tee name=t \
                t. ! queue ! videoscale ! video/x-raw,width=160,height=120 ! \(encoder(150)) ! \(hls("low", 2)) \
                t. ! queue ! \(encoder(500)) ! \(hls("mid", 2)) \
                t. ! queue ! videoscale ! video/x-raw,width=640,height=480 ! \(encoder(1500)) ! \(hls("high", 2))
                """,
            extraFiles: [
                "master.m3u8": """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1800000,RESOLUTION=640x480
                high.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=650000,RESOLUTION=320x240
                mid.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x120
                low.m3u8

                """
            ])
    }

    /// 10 two-second MPEG-TS segments of the bars at 160x120 (`seg000.ts` ... `seg009.ts`), and
    /// no playlist: a live test writes its own, growing.
    public static func liveSegments() async throws -> URL {
        try await folder(
            named: "hls-live", complete: ["seg.m3u8": "#EXT-X-ENDLIST"],
            pipeline: """
                videotestsrc num-buffers=600 pattern=smpte horizontal-speed=4 ! \
                video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! videoscale ! \
                video/x-raw,width=160,height=120 ! \(encoder(150)) ! \(hls("seg", 2))
                """,
            extraFiles: [:])
    }

    /// A scratch folder holding (links to) the ten ``liveSegments()`` and `files` (name and text):
    /// for a test that writes its own playlist or manifest of them. The caller removes it.
    public static func liveSegmentsFolder(with files: [String: String]) async throws -> URL {
        let segments = try await liveSegments()
        let folder = try TestMedia.scratchDirectory()
        for index in 0..<10 {
            let name = String(format: "seg%03d.ts", index)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: segments.appendingPathComponent(name))
        }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// 6 s of the bars at 320x240 as DASH (`manifest.mpd`, 2-second MPEG-TS segments).
    public static func dash() async throws -> URL {
        try await folder(
            named: "dash", complete: ["manifest.mpd": "mediaPresentationDuration"],
            pipeline: """
                videotestsrc num-buffers=180 pattern=smpte horizontal-speed=4 ! \
                video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \(encoder(500)) ! \
                d.video_0 dashsink name=d mpd-root-path=FOLDER mpd-filename=manifest.mpd target-duration=2
                """,
            extraFiles: [:])
    }

    /// A DASH manifest of the ``hlsVariants()`` ladder's segments: one adaptation set, three
    /// representations (`high`, `mid`, `low`), 6 s in 2-second MPEG-TS segments.
    public static let dashLadder = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" \
        type="static" mediaPresentationDuration="PT6S" minBufferTime="PT2S">
        <Period id="p0"><AdaptationSet id="1" contentType="video" mimeType="video/mp2t">
        <SegmentTemplate media="$RepresentationID$$Number%03d$.ts" startNumber="0" duration="2" timescale="1"/>
        <Representation id="high" bandwidth="1800000" width="640" height="480" codecs="avc1"/>
        <Representation id="mid" bandwidth="650000" width="320" height="240" codecs="avc1"/>
        <Representation id="low" bandwidth="250000" width="160" height="120" codecs="avc1"/>
        </AdaptationSet></Period></MPD>

        """

    /// A scratch folder holding ``dashLadder`` as `ladder.mpd` and (links to) the segments of
    /// ``hlsVariants()``. The caller removes it.
    public static func dashLadderFolder() async throws -> URL {
        let ladder = try await hlsVariants()
        let folder = try TestMedia.scratchDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: ladder.path) where name.hasSuffix(".ts") {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: ladder.appendingPathComponent(name))
        }
        try dashLadder.write(to: folder.appendingPathComponent("ladder.mpd"), atomically: true, encoding: .utf8)
        return folder
    }

    /// A live playlist (no `EXT-X-ENDLIST`) of `segments` of ``liveSegments()``, two seconds each.
    public static func livePlaylist(_ segments: Range<Int>) -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:\(segments.lowerBound)",
        ]
        for index in segments {
            lines += ["#EXTINF:2.0,", String(format: "seg%03d.ts", index)]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func encoder(_ kilobits: Int) -> String {
        "x264enc bitrate=\(kilobits) key-int-max=10 speed-preset=ultrafast ! h264parse"
    }

    private static func hls(_ name: String, _ seconds: Int) -> String {
        "hlssink2 location=FOLDER/\(name)%03d.ts playlist-location=FOLDER/\(name).m3u8 target-duration=\(seconds) "
            + "max-files=0 playlist-length=0"
    }

    private static let inFlight = Locked<[String: Task<URL, any Error>]>([:])

    /// How long `gst-launch-1.0` may take. GStreamer 1.22.0's `dashsink`, and now and then
    /// `hlssink2`, hang after writing their last file (dashsink in 3 runs of 4 here, with the
    /// manifest and every segment complete): the pipeline runs under `timeout -s KILL` (a process
    /// started by a test ignores SIGTERM: it inherits blocked signals), and a run that timed out
    /// counts when every file of `complete` holds its closing text.
    private static let generationTimeout = 8

    /// The folder made by `pipeline` (`FOLDER` standing for it) plus `extraFiles`, made once;
    /// `complete` names the files and the text that says each is finished.
    private static func folder(
        named name: String, complete: [String: String], pipeline: String, extraFiles: [String: String]
    ) async throws -> URL {
        let task = inFlight.withLock { tasks in
            if let task = tasks[name] { return task }
            let task = Task {
                try await make(named: name, complete: complete, pipeline: pipeline, extraFiles: extraFiles)
            }
            tasks[name] = task
            return task
        }
        return try await task.value
    }

    private static func make(
        named name: String, complete: [String: String], pipeline: String, extraFiles: [String: String]
    ) async throws -> URL {
        let key = (pipeline + extraFiles.keys.sorted().map { $0 + extraFiles[$0]! }.joined()).utf8
            .reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let folder = TestMedia.directory.appendingPathComponent(name + "-" + String(format: "%016llx", key))
        if FileManager.default.fileExists(atPath: folder.path) { return folder }
        let partial = TestMedia.directory.appendingPathComponent("partial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        let command = pipeline.replacingOccurrences(of: "FOLDER", with: partial.path)
        let arguments =
            ["-s", "KILL", "\(generationTimeout)", "gst-launch-1.0", "-q"]
            + command.split(separator: " ").map(String.init)
        let result = try await ProcessRunner.run("timeout", arguments)
        let finished = complete.allSatisfy { file, text in
            let contents = try? String(contentsOf: partial.appendingPathComponent(file), encoding: .utf8)
            return contents?.contains(text) == true
        }
        guard (result.status == 0 || result.status == 124 || result.status == 137) && finished else {
            try? FileManager.default.removeItem(at: partial)
            throw TestMediaError(message: "gst-launch-1.0 failed (\(result.status)): \(result.standardError)")
        }
        for (file, text) in extraFiles {
            try text.write(to: partial.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        if (try? FileManager.default.moveItem(at: partial, to: folder)) == nil {
            try? FileManager.default.removeItem(at: partial)  // made meanwhile by another process
        }
        return folder
    }
}
