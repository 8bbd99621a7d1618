import Foundation
import MediaEngineCore

/// Where an RTP stream goes: H.264 in RTP (RFC 6184) over UDP to a host and port, described for
/// the receiver by an SDP file.
public struct RTPDestination: Sendable, Hashable {
    /// The receiver's address or name.
    public var host: String
    /// The receiver's UDP port, 1-65535.
    public var port: Int
    /// The RTP payload type, a dynamic one: 96-127.
    public var payloadType: Int
    /// Where to write the SDP file that tells a receiver how to read the stream, or nil for none.
    /// It is written (whole, by a rename) each time the sink's output is made, before any packet
    /// is sent.
    public var sessionDescriptionFile: URL?

    /// Creates a destination.
    /// - Parameters:
    ///   - host: The receiver's address or name (checked by ``NetworkHost``).
    ///   - port: The receiver's UDP port.
    ///   - payloadType: The RTP payload type, 96-127.
    ///   - sessionDescriptionFile: Where to write the SDP file, or nil.
    public init(host: String, port: Int, payloadType: Int = 96, sessionDescriptionFile: URL? = nil) {
        self.host = host
        self.port = port
        self.payloadType = payloadType
        self.sessionDescriptionFile = sessionDescriptionFile
    }

    /// The SDP (RFC 8866) that describes the stream: a video medium on ``port`` from ``host``'s
    /// point of view (its `c=` line is the host the packets go to), H.264 at RTP's 90 kHz clock,
    /// packetization mode 1. SPS and PPS are not in it: the stream repeats them before every
    /// keyframe, so a receiver may join at any time.
    /// - Parameter bitrate: The stream's bitrate in kbit/s, for the `b=AS:` line.
    /// - Returns: The description, lines ending in CRLF.
    /// - Throws: `MediaError.Code.invalidArgument` for a bad host, port or payload type.
    public func sessionDescription(bitrate: Int = H264Encoding().bitrate) throws(MediaError) -> String {
        let host = try checked()
        let addressType = host.kind == .ipv6 ? "IP6" : "IP4"
        return [
            "v=0",
            "o=- 0 0 IN IP4 127.0.0.1",
            "s=swift-media-engine",
            "c=IN \(addressType) \(host.name)",
            "t=0 0",
            "m=video \(port) RTP/AVP \(payloadType)",
            "b=AS:\(bitrate)",
            "a=rtpmap:\(payloadType) H264/90000",
            "a=fmtp:\(payloadType) packetization-mode=1",
        ].map { $0 + "\r\n" }.joined()
    }

    /// The checked host, after the port and payload type are checked too.
    func checked() throws(MediaError) -> NetworkHost {
        let host = try NetworkHost(self.host)
        guard (1...65535).contains(port) else {
            throw MediaError(.invalidArgument, "port=\(port): a UDP port is from 1 to 65535")
        }
        guard (96...127).contains(payloadType) else {
            throw MediaError(.invalidArgument, "pt=\(payloadType): a dynamic RTP payload type is from 96 to 127")
        }
        return host
    }

    /// The element factories of ``launchLine()``, in its order.
    static let elements = ["rtph264pay", "udpsink"]

    /// `rtph264pay ! udpsink`, checked.
    func launchLine() throws(MediaError) -> String {
        let host = try checked()
        // config-interval=-1: SPS and PPS before every keyframe, so a receiver can join late.
        // aggregate-mode=zero-latency: a packet leaves with its frame, never held for the next.
        return "rtph264pay config-interval=-1 aggregate-mode=zero-latency pt=\(payloadType) ! "
            + "udpsink host=\(LaunchSyntax.quoted(host.name)) port=\(port)"
    }

    /// Checks, without writing, that the SDP file (when there is one) can be written: its folder
    /// is there and this process may write into it.
    /// - Throws: `MediaError.Code.invalidArgument` for a bad path, `MediaError.Code.fileNotFound` for a
    ///   folder that is not there, `MediaError.Code.permissionDenied` for one that cannot be written
    ///   into (a read-only file system).
    func checkSessionDescriptionFolder() throws(MediaError) {
        guard let file = sessionDescriptionFile else { return }
        let path = try LaunchSyntax.checkedPath(file.path, option: "sdp")
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw MediaError(.fileNotFound, "sdp=\(path): the folder \(folder) does not exist")
        }
        // access(2): a read-only file system refuses root too.
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw MediaError(.permissionDenied, "sdp=\(path): the folder \(folder) is not writable")
        }
    }

    /// Writes the SDP file, when there is one, whole: to a temporary file beside it, then renamed.
    /// - Throws: `MediaError.Code.invalidArgument` for a bad path, `MediaError.Code.fileNotFound` for a
    ///   folder that is not there, `MediaError.Code.diskFull` when there is no space, and
    ///   `MediaError.Code.permissionDenied` when it cannot be written otherwise (a read-only folder).
    func writeSessionDescription(bitrate: Int) throws(MediaError) {
        guard let file = sessionDescriptionFile else { return }
        try checkSessionDescriptionFolder()
        let path = try LaunchSyntax.checkedPath(file.path, option: "sdp")
        let text = try sessionDescription(bitrate: bitrate)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let full = (error as? CocoaError)?.code == .fileWriteOutOfSpace
            throw MediaError(
                full ? .diskFull : .permissionDenied, "cannot write the SDP file \(path)",
                debugDetail: String(describing: error))
        }
    }
}
