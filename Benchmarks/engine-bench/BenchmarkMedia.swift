import Foundation

/// The movies the benchmarks play, made once with gst-launch-1.0 and kept under `.build/bench-media`.
enum BenchmarkMedia {
    static let directory = URL(fileURLWithPath: ".build/bench-media", isDirectory: true)

    /// 1920x1080, 30 fps, 10 s of scrolling colour bars, H.264 (x264, 8 Mbit/s, 2-second GOP) in MP4, no sound.
    static func fullHD() throws -> URL {
        try make(
            "fullhd-h264-bars.mp4",
            """
            videotestsrc num-buffers=300 pattern=smpte horizontal-speed=7 ! \
            video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=60 bitrate=8000 ! h264parse ! mp4mux faststart=true ! \
            filesink location=OUT
            """)
    }

    /// The 1080p bars of ``fullHD()`` with 10 s of AAC sound (a sine, 48 kHz stereo): the qos
    /// benchmark's movie, where the sound must go on while the pictures cannot keep up.
    static func fullHDWithSound() throws -> URL {
        try make(
            "fullhd-h264-aac-bars.mp4",
            """
            videotestsrc num-buffers=300 pattern=smpte horizontal-speed=7 ! \
            video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=60 bitrate=8000 ! h264parse ! mp4mux name=mux faststart=true ! \
            filesink location=OUT audiotestsrc num-buffers=469 samplesperbuffer=1024 ! \
            audio/x-raw,rate=48000,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)
    }

    /// The same bars in H.265 (x265, 6 Mbit/s, 2-second GOP) in MP4, no sound.
    static func fullHDHEVC() throws -> URL {
        try make(
            "fullhd-h265-bars.mp4",
            """
            videotestsrc num-buffers=300 pattern=smpte horizontal-speed=7 ! \
            video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
            x265enc speed-preset=ultrafast key-int-max=60 bitrate=6000 ! h265parse ! mp4mux faststart=true ! \
            filesink location=OUT
            """)
    }

    /// 1280x720, 30 fps, 2 s, H.264 with AAC sound in MP4: an ordinary movie to open.
    static func hd720() throws -> URL {
        try make(
            "hd720-h264-aac.mp4",
            """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=30 ! h264parse ! mp4mux name=mux faststart=true ! \
            filesink location=OUT audiotestsrc num-buffers=87 ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! \
            avenc_aac ! mux.
            """)
    }

    /// 1280x720, 30 fps, 10 s, H.264 with AAC sound in MP4: many players' movie.
    static func hd720Long() throws -> URL {
        try make(
            "hd720-h264-aac-10s.mp4",
            """
            videotestsrc num-buffers=300 pattern=smpte horizontal-speed=3 ! \
            video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=30 ! h264parse ! mp4mux name=mux faststart=true ! \
            filesink location=OUT audiotestsrc num-buffers=431 ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! \
            avenc_aac ! mux.
            """)
    }

    /// 1280x720, 30 fps, 2 s of scrolling bars, H.264 in MP4, no sound: the loop benchmark's movie.
    static func hd720Silent() throws -> URL {
        try make(
            "hd720-h264-silent.mp4",
            """
            videotestsrc num-buffers=60 pattern=smpte horizontal-speed=5 ! \
            video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=30 ! h264parse ! mp4mux faststart=true ! filesink location=OUT
            """)
    }

    /// 1280x720, 30 fps, 2 s of scrolling bars, H.264 without B-frames in MP4, no sound: the
    /// pre-roll benchmark's ad. Without B-frames because the ad comes over HTTP, where qtdemux
    /// reads in push mode and, for a file with B-frames (an edit list), drops the last frame
    /// (59 of 60 with `gst-launch-1.0 souphttpsrc ! qtdemux ! fakesink`, 60 from `filesrc`): the
    /// hand-over would look a frame longer than it is.
    static func hd720SilentNoBFrames() throws -> URL {
        try make(
            "hd720-h264-silent-ipp.mp4",
            """
            videotestsrc num-buffers=60 pattern=smpte horizontal-speed=5 ! \
            video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
            x264enc speed-preset=veryfast bframes=0 key-int-max=30 ! h264parse ! mp4mux faststart=true ! \
            filesink location=OUT
            """)
    }

    /// 320x240, 30 fps, 2 s of bars, H.264 in MP4, no sound: the pre-roll benchmark's content.
    /// ``hd720SilentNoBFrames()`` with a tone (AAC) that ends before the picture (1.974 s under
    /// 2 s): an ad with sound whose end is its video's.
    static func hd720WithShortSoundNoBFrames() throws -> URL {
        try make(
            "hd720-h264-short-sound-ipp.mp4",
            """
            videotestsrc num-buffers=60 pattern=smpte horizontal-speed=5 ! \
            video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
            x264enc speed-preset=veryfast bframes=0 key-int-max=30 ! h264parse ! mp4mux name=mux faststart=true ! \
            filesink location=OUT \
            audiotestsrc num-buffers=84 ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)
    }

    /// ``smallSilent()`` with a tone (AAC).
    static func smallWithSound() throws -> URL {
        try make(
            "small-h264-sound.mp4",
            """
            videotestsrc num-buffers=60 pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=30 ! h264parse ! mp4mux name=mux faststart=true ! \
            filesink location=OUT \
            audiotestsrc num-buffers=87 ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)
    }

    /// 320x240, 30 fps, 70 s of SMPTE bars scrolling 4 pixels a frame (the tests' numbered clip,
    /// longer: each frame's number modulo 80 reads from its pixels), H.264 (a keyframe a second)
    /// in MP4, no sound: the sync benchmark's movie.
    static func numberedSeventySeconds() throws -> URL {
        try make(
            "numbered-70s-h264.mp4",
            """
            videotestsrc num-buffers=2100 pattern=smpte horizontal-speed=4 ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc speed-preset=ultrafast key-int-max=30 ! h264parse ! mp4mux faststart=true ! filesink location=OUT
            """)
    }

    static func smallSilent() throws -> URL {
        try make(
            "small-h264-silent.mp4",
            """
            videotestsrc num-buffers=60 pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=30 ! h264parse ! mp4mux faststart=true ! filesink location=OUT
            """)
    }

    /// 1920x1080, 30 fps, 120 s, H.264 (x264 veryfast, 8 Mbit/s, a keyframe every 60 frames:
    /// 2-second GOPs, no scene-cut keyframes) with AAC sound, in MP4: the thumbnail benchmark's
    /// movie. The bars scroll 24 pixels a frame, so in a 320-pixel-wide thumbnail they move 4
    /// pixels a frame and each thumbnail's frame number (modulo 80) can be read from its pixels.
    static func fullHDLong() throws -> URL {
        try make(
            "fullhd-120s-h264-aac.mp4",
            """
            videotestsrc num-buffers=3600 pattern=smpte horizontal-speed=24 ! \
            video/x-raw,format=I420,width=1920,height=1080,framerate=30/1 ! \
            x264enc speed-preset=veryfast key-int-max=60 bitrate=8000 option-string=scenecut=0 ! h264parse ! \
            mp4mux name=mux faststart=true ! filesink location=OUT audiotestsrc num-buffers=5168 ! \
            audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)
    }

    /// An HLS ladder of 12 s of scrolling bars in 2-second MPEG-TS segments (hlssink2), three
    /// variants, and `master.m3u8` listing them highest first as the HLS authoring guide has it
    /// (the first variant listed is the one a client without a bandwidth estimate starts on):
    /// 1280x720 at 3 Mbit/s, 640x360 at 1 Mbit/s, 320x180 at 300 kbit/s, H.264 (x264 veryfast,
    /// a keyframe every 2 s), no sound.
    static func hlsLadder() throws -> URL {
        let folder = directory.appendingPathComponent("hls-ladder")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("master.m3u8").path) { return folder }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func variant(_ name: String, _ width: Int, _ height: Int, _ kilobits: Int) -> String {
            """
            t. ! queue ! videoscale ! video/x-raw,width=\(width),height=\(height) ! \
            x264enc speed-preset=veryfast key-int-max=60 bitrate=\(kilobits) ! h264parse ! \
            hlssink2 location=\(folder.path)/\(name)%03d.ts playlist-location=\(folder.path)/\(name).m3u8 \
            target-duration=2 max-files=0 playlist-length=0
            """
        }
        let pipeline = """
            videotestsrc num-buffers=360 pattern=smpte horizontal-speed=5 ! \
            video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! tee name=t \
            \(variant("high", 1280, 720, 3000)) \(variant("mid", 640, 360, 1000)) \(variant("low", 320, 180, 300))
            """
        FileHandle.standardError.write(Data("engine-bench: making an HLS ladder...\n".utf8))
        let status = try Command.run("gst-launch-1.0", ["-q"] + pipeline.split(separator: " ").map(String.init))
        guard status == 0 else { throw BenchmarkError("gst-launch-1.0 could not make the HLS ladder") }
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=3300000,RESOLUTION=1280x720
            high.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1100000,RESOLUTION=640x360
            mid.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=350000,RESOLUTION=320x180
            low.m3u8

            """
        try master.write(to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        return folder
    }

    static func make(_ name: String, _ pipeline: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = directory.appendingPathComponent("partial-" + name)
        let arguments =
            ["-q"] + pipeline.replacingOccurrences(of: "OUT", with: partial.path).split(separator: " ").map(String.init)
        FileHandle.standardError.write(Data("engine-bench: making \(name)...\n".utf8))
        let status = try Command.run("gst-launch-1.0", arguments)
        guard status == 0 else { throw BenchmarkError("gst-launch-1.0 could not make \(name)") }
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }
}

/// Runs other programs.
enum Command {
    /// Runs `program` with `arguments` (found on PATH), its output discarded; returns its exit status.
    static func run(_ program: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs a program and returns how long it took, wall clock.
    static func time(_ program: String, _ arguments: [String]) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let status = try run(program, arguments)
        guard status == 0 else {
            throw BenchmarkError("\(program) \(arguments.joined(separator: " ")) failed (\(status))")
        }
        return clock.now - start
    }

    /// Whether a program is on PATH.
    static func exists(_ program: String) -> Bool {
        (try? run("which", [program])) == 0
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
