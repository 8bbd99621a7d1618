internal import CMediaEngineThumbnails

/// A worker's way to be interrupted: ``cancel()`` (from any thread) makes the pipeline open or
/// capture under way on the worker's thread return `ME_THUMBNAIL_CANCELLED` at once.
final class ThumbnailCanceller: Sendable {
    /// `MeThumbnailer*`, kept as a bit pattern so the state is `Sendable`: it is only ever
    /// dereferenced under the lock, and the worker clears it before freeing the pipeline.
    private struct State {
        var pipeline: UInt = 0
        var cancelled = false
        /// Which request the worker is on; a cancel meant for an earlier one is ignored.
        var request: UInt64 = 0
    }

    private let state = Locked(State())

    /// Before a worker takes a request: forgets an earlier cancel.
    /// - Returns: The number of the request about to be taken, for ``cancel(request:)``.
    func arm() -> UInt64 {
        state.withLock { state in
            state.cancelled = false
            state.request += 1
            if let raw = OpaquePointer(bitPattern: state.pipeline) { me_thumbnailer_reset_cancel(raw) }
            return state.request
        }
    }

    /// Interrupts the worker's request `request` if it is still on it: a batch cancelled just as
    /// the worker moved on to another batch's request must not cancel that one.
    func cancel(request: UInt64) {
        state.withLock { state in
            guard state.request == request else { return }
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
