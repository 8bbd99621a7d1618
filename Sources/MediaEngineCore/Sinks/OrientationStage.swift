internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline

/// The video bin's orientation step: a `videoflip` linked into the path only while the picture
/// is turned or mirrored, by the movie's orientation tag (``VideoOrientation/automatic``) or on
/// request (`me_orientation_*` in orientation.c). Unused, it costs nothing per frame.
///
/// `@unchecked Sendable`: the C side guards its state with atomics and a mutex of its own.
final class OrientationStage: @unchecked Sendable {
    private let raw: OpaquePointer

    /// Manages `flip` (already in the bin, unlinked) between two linked elements.
    init(between upstream: Element, flip: Element, and downstream: Element) {
        raw = me_orientation_new(upstream.pointer, flip.pointer, downstream.pointer)
    }

    deinit {
        me_orientation_unref(raw)
    }

    /// Follows the tag, or turns as told; the change reaches the next frame.
    func apply(_ orientation: VideoOrientation) {
        if orientation == .automatic {
            me_orientation_set_automatic(raw)
        } else {
            me_orientation_set_fixed(raw, orientation.videoDirection)
        }
    }
}
