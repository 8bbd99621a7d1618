internal import CMediaEngineCGStreamer

/// An owned reference to `GstCaps` (a mini object); `deinit` drops it with `gst_caps_unref`.
///
/// `@unchecked Sendable`: caps are reference counted atomically and this wrapper never
/// writes to them (GStreamer only lets the sole owner of caps change them).
final class Caps: @unchecked Sendable, CustomStringConvertible {
    let pointer: UnsafeMutablePointer<GstCaps>

    /// Adopts a reference the caller owns.
    init(owning pointer: UnsafeMutablePointer<GstCaps>) {
        self.pointer = pointer
    }

    /// Takes a new reference (`gst_caps_ref`).
    convenience init(borrowing pointer: UnsafeMutablePointer<GstCaps>) {
        self.init(owning: gst_caps_ref(pointer))
    }

    /// Parses caps (`gst_caps_from_string`).
    convenience init?(_ string: String) {
        guard let pointer = gst_caps_from_string(string) else { return nil }
        self.init(owning: pointer)
    }

    deinit {
        gst_caps_unref(pointer)
    }

    /// `gst_caps_get_size`.
    var count: Int { Int(gst_caps_get_size(pointer)) }

    /// The structure at `index` (`gst_caps_get_structure`), valid while these caps live.
    func structure(at index: Int) -> Structure? {
        guard index < count, let raw = gst_caps_get_structure(pointer, guint(index)) else { return nil }
        return Structure(borrowing: raw, owner: self)
    }

    /// `gst_caps_to_string`.
    var description: String { takeGString(gst_caps_to_string(pointer)) ?? "" }
}
