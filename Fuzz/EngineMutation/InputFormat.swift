/// The valid inputs a run starts from, made in setup by `gst-launch-1.0` (movies, a picture) or
/// written by the driver (subtitles), and what the child does with each.
enum InputFormat: String, CaseIterable, Sendable {
    case mp4FastStart = "fast-start.mp4"
    case mp4MoovAtEnd = "moov-at-end.mp4"
    case webm = "bars.webm"
    case mpegTS = "bars.ts"
    case adts = "tone.aac"
    case png = "picture.png"
    case srt = "captions.srt"
    case webvtt = "captions.vtt"

    /// How the child opens a file of this format.
    enum Use: String, Sendable {
        /// A player: prepare, play into the null sink, seek twice, stop.
        case movie
        /// `TextOverlay(subtitlesAt:)`, then shown over a valid movie.
        case subtitles
        /// `ImageOverlay(contentsOf:)`, then shown over a valid movie.
        case picture
    }

    var use: Use {
        switch self {
        case .mp4FastStart, .mp4MoovAtEnd, .webm, .mpegTS, .adts: .movie
        case .srt, .webvtt: .subtitles
        case .png: .picture
        }
    }

    /// The file name's extension (the engine's subtitle loading goes by content, GStreamer's
    /// typefinding partly by extension).
    var fileExtension: String { String(rawValue.split(separator: ".").last ?? "") }

    /// The `gst-launch-1.0` pipeline that writes it to `path`: one second at 160x120 (the tone:
    /// one second of sine); nil for the subtitles, which are text.
    func pipeline(writingTo path: String) -> [String]? {
        let video =
            "videotestsrc num-buffers=30 pattern=smpte ! video/x-raw,format=I420,width=160,height=120,framerate=30/1"
        let h264 = "x264enc speed-preset=ultrafast threads=1 key-int-max=10 ! h264parse"
        let audio = "audiotestsrc num-buffers=43 wave=sine ! audio/x-raw,rate=44100,channels=1 ! audioconvert"
        let text: String
        switch self {
        case .mp4FastStart:
            text =
                "\(video) ! \(h264) ! mp4mux name=mux faststart=true ! filesink location=\(path) \(audio) ! avenc_aac ! mux."
        case .mp4MoovAtEnd:
            text = "\(video) ! \(h264) ! mp4mux name=mux ! filesink location=\(path) \(audio) ! avenc_aac ! mux."
        case .webm:
            text =
                "\(video) ! vp8enc deadline=1 threads=1 ! webmmux name=mux ! filesink location=\(path) \(audio) ! vorbisenc ! mux."
        case .mpegTS:
            text =
                "\(video) ! \(h264) ! mpegtsmux name=mux ! filesink location=\(path) \(audio) ! avenc_aac ! aacparse ! mux."
        case .adts:
            text = "\(audio) ! avenc_aac ! aacparse ! audio/mpeg,stream-format=adts ! filesink location=\(path)"
        case .png:
            text =
                "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,width=64,height=48 ! pngenc ! filesink location=\(path)"
        case .srt, .webvtt:
            return nil
        }
        return text.split(separator: " ").map(String.init)
    }

    /// `bytes`, a file GStreamer just made, without what changes from one run to the next, so the
    /// valid inputs (and so every mutation) depend on nothing but the seed: the creation and
    /// modification times of an MP4's `mvhd`, `tkhd` and `mdhd` boxes, a WebM's random
    /// SegmentUID, its TrackUIDs and its DateUTC. Found by comparing two makings (x264 and vp8 with one thread
    /// are otherwise identical; the TS, the ADTS and the PNG already were).
    func normalized(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        func zero(after pattern: [UInt8], skipping: Int, count: (Int) -> Int) {
            var at = 0
            while at + pattern.count <= bytes.count {
                if bytes[at..<(at + pattern.count)].elementsEqual(pattern) {
                    let start = at + pattern.count + skipping
                    let length = count(start)
                    if start + length <= bytes.count {
                        bytes.replaceSubrange(start..<(start + length), with: repeatElement(0, count: length))
                    }
                }
                at += 1
            }
        }
        switch self {
        case .mp4FastStart, .mp4MoovAtEnd:
            // After the type: version (1 byte, 1 means 64-bit times) and flags (3), then creation
            // and modification times.
            for box in ["mvhd", "tkhd", "mdhd"] {
                zero(after: Array(box.utf8), skipping: 4) { start in
                    start >= 4 && bytes[start - 4] == 1 ? 16 : 8
                }
            }
        case .webm:
            zero(after: [0x73, 0xA4, 0x90], skipping: 0) { _ in 16 }  // SegmentUID, 16 bytes
            zero(after: [0x44, 0x61, 0x88], skipping: 0) { _ in 8 }  // DateUTC, 8 bytes
            // TrackUIDs (8 random bytes each): 1, 2, ... in order (a UID may not be 0).
            var track: UInt8 = 0
            zero(after: [0x73, 0xC5, 0x88], skipping: 0) { start in
                track += 1
                if start + 8 <= bytes.count { bytes[start + 7] = track }
                return 7
            }
        default:
            break
        }
        return bytes
    }

    /// The subtitles' text.
    var text: String? {
        switch self {
        case .srt:
            "1\n00:00:00,100 --> 00:00:00,500\nHello <i>world</i>\n\n2\n00:00:00,600 --> 00:00:00,900\nA &amp; B\nline two\n"
        case .webvtt:
            "WEBVTT\n\nNOTE a note\n\ncue-1\n00:00.100 --> 00:00.500 align:start line:0\n<v Ann>Hi</v> &nbsp;there\n\n"
                + "00:00:00.600 --> 00:00:00.900\n<c.red>red</c>\n"
        default: nil
        }
    }
}
