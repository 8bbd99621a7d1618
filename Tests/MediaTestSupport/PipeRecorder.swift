import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe whose write end a GStreamer `fdsink` in the player writes into (as the audio output,
/// say), read on a thread of its own that notes when each chunk arrives and how many bytes
/// came: so a test can see that a stream flowed without a break, and all of it.
public final class PipeRecorder: Sendable {
    /// One read from the pipe.
    public struct Chunk: Sendable {
        /// How many bytes it held.
        public let bytes: Int
        /// When it was read.
        public let arrival: ContinuousClock.Instant
    }

    /// The descriptor to give `fdsink fd=`.
    public let writeDescriptor: Int32
    private let readDescriptor: Int32
    private let shared = Shared()
    private let writeEndOpen = Locked(true)

    /// What the reading thread and the test both touch.
    private final class Shared: Sendable {
        struct State {
            var chunks: [Chunk] = []
            var reading = true
        }
        let state = Locked(State())
        let finished = Waitlist()
    }

    /// Opens the pipe and starts reading it.
    public init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw TestMediaError(message: "pipe() failed: errno \(errno)") }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        let reader = readDescriptor
        Thread { [shared] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                shared.state.withLock { $0.chunks.append(Chunk(bytes: count, arrival: .now)) }
            }
            shared.state.withLock { $0.reading = false }
            shared.finished.recheck()
        }.start()
    }

    deinit {
        closeWriteEnd()
        close(readDescriptor)
    }

    /// Closes the write end (once the writer is done) and waits until everything written has been read.
    public func finish() async throws {
        closeWriteEnd()
        try await withDeadline(.seconds(5), "the pipe's reader reaching the end") { [shared] in
            await shared.finished.wait { !shared.state.withLock { $0.reading } }
        }
    }

    private func closeWriteEnd() {
        writeEndOpen.withLock { open in
            if open { close(writeDescriptor) }
            open = false
        }
    }

    /// Every chunk read so far.
    public var received: [Chunk] { shared.state.withLock { $0.chunks } }

    /// All bytes read so far.
    public var totalBytes: Int { received.reduce(0) { $0 + $1.bytes } }

    /// The longest time between two chunks.
    public var longestGap: Duration {
        let arrivals = received.map(\.arrival)
        return zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }.max() ?? .zero
    }
}
