import Foundation
import MediaEngine

/// Small movies made with GStreamer (`gst-launch-1.0`) the first time a test asks for them,
/// kept in the temporary directory under a name derived from their pipeline so later runs
/// reuse them.
public enum TestMedia {
    /// A clip and the pipeline that makes it.
    public struct Clip: Sendable, Hashable {
        /// The file name's extension.
        public let fileExtension: String
        /// The `gst-launch-1.0` pipeline; `LOCATION` stands for the output file. One that starts
        /// with `ffmpeg ` is the arguments of an `ffmpeg` command instead, for what GStreamer's
        /// encoders on Debian 12 cannot make (see ``mpeg4Part2``).
        public let pipeline: String

        /// Creates a clip description.
        public init(fileExtension: String, pipeline: String) {
            self.fileExtension = fileExtension
            self.pipeline = pipeline
        }
    }

    /// SMPTE colour bars, 320x240, 30 fps, 2 s, H.264 in MP4 (moov first), no audio.
    public static let bars = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// 60 frames (2 s at 30 fps) of SMPTE bars scrolling left 4 pixels a frame, so each frame's
    /// number can be read from its pixels (``FrameNumber``). Keyframe every 10 frames, no audio.
    public static let numbered = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte horizontal-speed=4 ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// The numbered bars of ``numbered`` for 10 s (300 frames; ``FrameNumber`` reads their number
    /// modulo 80), keyframe every 30 frames, no audio: what the playback groups' tests play.
    public static let numberedLong = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=300 pattern=smpte horizontal-speed=4 ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=30 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! \
            filesink location=LOCATION
            """)

    /// A ball moving over black, 328x184 (neither a multiple of 16 high nor of 64 wide, so
    /// decoders pad and crop), 45 frames with three B-frames between references: decoders
    /// must reorder. H.264 in MP4.
    public static let ballWithBFrames = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=45 pattern=ball ! video/x-raw,format=I420,width=328,height=184,framerate=30/1 ! \
            x264enc bframes=3 b-adapt=false key-int-max=15 speed-preset=superfast ! h264parse ! \
            mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// The ball, interlaced (x264's field coding), 320x240, 20 frames, H.264 in MP4.
    public static let interlacedBall = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=20 pattern=ball ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1,interlace-mode=interleaved ! \
            x264enc interlaced=true key-int-max=10 speed-preset=superfast ! h264parse ! \
            mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// The ball of ``ballWithBFrames`` in H.265 (x265, with its B-frames), 328x184, 45 frames, MP4.
    public static let ballHEVC = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=45 pattern=ball ! video/x-raw,format=I420,width=328,height=184,framerate=30/1 ! \
            x265enc speed-preset=superfast key-int-max=15 ! h265parse ! mp4mux faststart=true ! \
            filesink location=LOCATION
            """)

    /// The ball in 10-bit H.265 (Main 10), 320x240, 20 frames, MP4.
    public static let ballHEVC10 = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=20 pattern=ball ! \
            video/x-raw,format=I420_10LE,width=320,height=240,framerate=30/1 ! \
            x265enc speed-preset=superfast key-int-max=10 ! h265parse ! mp4mux faststart=true ! \
            filesink location=LOCATION
            """)

    /// The same ball at 160x120 as a raw H.264 byte stream (no container), 20 frames.
    public static let smallBallStream = Clip(
        fileExtension: "h264",
        pipeline: """
            videotestsrc num-buffers=20 pattern=ball ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! video/x-h264,stream-format=byte-stream ! \
            filesink location=LOCATION
            """)

    /// The same ball at 320x240 as a raw H.264 byte stream, 20 frames.
    public static let largeBallStream = Clip(
        fileExtension: "h264",
        pipeline: """
            videotestsrc num-buffers=20 pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! video/x-h264,stream-format=byte-stream ! \
            filesink location=LOCATION
            """)

    /// The numbered clip with a tone, for tests that need sound too.
    public static let numberedWithAudio = numbered(withSoundBuffers: 87)

    /// The numbered clip with a tone that ends before the picture (1.974 s of AAC, its priming
    /// frame included, under 2 s of video): a movie whose end is its video's.
    public static let numberedWithShortSound = numbered(withSoundBuffers: 84)

    /// The numbered clip with `buffers` AAC frames of a tone (1024 samples each at 44.1 kHz).
    private static func numbered(withSoundBuffers buffers: Int) -> Clip {
        Clip(
            fileExtension: "mp4",
            pipeline: """
                videotestsrc num-buffers=60 pattern=smpte horizontal-speed=4 ! \
                video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
                x264enc key-int-max=10 speed-preset=ultrafast ! h264parse ! mp4mux name=mux faststart=true ! \
                filesink location=LOCATION \
                audiotestsrc num-buffers=\(buffers) wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! \
                avenc_aac ! mux.
                """)
    }

    /// 3 s of video with two audio tracks: English at 440 Hz, a commentary in French at 880 Hz.
    public static let twoLanguages = Clip(
        fileExtension: "mkv",
        pipeline: """
            videotestsrc num-buffers=90 pattern=smpte horizontal-speed=4 ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc speed-preset=ultrafast key-int-max=10 ! h264parse ! matroskamux name=mux ! filesink location=LOCATION \
            audiotestsrc num-buffers=130 freq=440 ! audio/x-raw,rate=44100,channels=1 ! \
            taginject tags="language-code=en,title=English" ! audioconvert ! vorbisenc ! mux. \
            audiotestsrc num-buffers=130 freq=880 ! audio/x-raw,rate=44100,channels=1 ! \
            taginject tags="language-code=fr,title=Commentary" ! audioconvert ! vorbisenc ! mux.
            """)

    /// Bars with a tone in WebM (VP8 and Vorbis) whose sound ends before the picture (1.95 s
    /// under 2 s).
    public static let barsWithShortSoundWebM = Clip(
        fileExtension: "webm",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            vp8enc deadline=1 keyframe-max-dist=15 ! webmmux name=mux ! filesink location=LOCATION \
            audiotestsrc num-buffers=84 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! vorbisenc ! mux.
            """)

    /// 20 seconds of small bars with a tone (AAC): long enough that playing it at the clock's
    /// pace and playing it flat out cannot be confused, however busy the machine.
    public static let longBarsWithAudio = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=600 pattern=smpte ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! \
            x264enc key-int-max=30 speed-preset=ultrafast ! h264parse ! mp4mux name=mux faststart=true ! \
            filesink location=LOCATION \
            audiotestsrc num-buffers=862 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)

    /// 60 seconds of small bars, keyframe every 10 frames: for scanning, which runs through a
    /// 2-second clip before a test on a busy machine gets to stop it.
    public static let longBars = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=1800 pattern=smpte horizontal-speed=2 ! \
            video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// The numbered bars at a high bitrate (about 2 Mbit/s), for streams that must outrun a slow server.
    public static let heavyNumbered = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=120 pattern=snow ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc bitrate=2000 key-int-max=30 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! \
            filesink location=LOCATION
            """)

    /// The numbered bars in MPEG-TS, whose demuxer cannot play backwards.
    public static let numberedTransportStream = Clip(
        fileExtension: "ts",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte horizontal-speed=4 ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! h264parse ! mpegtsmux ! filesink location=LOCATION
            """)

    /// The same bars with the moov box at the end (mp4mux's default layout).
    public static let barsMoovAtEnd = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! mp4mux ! filesink location=LOCATION
            """)

    /// SMPTE bars 320x240 with a 440 Hz tone in AAC, 2 s, MP4.
    public static let barsWithAudio = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! mp4mux name=mux faststart=true ! \
            filesink location=LOCATION \
            audiotestsrc num-buffers=87 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)

    /// ``barsWithAudio`` with the moov box at the end (mp4mux's default layout), sound and
    /// video interleaved.
    public static let barsWithAudioMoovAtEnd = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! mp4mux name=mux ! \
            filesink location=LOCATION \
            audiotestsrc num-buffers=87 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)

    /// Ten frames of bars as Motion JPEG in Matroska, 320x240: each frame a JPEG with its own header.
    public static let motionJPEG = Clip(
        fileExtension: "mkv",
        pipeline: """
            videotestsrc num-buffers=10 pattern=smpte ! video/x-raw,width=320,height=240,framerate=10/1 ! jpegenc ! \
            matroskamux ! filesink location=LOCATION
            """)

    /// Bars with a tone in WebM (VP8 and Vorbis), 2 s, clusters and cues as webmmux writes them.
    public static let barsWithAudioWebM = Clip(
        fileExtension: "webm",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            vp8enc deadline=1 keyframe-max-dist=15 ! webmmux name=mux ! filesink location=LOCATION \
            audiotestsrc num-buffers=87 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! vorbisenc ! mux.
            """)

    /// The bars with a tone, 1 s, tagged `title=Bars`, `artist=Engine`, `album=Tests` (taginject
    /// before mp4mux, which writes them as the `©nam`, `©ART` and `©alb` boxes).
    public static let taggedBarsWithAudio = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=30 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! taginject tags=title=Bars,artist=Engine,album=Tests ! \
            mp4mux name=mux faststart=true ! filesink location=LOCATION \
            audiotestsrc num-buffers=44 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux.
            """)

    /// A tone with no video, Vorbis in Ogg, 1 s.
    public static let audioOnly = Clip(
        fileExtension: "ogg",
        pipeline: """
            audiotestsrc num-buffers=44 wave=sine ! audio/x-raw,rate=44100,channels=1 ! audioconvert ! vorbisenc ! \
            oggmux ! filesink location=LOCATION
            """)

    /// Bars in VP8/WebM, to be saved under a misleading `.mp4` name by the test.
    public static let barsWebM = Clip(
        fileExtension: "webm",
        pipeline: """
            videotestsrc num-buffers=30 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            vp8enc deadline=1 ! webmmux ! filesink location=LOCATION
            """)

    /// A wide clip with square pixels stretched by a 2:1 pixel aspect ratio: 200x100 stored, 400x100 shown.
    public static let anamorphic = Clip(
        fileExtension: "mkv",
        pipeline: """
            videotestsrc num-buffers=10 pattern=smpte ! \
            video/x-raw,format=I420,width=200,height=100,framerate=10/1,pixel-aspect-ratio=2/1 ! \
            x264enc speed-preset=ultrafast ! h264parse ! matroskamux ! filesink location=LOCATION
            """)

    /// The ball, interlaced, 320x180 with a 225:4 pixel aspect ratio: a display aspect of 100:1,
    /// so fitted into a 4:3 output the picture is about 3 rows tall. 15 frames, H.264 in MP4.
    public static let interlacedHundredToOne = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=15 pattern=ball ! \
            video/x-raw,format=I420,width=320,height=180,framerate=30/1,interlace-mode=interleaved,\
            pixel-aspect-ratio=225/4 ! \
            x264enc interlaced=true key-int-max=10 speed-preset=superfast ! h264parse ! \
            mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// SMPTE bars 320x240 whose pixels are 65535 times as wide as they are high (a pixel aspect
    /// ratio of 65535:1, shown 20,971,200 pixels wide): 15 frames, H.264 in MP4.
    public static let extremelyWidePixels = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=15 pattern=smpte ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1,pixel-aspect-ratio=65535/1 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! \
            filesink location=LOCATION
            """)

    /// The same bars with pixels 65535 times as high as they are wide (1:65535), 15 frames.
    public static let extremelyTallPixels = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=15 pattern=smpte ! \
            video/x-raw,format=I420,width=320,height=240,framerate=30/1,pixel-aspect-ratio=1/65535 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! \
            filesink location=LOCATION
            """)

    /// Wide (16:9) SMPTE bars, 320x180, 1 s, H.264 in MP4.
    public static let wideBars = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=30 pattern=smpte ! video/x-raw,format=I420,width=320,height=180,framerate=30/1 ! \
            x264enc speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// One PNG image (a still, not a movie).
    public static let image = Clip(
        fileExtension: "png",
        pipeline: """
            videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=RGB,width=64,height=48 ! pngenc ! \
            filesink location=LOCATION
            """)

    /// A 40x30 PNG of red at 50 % alpha, for image overlays.
    public static let translucentRedPNG = Clip(
        fileExtension: "png",
        pipeline: """
            videotestsrc num-buffers=1 pattern=solid-color foreground-color=0x80ff0000 ! \
            video/x-raw,format=RGBA,width=40,height=30 ! pngenc ! filesink location=LOCATION
            """)

    /// A 64x48 JPEG of SMPTE bars, for image overlays.
    public static let barsJPEG = Clip(
        fileExtension: "jpg",
        pipeline: """
            videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=I420,width=64,height=48 ! jpegenc quality=95 ! \
            filesink location=LOCATION
            """)

    /// A 1280x720 H.264 clip of 60 frames, for benchmarks.
    public static let hd720 = Clip(
        fileExtension: "mp4",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
            x264enc key-int-max=30 speed-preset=ultrafast ! h264parse ! mp4mux faststart=true ! filesink location=LOCATION
            """)

    /// 5 s of small bars at 30 fps with a keyframe every `gop` frames, for keyframe seeks: H.264
    /// in MP4 (with `bframes` B-frames between references, so composition offsets and an edit
    /// list), and with an AAC tone when `audio` (whose 1024-sample frames do not line up with
    /// the video's keyframes).
    public static func keyframes(gop: Int, bframes: Int = 0, audio: Bool) -> Clip {
        Clip(
            fileExtension: "mp4",
            pipeline: """
                videotestsrc num-buffers=150 pattern=smpte ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! \
                x264enc key-int-max=\(gop) bframes=\(bframes) b-adapt=false speed-preset=ultrafast ! h264parse ! \
                mp4mux name=mux faststart=true ! filesink location=LOCATION
                """
                    + (audio
                        ? " audiotestsrc num-buffers=216 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! avenc_aac ! mux."
                        : ""))
    }

    /// The same in VP8/WebM, with a Vorbis tone when `audio`.
    public static func keyframesWebM(gop: Int, audio: Bool) -> Clip {
        Clip(
            fileExtension: "webm",
            pipeline: """
                videotestsrc num-buffers=150 pattern=smpte ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! \
                vp8enc deadline=1 keyframe-max-dist=\(gop) ! webmmux name=mux ! filesink location=LOCATION
                """
                    + (audio
                        ? " audiotestsrc num-buffers=216 wave=sine ! audio/x-raw,rate=44100,channels=2 ! audioconvert ! vorbisenc ! mux."
                        : ""))
    }

    private static let inFlight = Locked<[Clip: Task<URL, any Error>]>([:])

    // MARK: The seed's formats (MPMoviePlayerController: H.264, MPEG-4 Part 2, AAC, MP3; .mov,
    // .mp4, .mpv, .3gp, audio files). Made with ffmpeg where GStreamer cannot: gst-libav 1.22's
    // avenc_mpeg4 on Debian 12's libavcodec stamps its output with times 1/1500 apart (a file of
    // 30 frames lasts 0.067 s, its 3GP a garbled container), and avenc_mpeg2video refuses every
    // caps ("MPEG-1/2 does not support 1000000000/1 fps"): both set the codec's time base to
    // GStreamer's nanoseconds.

    /// MPEG-4 Part 2 (Simple Profile) video with AAC sound in MP4, 320x240, 15 fps, 2 s.
    public static let mpeg4Part2 = Clip(
        fileExtension: "mp4",
        pipeline: """
            ffmpeg -v error -y -f lavfi -i testsrc=size=320x240:rate=15:duration=2 \
            -f lavfi -i sine=frequency=440:duration=2 -c:v mpeg4 -q:v 5 -c:a aac -shortest LOCATION
            """)

    /// MPEG-4 Part 2 video with mono AAC sound in 3GPP, 176x144 (QCIF), 15 fps, 2 s: a phone's movie.
    public static let mpeg4Part2ThreeGPP = Clip(
        fileExtension: "3gp",
        pipeline: """
            ffmpeg -v error -y -f lavfi -i testsrc=size=176x144:rate=15:duration=2 \
            -f lavfi -i sine=frequency=440:duration=2:sample_rate=16000 -c:v mpeg4 -q:v 5 \
            -c:a aac -ac 1 -shortest LOCATION
            """)

    /// MPEG-2 video alone, as an elementary stream (.mpv), 320x240, 25 fps, 2 s: no container, so
    /// no stated duration.
    public static let mpeg2Elementary = Clip(
        fileExtension: "mpv",
        pipeline: """
            ffmpeg -v error -y -f lavfi -i testsrc=size=320x240:rate=25:duration=2 -c:v mpeg2video -q:v 4 \
            -f mpeg2video LOCATION
            """)

    /// H.264 and AAC in a QuickTime movie (.mov), 320x240, 30 fps, 2 s.
    public static let quickTimeMovie = Clip(
        fileExtension: "mov",
        pipeline: """
            videotestsrc num-buffers=60 pattern=smpte ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! mux. \
            audiotestsrc num-buffers=87 ! audioconvert ! avenc_aac ! mux. qtmux name=mux ! filesink location=LOCATION
            """)

    /// An MP3 file: 2 s of a tone, with a Xing header and ID3v2 tags, no video.
    public static let mp3Tone = Clip(
        fileExtension: "mp3",
        pipeline: """
            audiotestsrc num-buffers=87 ! audioconvert ! lamemp3enc ! xingmux ! \
            id3v2mux ! filesink location=LOCATION
            """)

    /// An M4A file: 2 s of a tone in AAC, in MP4, no video.
    public static let m4aTone = Clip(
        fileExtension: "m4a",
        pipeline: """
            audiotestsrc num-buffers=87 ! audioconvert ! avenc_aac ! mp4mux ! filesink location=LOCATION
            """)

    /// Every clip above, for the run that makes them all before the tests that time things
    /// (`make test`'s first step): made on first use otherwise, their encoders would share the
    /// two cores with the first tests' timing bounds.
    public static let allClips: [Clip] = [
        bars,
        numbered,
        numberedLong,
        ballWithBFrames,
        interlacedBall,
        ballHEVC,
        ballHEVC10,
        smallBallStream,
        largeBallStream,
        numberedWithAudio,
        numberedWithShortSound,
        barsWithShortSoundWebM,
        twoLanguages,
        longBarsWithAudio,
        longBars,
        heavyNumbered,
        numberedTransportStream,
        barsMoovAtEnd,
        barsWithAudio,
        barsWithAudioMoovAtEnd,
        motionJPEG,
        barsWithAudioWebM,
        taggedBarsWithAudio,
        audioOnly,
        barsWebM,
        anamorphic,
        interlacedHundredToOne,
        extremelyWidePixels,
        extremelyTallPixels,
        wideBars,
        image,
        translucentRedPNG,
        barsJPEG,
        hd720,
        mpeg4Part2,
        mpeg4Part2ThreeGPP,
        mpeg2Elementary,
        quickTimeMovie,
        mp3Tone,
        m4aTone,
    ]

    /// The clip's file, made on first use.
    /// - Parameter clip: The clip.
    /// - Returns: The file's URL.
    public static func url(for clip: Clip) async throws -> URL {
        let task = inFlight.withLock { tasks in
            if let task = tasks[clip] { return task }
            let task = Task { try await make(clip) }
            tasks[clip] = task
            return task
        }
        return try await task.value
    }

    /// The folder test media live in.
    public static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swift-media-engine-tests")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // Scratch folders of earlier runs (a run that crashed leaves its own behind).
        let anHourAgo = Date().addingTimeInterval(-3600)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        where entry.hasPrefix("scratch-") {
            let path = url.appendingPathComponent(entry).path
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
            if let modified, modified < anHourAgo { try? FileManager.default.removeItem(atPath: path) }
        }
        return url
    }()

    /// A fresh folder for one test's own files.
    public static func scratchDirectory() throws -> URL {
        let url = directory.appendingPathComponent("scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func make(_ clip: Clip) async throws -> URL {
        let name = String(format: "%016llx", stableHash(clip.pipeline)) + "." + clip.fileExtension
        let url = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let partial = directory.appendingPathComponent("partial-\(UUID().uuidString)." + clip.fileExtension)
        let pipeline = clip.pipeline.replacingOccurrences(of: "LOCATION", with: partial.path)
        var words = pipeline.split(separator: " ").map(String.init)
        let tool = words.first == "ffmpeg" ? words.removeFirst() : "gst-launch-1.0"
        let result = try await ProcessRunner.run(tool, tool == "ffmpeg" ? words : ["-q"] + words)
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: partial)
            throw TestMediaError(message: "\(tool) failed (\(result.status)): \(result.standardError)")
        }
        _ = try? FileManager.default.replaceItemAt(url, withItemAt: partial)
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.moveItem(at: partial, to: url)
        }
        return url
    }

    /// FNV-1a, stable across runs (Swift's `hashValue` is seeded per process).
    private static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// A test media file could not be made.
public struct TestMediaError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }

    /// A failure with a message.
    public init(message: String) { self.message = message }
}

extension TestMedia {
    /// The first `fraction` of a clip's bytes, in a file of its own (made once per clip and fraction).
    /// - Parameters:
    ///   - clip: The clip to cut.
    ///   - fraction: How much of it to keep, 0 to 1.
    /// - Returns: The cut file's URL.
    public static func cut(_ clip: Clip, keeping fraction: Double) async throws -> URL {
        let source = try await url(for: clip)
        let target = directory.appendingPathComponent("cut\(Int(fraction * 1000))-" + source.lastPathComponent)
        if FileManager.default.fileExists(atPath: target.path) { return target }
        let data = try Data(contentsOf: source)
        let partial = directory.appendingPathComponent("partial-\(UUID().uuidString)." + clip.fileExtension)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: partial)
        if (try? FileManager.default.moveItem(at: partial, to: target)) == nil {
            try? FileManager.default.removeItem(at: partial)  // another test made it first
        }
        return target
    }

    /// Two seconds of black (320x240, 30 fps, H.264) in Matroska with one SRT subtitle track of
    /// two cues: "Hello subtitles" from 0.2 to 0.9 s, and "Second <i>line</i>" (italics, as SRT
    /// writes them) from 1.1 to 1.8 s. Nothing is drawn between them.
    public static func subtitledBlack() async throws -> URL {
        let srt = directory.appendingPathComponent("two-cues.srt")
        if !FileManager.default.fileExists(atPath: srt.path) {
            let text =
                "1\n00:00:00,200 --> 00:00:00,900\nHello subtitles\n\n"
                + "2\n00:00:01,100 --> 00:00:01,800\nSecond <i>line</i>\n"
            try Data(text.utf8).write(to: srt, options: .atomic)
        }
        return try await url(
            for: Clip(
                fileExtension: "mkv",
                pipeline: """
                    videotestsrc num-buffers=60 pattern=black ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
                    x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! matroskamux name=mux ! \
                    filesink location=LOCATION filesrc location=\(srt.path) ! subparse ! mux.
                    """))
    }

    /// The bars clip as a phone would store a portrait video: pixels as recorded (320x240),
    /// with the MP4 track matrix saying "turn a quarter clockwise to show".
    public static func portraitBars() async throws -> URL {
        let source = try await url(for: bars)
        let target = directory.appendingPathComponent("portrait-" + source.lastPathComponent)
        if FileManager.default.fileExists(atPath: target.path) { return target }
        var data = [UInt8](try Data(contentsOf: source))
        guard let tkhd = data.indices.dropLast(4).first(where: { data[$0..<($0 + 4)] == Array("tkhd".utf8)[...] }),
            data[tkhd + 4] == 0
        else { throw TestMediaError(message: "no version-0 tkhd box in \(source.path)") }
        // Version 0 tkhd: after the type, 24 bytes of version, dates, track, duration, then 16 of
        // reserved, layer, group and volume: the 3x3 fixed-point matrix starts 44 bytes in.
        let matrix: [UInt32] = [0, 0x0001_0000, 0, 0xFFFF_0000, 0, 0, 0, 0, 0x4000_0000]
        for (index, value) in matrix.enumerated() {
            for byte in 0..<4 { data[tkhd + 44 + index * 4 + byte] = UInt8((value >> (24 - 8 * byte)) & 0xFF) }
        }
        let partial = directory.appendingPathComponent("partial-\(UUID().uuidString).mp4")
        try Data(data).write(to: partial)
        if (try? FileManager.default.moveItem(at: partial, to: target)) == nil {
            try? FileManager.default.removeItem(at: partial)  // another test made it first
        }
        return target
    }
}
