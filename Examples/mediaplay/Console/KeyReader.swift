import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads keys from a terminal on a thread of its own (named `mediaplay-keys`), never on a thread
/// of Swift's cooperative pool: the thread blocks in `poll` until a byte comes, and after a byte
/// that may start a sequence waits at most ``KeyDecoder/escapeTimeout`` for the rest.
///
/// The keys arrive on ``keys``, in order; the sequence ends when the input does (end of file, a
/// terminal hung up) or after ``stop()``.
public final class KeyReader: Sendable {
    /// The keys read.
    public let keys: AsyncStream<Key>
    /// A pipe whose write end wakes the thread to end it.
    private let wake: (read: Int32, write: Int32)

    /// Starts reading `descriptor` (put it in raw mode first, with ``RawTerminal``).
    /// - Parameter descriptor: The terminal, standard input by default.
    public init(descriptor: Int32 = STDIN_FILENO) {
        let (stream, continuation) = AsyncStream.makeStream(of: Key.self)
        keys = stream
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wake = (ends[0], ends[1])
        let wakeRead = ends[0]
        let thread = Thread { Self.read(descriptor, wake: wakeRead, into: continuation) }
        thread.name = "mediaplay-keys"
        thread.start()
    }

    /// Ends the reading thread (at its next wake-up: at once, as it waits in `poll`).
    public func stop() {
        var byte: UInt8 = 0
        _ = write(wake.write, &byte, 1)
    }

    private static func read(_ descriptor: Int32, wake: Int32, into continuation: AsyncStream<Key>.Continuation) {
        defer { continuation.finish() }
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 256)
        let timeout = Int32(KeyDecoder.escapeTimeout / .milliseconds(1))
        while true {
            var watched = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, nfds_t(wake >= 0 ? 2 : 1), decoder.isWaiting ? timeout : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 {
                for key in decoder.flush() { continuation.yield(key) }
                continue
            }
            if wake >= 0 && watched[1].revents != 0 { return }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            // 0: the end of the input; below: the terminal is gone.
            guard count > 0 else { return }
            for key in decoder.decode(buffer[0..<count]) { continuation.yield(key) }
        }
    }
}
