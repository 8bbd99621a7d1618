internal import CGStreamerShim
import Synchronization

/// A worker's way to be interrupted: ``cancel()`` (from any thread) makes the pipeline open or
/// capture under way on the worker's thread return `ME_THUMBNAIL_CANCELLED` at once.
final class ThumbnailCanceller: Sendable {
    /// `MeThumbnailer*`, kept as a bit pattern so the state is `Sendable`: it is only ever
    /// dereferenced under the lock, and the worker clears it before freeing the pipeline.
    private struct State {
        var pipeline: UInt = 0
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Before a worker takes a request: forgets an earlier cancel.
    func arm() {
        state.withLock { state in
            state.cancelled = false
            if let raw = OpaquePointer(bitPattern: state.pipeline) { me_thumbnailer_reset_cancel(raw) }
        }
    }

    /// Interrupts the worker's current request (or the one it is about to start).
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let raw = OpaquePointer(bitPattern: state.pipeline) { me_thumbnailer_cancel(raw) }
        }
    }

    /// Whether ``cancel()`` was called since ``arm()``.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// The pipeline the worker drives now (nil before freeing it); a pending cancel reaches it.
    func attach(_ raw: OpaquePointer?) {
        state.withLock { state in
            state.pipeline = raw.map { UInt(bitPattern: $0) } ?? 0
            if let raw, state.cancelled { me_thumbnailer_cancel(raw) }
        }
    }
}
