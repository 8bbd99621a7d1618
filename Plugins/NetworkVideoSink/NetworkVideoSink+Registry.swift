import Foundation
import MediaEngineCore

extension NetworkVideoSink {
    /// The names ``register(in:)`` registers, with the options each takes (besides `bitrate=`
    /// kbit/s, `keyframe-interval=` frames and `preset=` x264 speed preset, which all take).
    public static let optionsByName: [String: [String]] = [
        "rtp": ["host", "port", "sdp", "pt"],
        "srt": ["uri", "mode", "host", "port", "latency"],
        "hls": ["folder", "target-duration", "playlist-length", "max-files", "playlist", "sync"],
    ]

    /// Registers the network sinks, all `VideoSinkCapabilities.external`:
    /// - `rtp`: `host=`, `port=` (required), `sdp=PATH` (the SDP file to write), `pt=` (96-127);
    /// - `srt`: `uri=srt://HOST:PORT?mode=listener|caller`, or `mode=`, `host=`, `port=` and
    ///   `latency=` (milliseconds) one by one;
    /// - `hls`: `folder=` (required), `target-duration=` (seconds), `playlist-length=` (0: all),
    ///   `max-files=` (0: all), `playlist=` (file name), `sync=false` (as fast as it encodes).
    ///
    /// Options are checked when the registry makes the sink, with nothing written or built: an
    /// unknown key or a bad value is `MediaError.Code.invalidArgument`, a folder that is not there
    /// or not writable (``checkFolders()``) `MediaError.Code.fileNotFound` or
    /// `MediaError.Code.permissionDenied`, and a GStreamer element that is not installed (srtsink,
    /// say; ``requiredElements``) `MediaError.Code.missingPlugin`.
    /// - Parameter registry: The registry (default: the shared one, which `MoviePlayer` and
    ///   `mediaplay` use).
    /// - Throws: `MediaError.Code.duplicateSink` when one of the names is taken (then none is registered).
    public static func register(in registry: VideoSinkRegistry = .shared) throws(MediaError) {
        let names = optionsByName.keys.sorted()
        if let taken = names.first(where: { registry.entry(named: $0) != nil }) {
            throw MediaError(.duplicateSink, "a video sink named '\(taken)' is already registered")
        }
        let summaries = [
            "rtp": "sends H.264 over RTP/UDP to host:port, with an SDP file for the receiver (x264enc, rtph264pay)",
            "srt": "sends H.264 in MPEG-TS over SRT, as listener or caller (srtsink)",
            "hls": "writes HLS: H.264 MPEG-TS segments and a playlist in a folder, for any web server (hlssink2)",
        ]
        for name in names {
            try registry.register(name, summary: summaries[name]!) { options throws(MediaError) in
                let sink = try NetworkVideoSink(name: name, options: options)
                try sink.checkFolders()
                return sink
            }
        }
    }

    /// Makes a sink from a registered name and its string options (see ``register(in:)``), and
    /// checks it (``validate()``).
    /// - Parameters:
    ///   - name: `rtp`, `srt` or `hls`.
    ///   - options: The options.
    /// - Throws: `MediaError.Code.unknownSink` for another name; `MediaError.Code.invalidArgument`
    ///   for an unknown key, a missing required one, or a value out of range.
    public init(name: String, options: [String: String]) throws(MediaError) {
        guard let keys = Self.optionsByName[name] else {
            throw MediaError(.unknownSink, "the network sinks are rtp, srt and hls, not '\(name)'")
        }
        let options = VideoSinkOptions(options, sink: name)
        try options.rejectUnknownKeys(allowed: keys + Self.encodingKeys)
        // Ranges are checked by validate(), which a sink made in code goes through too.
        let destination: Destination
        switch name {
        case "rtp":
            var rtp = RTPDestination(host: try options.requiredString("host"), port: try options.requiredInt("port"))
            if let payloadType = try options.int("pt") { rtp.payloadType = payloadType }
            rtp.sessionDescriptionFile = try options.path("sdp")?.standardizedFileURL
            destination = .rtp(rtp)
        case "srt":
            destination = .srt(try Self.srt(options))
        default:
            var hls = HLSDestination(folder: try options.requiredPath("folder", isDirectory: true).standardizedFileURL)
            if let duration = try options.int("target-duration") { hls.targetDuration = duration }
            if let length = try options.int("playlist-length") { hls.playlistLength = length }
            hls.maximumFiles = try options.int("max-files")
            if let playlist = try options.string("playlist") { hls.playlistName = playlist }
            if let synchronized = try options.bool("sync") { hls.synchronized = synchronized }
            destination = .hls(hls)
        }
        self.init(destination, encoding: try Self.encoding(options))
        try validate()
    }

    /// The options every network sink takes: the encoding's.
    static let encodingKeys = ["bitrate", "keyframe-interval", "preset"]

    /// `bitrate=` (kbit/s), `keyframe-interval=` (frames), `preset=` (x264's speed preset).
    private static func encoding(_ options: VideoSinkOptions) throws(MediaError) -> H264Encoding {
        var encoding = H264Encoding()
        if let bitrate = try options.int("bitrate") { encoding.bitrate = bitrate }
        if let interval = try options.int("keyframe-interval") { encoding.keyframeInterval = interval }
        if let preset = try options.choice("preset", of: H264Encoding.Preset.self) { encoding.preset = preset }
        return encoding
    }

    /// `uri=`, or `mode=` (default listener), `host=`, `port=` and `latency=` (milliseconds).
    private static func srt(_ options: VideoSinkOptions) throws(MediaError) -> SRTDestination {
        let parts = ["mode", "host", "port", "latency"].filter(options.contains)
        if let uri = try options.string("uri") {
            guard parts.isEmpty else {
                throw MediaError(
                    .invalidArgument, "the srt sink takes uri= or mode=, host=, port= and latency=, not both")
            }
            return try SRTDestination(uri: uri)
        }
        let mode = try options.choice("mode", of: SRTDestination.Mode.self) ?? .listener
        var srt = SRTDestination(mode: mode, host: try options.string("host"), port: try options.requiredInt("port"))
        if let milliseconds = try options.int("latency") { srt.latency = .milliseconds(milliseconds) }
        return srt
    }
}
