import MediaEngineCore

/// Sends the movie's video to another machine, encoded as H.264: RTP over UDP (with an SDP file
/// for the receiver), SRT (MPEG-TS), or HLS segments in a folder for a web server.
///
/// The sink is `VideoSinkCapabilities.external`, so moving a playing movie to it with
/// `MoviePlayer.setVideoSink(_:)` is AirPlay's switch: `isExternalPlaybackActive` becomes true
/// and `externalPlaybackActiveChanged(true)` is announced; moving back to a local sink brings
/// the picture home from the next frame on, with nothing lost.
///
/// ```swift
/// let tv = NetworkVideoSink(.rtp(RTPDestination(host: "192.0.2.7", port: 5004,
///                                               sessionDescriptionFile: URL(fileURLWithPath: "/tmp/tv.sdp"))))
/// try await player.setVideoSink(tv)          // the movie now plays on the receiver
/// try await player.setVideoSink(localSink)   // and back
/// ```
///
/// Built only from MediaEngineCore's public API: the output is a `gst-launch-1.0` description
/// (`ElementDescription.bin(_:)`) into which every value of the caller's goes checked
/// (numbers, hosts) or quoted (paths, URIs), so a folder named `a b ! filesink` stays a folder.
public struct NetworkVideoSink: VideoSink {
    /// Where the video goes.
    public enum Destination: Sendable, Hashable {
        /// RTP over UDP to a receiver.
        case rtp(RTPDestination)
        /// An SRT connection.
        case srt(SRTDestination)
        /// HLS segments and playlist in a folder.
        case hls(HLSDestination)
    }

    /// Where the video goes.
    public let destination: Destination
    /// How it is encoded.
    public let encoding: H264Encoding

    /// Creates the sink. Nothing is checked or opened until the output is made (when a player
    /// prepares with it, or `setVideoSink(_:)` installs it; ``validate()`` checks the settings at
    /// once, ``checkFolders()`` the folders and `checkRequiredElements()` the elements).
    /// - Parameters:
    ///   - destination: Where the video goes.
    ///   - encoding: How it is encoded.
    public init(_ destination: Destination, encoding: H264Encoding = H264Encoding()) {
        self.destination = destination
        self.encoding = encoding
    }

    /// Video leaves the machine's screen: `VideoSinkCapabilities.external`.
    public static var capabilities: VideoSinkCapabilities { .external }

    /// The elements of ``makeOutput()``'s bin, in its order: the encoder's (`videoconvert`,
    /// `x264enc`), then the transport's (`rtph264pay`, `udpsink`; `h264parse`, `mpegtsmux`,
    /// `srtsink`; `tee`, `queue`, `h264parse`, `hlssink2`, `fakesink`, `fakesrc`). The registry
    /// checks they are installed when it makes the sink.
    public var requiredElements: [String] {
        switch destination {
        case .rtp: H264Encoding.elements + RTPDestination.elements
        case .srt: H264Encoding.elements + SRTDestination.elements
        case .hls: HLSDestination.elements(encoder: H264Encoding.elements)
        }
    }

    /// Checks every setting without touching the file system or the network.
    /// - Throws: `MediaError.Code.invalidArgument` naming the first setting out of range.
    public func validate() throws(MediaError) {
        _ = try launchLine()
    }

    /// Checks that the folders the sink writes into exist and can be written into, without
    /// writing anything: the SDP file's folder (RTP) or the segments' (HLS). The registry's
    /// factories run it; ``makeOutput()`` checks again, when it writes.
    /// - Throws: `MediaError.Code.fileNotFound` for a folder that is not there,
    ///   `MediaError.Code.permissionDenied` for one this process cannot write into, and
    ///   `MediaError.Code.invalidArgument` for a path ``validate()`` refuses.
    public func checkFolders() throws(MediaError) {
        switch destination {
        case .rtp(let rtp): try rtp.checkSessionDescriptionFolder()
        case .srt: break
        case .hls(let hls): try hls.checkFolderIsWritable()
        }
    }

    /// The pipeline description, checked: encoder, then the transport.
    func launchLine() throws(MediaError) -> String {
        let encoder = try encoding.launchLine()
        switch destination {
        case .rtp(let rtp): return "\(encoder) ! \(try rtp.launchLine())"
        case .srt(let srt): return "\(encoder) ! \(try srt.launchLine())"
        case .hls(let hls): return try hls.launchLine(encoder: encoder)
        }
    }

    /// `videoconvert ! x264enc tune=zerolatency ! rtph264pay ! udpsink`,
    /// `... ! h264parse ! mpegtsmux ! srtsink`, or `tee ! queue ! ... ! h264parse ! hlssink2`
    /// (with a clock-paced `fakesink` on the tee). Writes the RTP destination's SDP file first.
    /// - Returns: The bin.
    /// - Throws: `MediaError.Code.invalidArgument` for a setting out of range; for HLS,
    ///   `MediaError.Code.fileNotFound` or `MediaError.Code.permissionDenied` for a folder that is
    ///   not there or not writable; for RTP, the same for the SDP file's folder, and
    ///   `MediaError.Code.diskFull` when the SDP file does not fit.
    public func makeOutput() throws(MediaError) -> VideoOutput {
        let description = try launchLine()
        switch destination {
        case .rtp(let rtp): try rtp.writeSessionDescription(bitrate: encoding.bitrate)
        case .srt: break
        case .hls(let hls): try hls.checkFolderIsWritable()
        }
        return .element(.bin(description))
    }
}
