import Foundation
import MediaEngine
import MediaTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A receiving machine on loopback: a `gst-launch-1.0` pipeline that decodes what a network sink
/// sends and writes each picture to its standard output as raw RGB at a known size, which is read
/// here frame by frame as it comes (each frame's number read from its pixels, ``FrameNumber``).
///
/// MediaEngine's own player cannot be the receiver: a live source (RTP from an SDP file, SRT)
/// makes its pipeline skip the preroll, and the player's preparation waits for the preroll's
/// ASYNC_DONE, so it never ends (tried: `URISource(uri: "sdp:///path/stream.sdp")` sat in
/// preparation with no frame while the stream came in).
final class FrameReceiver: Sendable {
    /// One received picture.
    struct Frame: Sendable, CustomStringConvertible {
        /// The frame number of ``TestMedia/numbered`` its pixels show, or nil.
        let number: Int?
        /// The colour in the picture's centre.
        let centre: RGBAColor
        var description: String { number.map { "#\($0)" } ?? "#?" }
    }

    private struct State {
        var pending: [UInt8] = []
        var frames: [Frame] = []
        var exitStatus: Int32?
        var errors = ""
    }

    let width: Int
    let height: Int
    private let pid: Int32
    private let state = Locked(State())
    private let waitlist = Waitlist()

    private init(pid: Int32, width: Int, height: Int) {
        self.pid = pid
        self.width = width
        self.height = height
    }

    /// Starts `gst-launch-1.0 -q` with `pipeline` (elements and properties as separate
    /// arguments), followed by `! videoconvert ! video/x-raw,format=RGB,width=W,height=H ! fdsink`.
    /// The process is owned by a thread of its own, which reads its output to the end and then
    /// waits for it, so no thread of Swift's pool blocks on it.
    static func start(_ pipeline: [String], width: Int = 320, height: Int = 240) async throws -> FrameReceiver {
        let arguments =
            ["gst-launch-1.0", "-q"] + pipeline + [
                "!", "videoconvert", "!", "video/x-raw,format=RGB,width=\(width),height=\(height)", "!",
                "fdsink", "fd=1", "sync=false",
            ]
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = arguments
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                process.standardInput = FileHandle.nullDevice
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let receiver = FrameReceiver(pid: process.processIdentifier, width: width, height: height)
                continuation.resume(returning: receiver)
                let errorsRead = DispatchSemaphore(value: 0)
                Thread {
                    receiver.errorsArrived(errors.fileHandleForReading.readDataToEndOfFile())
                    errorsRead.signal()
                }.start()
                while true {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    receiver.append(chunk)
                }
                errorsRead.wait()
                receiver.exited(process.reap().status)
            }.start()
        }
    }

    private func append(_ data: Data) {
        let frameSize = width * height * 3
        state.withLock { state in
            state.pending.append(contentsOf: data)
            while state.pending.count >= frameSize {
                let bytes = Array(state.pending[..<frameSize])
                state.pending.removeFirst(frameSize)
                let width = width
                func color(_ x: Int, _ y: Int) -> RGBAColor {
                    let offset = (y * width + x) * 3
                    return RGBAColor(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2])
                }
                state.frames.append(
                    Frame(number: FrameNumber.read(width: width, color: color), centre: color(width / 2, height / 2)))
            }
        }
        waitlist.recheck()
    }

    private func errorsArrived(_ data: Data) {
        state.withLock { $0.errors = String(decoding: data, as: UTF8.self) }
    }

    private func exited(_ status: Int32) {
        state.withLock { $0.exitStatus = status }
        waitlist.recheck()
    }

    /// Every frame so far.
    var frames: [Frame] { state.withLock { $0.frames } }
    /// The exit status, once it has exited.
    var exitStatus: Int32? { state.withLock { $0.exitStatus } }
    /// What it wrote to standard error (complete once it has exited).
    var errors: String { state.withLock { $0.errors } }

    /// Waits until the frames so far satisfy `condition`; fails after `limit`, or as soon as the
    /// receiver exits without satisfying it.
    func waitUntil(
        _ what: String, within limit: Duration = .seconds(10), _ condition: @escaping @Sendable ([Frame]) -> Bool
    ) async throws {
        try await withDeadline(limit, what) { [self] in
            await waitlist.wait { condition(self.frames) || self.exitStatus != nil }
        }
        guard condition(frames) else {
            throw TestMediaError(
                message: "the receiver exited (\(exitStatus ?? -1)) before \(what): \(frames) \(errors)")
        }
    }

    /// Ends the receiver (SIGKILL; the reading thread then sees the end of its output and reaps it).
    func kill() {
        guard exitStatus == nil else { return }
        _ = Glibc.kill(pid, SIGKILL)
    }
}
