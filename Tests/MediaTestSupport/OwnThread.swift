import Foundation

/// Runs blocking work (waiting for a child process, reading a pipe, waiting on inotify) on a
/// thread of its own and resumes the caller when it is done, so no cooperative thread of the
/// Swift runtime is held while it blocks.
public enum OwnThread {
    /// The result of `body`, run on a new thread.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
