import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended, read by ``Foundation/Process/reap()``.
public struct ProcessExit: Sendable, Equatable {
    /// The exit status, or the signal's number when `signalled`.
    public let status: Int32
    /// The process was ended by a signal (SIGKILL, a crash), not by exiting.
    public let signalled: Bool

    /// The exit status, or minus the signal's number: 0 only for a clean exit.
    public var code: Int32 { signalled ? -status : status }
}

extension Process {
    /// Waits for the process to end and says how, without `waitUntilExit()`.
    ///
    /// Foundation's `waitUntilExit()` (swift-corelibs-foundation 6.3) waits for its own child
    /// monitor to notice the exit, and that monitor can miss it: seen in `make test`, where both of
    /// Swift's cooperative threads waited for ever in `NginxProcess`'s deinit while the killed
    /// nginx stayed a zombie nobody reaped, and the whole step hung. This reaps the child itself
    /// (`waitpid`); when Foundation's monitor got there first (`ECHILD`), it reads Foundation's
    /// record of the exit, which that monitor has then set or is about to.
    /// Blocks the calling thread for as long as the process runs.
    /// - Returns: The exit status, or the signal that ended the process.
    @discardableResult
    public func reap() -> ProcessExit {
        var status: Int32 = 0
        while true {
            let result = waitpid(processIdentifier, &status, 0)
            if result == processIdentifier {
                let signal = status & 0x7f
                return signal == 0
                    ? ProcessExit(status: (status >> 8) & 0xff, signalled: false)
                    : ProcessExit(status: signal, signalled: true)
            }
            if result < 0 && errno == EINTR { continue }
            break
        }
        while isRunning { usleep(1000) }
        return ProcessExit(status: terminationStatus, signalled: terminationReason == .uncaughtSignal)
    }

    /// Ends the process with SIGKILL and reaps it (``reap()``): gone when this returns.
    public func killAndReap() {
        kill(processIdentifier, SIGKILL)
        reap()
    }
}
