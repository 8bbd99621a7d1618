import Foundation
import MediaEngineCore

/// An SRT (Secure Reliable Transport) connection that carries the video as MPEG-TS: the sink
/// either waits for receivers to call it (listener) or calls a receiver that listens (caller).
/// Needs GStreamer's `srtsink` (Debian: gstreamer1.0-plugins-bad).
public struct SRTDestination: Sendable, Hashable {
    /// Who connects to whom.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// The sink listens on ``SRTDestination/port``; receivers call it. With no receiver
        /// connected the stream is dropped, and the movie plays on.
        case listener
        /// The sink calls a receiver listening at ``SRTDestination/host``:``SRTDestination/port``,
        /// dropping frames until it answers; when none answers within about 3 s, playback fails
        /// (`MediaError.Code.streamFailure`, "Connection does not exist").
        ///
        /// - Important: GStreamer 1.22's srtsink sends nothing more, without an error, once a
        ///   caller has been paused or has seeked (its unlock takes the socket out of its poll set
        ///   for good), and a repeating player seeks before it starts. Prefer ``listener``, which
        ///   is not affected, for a player that pauses or seeks.
        case caller
    }

    /// Listener or caller.
    public var mode: Mode
    /// The caller's receiver, or the address a listener binds (nil: every address, `0.0.0.0`;
    /// a caller needs one).
    public var host: String?
    /// The UDP port, 1-65535.
    public var port: Int
    /// SRT's latency: how long lost packets may take to be sent again (0 to 60 s; default 125 ms).
    public var latency: Duration

    /// Creates a connection.
    /// - Parameters:
    ///   - mode: Listener or caller.
    ///   - host: The receiver (caller), or the address to bind (listener; nil for all).
    ///   - port: The UDP port.
    ///   - latency: SRT's latency.
    public init(mode: Mode, host: String? = nil, port: Int, latency: Duration = .milliseconds(125)) {
        self.mode = mode
        self.host = host
        self.port = port
        self.latency = latency
    }

    /// Reads an SRT URI: `srt://HOST:PORT?mode=caller|listener&latency=MS` (the mode is caller
    /// unless the URI says otherwise, as for srtsink; a listener may leave the host out,
    /// `srt://:7001?mode=listener`).
    /// - Parameter uri: The URI.
    /// - Throws: `MediaError.Code.invalidArgument` for another scheme, a bad host or port, a
    ///   user, path or fragment, or a query parameter other than `mode` and `latency`.
    public init(uri: String) throws(MediaError) {
        // URLComponents does not take "srt://:7001"; put a placeholder host in and take it out.
        let placeholder = "srt://0.0.0.0:"
        let text = uri.hasPrefix("srt://:") ? placeholder + uri.dropFirst("srt://:".count) : uri
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "srt",
            components.user == nil, components.password == nil, components.path.isEmpty,
            components.fragment == nil, let port = components.port, let host = components.host
        else {
            throw MediaError(.invalidArgument, "'\(uri)' is not an SRT URI (srt://HOST:PORT?mode=listener)")
        }
        var mode = Mode.caller
        var latency = Duration.milliseconds(125)
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("mode", let value?):
                guard let chosen = Mode(rawValue: value) else {
                    throw MediaError(.invalidArgument, "'\(uri)': mode=\(value) is not listener or caller")
                }
                mode = chosen
            case ("latency", let value?):
                guard let milliseconds = Int(value) else {
                    throw MediaError(.invalidArgument, "'\(uri)': latency=\(value) is not milliseconds")
                }
                latency = .milliseconds(milliseconds)
            default:
                throw MediaError(
                    .invalidArgument, "'\(uri)': the SRT sink takes mode= and latency= only, not '\(item.name)'")
            }
        }
        let isPlaceholder = text != uri
        self.init(mode: mode, host: isPlaceholder ? nil : host, port: port, latency: latency)
    }

    /// The URI srtsink is given, made from the checked parts (never from text as given).
    /// - Returns: `srt://HOST:PORT?mode=MODE`, an IPv6 host in brackets, a listener with no host on `0.0.0.0`.
    /// - Throws: `MediaError.Code.invalidArgument` for a bad host, port or latency, or a caller
    ///   without a host.
    public func uri() throws(MediaError) -> String {
        guard (1...65535).contains(port) else {
            throw MediaError(.invalidArgument, "port=\(port): a UDP port is from 1 to 65535")
        }
        guard latency >= .zero && latency <= .seconds(60) else {
            throw MediaError(.invalidArgument, "latency=\(milliseconds) ms: from 0 to 60000")
        }
        let host: NetworkHost
        switch (mode, self.host) {
        case (_, let text?): host = try NetworkHost(text)
        case (.listener, nil): host = try NetworkHost("0.0.0.0")
        case (.caller, nil): throw MediaError(.invalidArgument, "an SRT caller needs the host it calls")
        }
        return "srt://\(host.uriHost):\(port)?mode=\(mode.rawValue)"
    }

    /// ``latency`` in whole milliseconds, as srtsink takes it.
    private var milliseconds: Int64 {
        latency.components.seconds * 1000 + latency.components.attoseconds / 1_000_000_000_000_000
    }

    /// The element factories of ``launchLine()``, in its order.
    static let elements = ["h264parse", "mpegtsmux", "srtsink"]

    /// `h264parse ! mpegtsmux ! srtsink`, checked.
    func launchLine() throws(MediaError) -> String {
        let uri = try uri()
        // h264parse config-interval=-1 repeats SPS and PPS before each keyframe, and mpegtsmux
        // repeats its tables, so a receiver may join at any time. alignment=7: seven TS packets
        // (1316 bytes), SRT's payload size. wait-for-connection=false: a listener with nobody
        // connected drops the stream rather than holding up the movie.
        return "h264parse config-interval=-1 ! mpegtsmux alignment=7 ! srtsink uri=\(LaunchSyntax.quoted(uri)) "
            + "latency=\(milliseconds) wait-for-connection=false"
    }
}
