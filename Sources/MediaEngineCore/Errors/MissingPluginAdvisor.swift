/// Knows which Debian package holds which GStreamer element or decoder, so that an error
/// about a missing plugin can say what to install.
enum MissingPluginAdvisor {
    /// Element factories the engine and its sinks use, by the Debian package that ships them.
    private static let packageByFactory: [String: String] = {
        let packages: [String: [String]] = [
            // GStreamer's core elements (libgstcoreelements.so).
            "libgstreamer1.0-0": [
                "fakesink", "fakesrc", "tee", "queue", "queue2", "multiqueue", "identity", "filesink", "filesrc",
            ],
            "gstreamer1.0-plugins-base": [
                "playbin", "playbin3", "decodebin", "decodebin3", "uridecodebin", "uridecodebin3", "parsebin",
                "typefind", "videoconvert", "videoscale", "videoconvertscale", "videorate", "audioconvert",
                "audioresample", "volume", "appsink", "appsrc", "videotestsrc", "audiotestsrc", "overlaycomposition",
                "oggdemux", "oggmux", "theoradec", "vorbisdec", "opusdec", "compositor", "subparse", "giosrc",
            ],
            "gstreamer1.0-plugins-good": [
                "qtdemux", "matroskademux", "avidemux", "flvdemux", "wavparse", "souphttpsrc", "autovideosink",
                "autoaudiosink", "vp8dec", "vp9dec", "pngdec", "pngenc", "jpegdec", "jpegenc", "flacdec",
                "mpg123audiodec", "videobox", "videocrop", "videoflip", "mp4mux", "matroskamux", "multifilesink",
                "pulsesink", "hlsdemux2", "dashdemux2", "id3demux", "rtpbin", "rtph264pay", "rtph264depay", "udpsink",
                "udpsrc",
            ],
            "gstreamer1.0-plugins-bad": [
                "h264parse", "h265parse", "hlsdemux", "dashdemux", "tsdemux", "mpegtsmux", "av1dec", "av1parse",
                "openh264dec", "waylandsink", "kmssink", "faad", "hlssink2", "srtsink", "srtsrc",
            ],
            "gstreamer1.0-plugins-ugly": ["x264enc", "mpeg2dec", "a52dec", "asfdemux"],
            "gstreamer1.0-libav": ["avdec_h264", "avdec_h265", "avdec_aac", "avdec_mp3", "avdec_mpeg4", "avdec_vp9"],
            "gstreamer1.0-x": ["ximagesink", "xvimagesink", "textoverlay", "clockoverlay", "timeoverlay"],
            "gstreamer1.0-gl": ["glimagesink", "glupload", "glcolorconvert"],
            "gstreamer1.0-alsa": ["alsasink"],
            "gstreamer1.0-tools": ["gst-launch-1.0"],
        ]
        var table: [String: String] = [:]
        for (package, factories) in packages {
            for factory in factories { table[factory] = package }
        }
        return table
    }()

    /// Decoders and demuxers by the media type they handle, for GStreamer's missing-plugin messages.
    private static let packageByMediaType: [String: String] = [
        "video/x-h264": "gstreamer1.0-libav", "video/x-h265": "gstreamer1.0-libav",
        "video/mpeg": "gstreamer1.0-libav", "video/x-divx": "gstreamer1.0-libav",
        "video/x-vp8": "gstreamer1.0-plugins-good", "video/x-vp9": "gstreamer1.0-plugins-good",
        "video/x-av1": "gstreamer1.0-plugins-bad", "video/x-theora": "gstreamer1.0-plugins-base",
        "audio/mpeg": "gstreamer1.0-libav", "audio/x-vorbis": "gstreamer1.0-plugins-base",
        "audio/x-opus": "gstreamer1.0-plugins-base", "audio/x-flac": "gstreamer1.0-plugins-good",
        "audio/x-ac3": "gstreamer1.0-libav", "audio/x-eac3": "gstreamer1.0-libav",
        "video/quicktime": "gstreamer1.0-plugins-good", "video/x-matroska": "gstreamer1.0-plugins-good",
        "video/webm": "gstreamer1.0-plugins-good", "video/x-msvideo": "gstreamer1.0-plugins-good",
        "video/x-flv": "gstreamer1.0-plugins-good", "video/mpegts": "gstreamer1.0-plugins-bad",
        "application/x-hls": "gstreamer1.0-plugins-bad", "application/dash+xml": "gstreamer1.0-plugins-bad",
        "video/x-ms-asf": "gstreamer1.0-plugins-ugly", "video/x-wmv": "gstreamer1.0-libav",
        "audio/x-wma": "gstreamer1.0-libav",
    ]

    /// The Debian package that ships `factory`, if the table knows it.
    static func package(forFactory factory: String) -> String? {
        if let package = packageByFactory[factory] { return package }
        if factory.hasPrefix("avdec_") || factory.hasPrefix("avenc_") || factory.hasPrefix("avdemux_") {
            return "gstreamer1.0-libav"
        }
        return nil
    }

    /// The Debian package that most likely handles a stream of these caps (`"video/x-h264, ..."`).
    static func package(forCaps caps: String) -> String? {
        let mediaType = caps.split(separator: ",").first.map { $0.filter { !$0.isWhitespace } } ?? caps
        return packageByMediaType[mediaType]
    }

    /// The error for an element factory that is not installed.
    static func errorForMissingFactory(_ factory: String) -> MediaError {
        let advice = package(forFactory: factory).map { "install \($0)" } ?? "install the GStreamer plugin that has it"
        return MediaError(.missingPlugin, "no element '\(factory)': \(advice)", element: factory)
    }

    /// The error for content GStreamer has no decoder or demuxer for.
    /// - Parameters:
    ///   - description: GStreamer's description of what is missing ("H.264 (High Profile) decoder").
    ///   - caps: The caps of the stream that could not be handled, if known.
    static func errorForMissingDecoder(description: String, caps: String?) -> MediaError {
        let advice =
            caps.flatMap(package(forCaps:)).map { "install \($0)" }
            ?? "install the GStreamer plugin that handles it"
        return MediaError(
            .missingPlugin, "GStreamer has no \(description): \(advice)", debugDetail: caps)
    }

    /// The factory a parse error names ("no element \"foo\"").
    static func factoryNamed(inParseMessage message: String) -> String? {
        guard let open = message.firstIndex(of: "\""),
            let close = message[message.index(after: open)...].firstIndex(of: "\"")
        else { return nil }
        return String(message[message.index(after: open)..<close])
    }
}
