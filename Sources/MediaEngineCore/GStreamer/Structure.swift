internal import CMediaEngineCGStreamer

/// A read-only view of a `GstStructure` owned by something else (caps or a message);
/// it keeps that owner alive.
struct Structure: CustomStringConvertible {
    let pointer: UnsafePointer<GstStructure>
    private let owner: AnyObject

    init(borrowing pointer: UnsafePointer<GstStructure>, owner: AnyObject) {
        self.pointer = pointer
        self.owner = owner
    }

    /// `gst_structure_get_name`.
    var name: String { String(cString: gst_structure_get_name(pointer)) }

    /// `gst_structure_get_int`.
    func int(_ field: String) -> Int? {
        var value: gint = 0
        return gst_structure_get_int(pointer, field, &value) != 0 ? Int(value) : nil
    }

    /// `gst_structure_get_uint`.
    func uint(_ field: String) -> UInt? {
        var value: guint = 0
        return gst_structure_get_uint(pointer, field, &value) != 0 ? UInt(value) : nil
    }

    /// `gst_structure_get_uint64`.
    func uint64(_ field: String) -> UInt64? {
        var value: guint64 = 0
        return gst_structure_get_uint64(pointer, field, &value) != 0 ? UInt64(value) : nil
    }

    /// `gst_structure_get_boolean`.
    func bool(_ field: String) -> Bool? {
        var value: gboolean = 0
        return gst_structure_get_boolean(pointer, field, &value) != 0 ? value != 0 : nil
    }

    /// `gst_structure_get_string`.
    func string(_ field: String) -> String? {
        gst_structure_get_string(pointer, field).map { String(cString: $0) }
    }

    /// `gst_structure_get_fraction`.
    func fraction(_ field: String) -> (numerator: Int, denominator: Int)? {
        var numerator: gint = 0
        var denominator: gint = 1
        guard gst_structure_get_fraction(pointer, field, &numerator, &denominator) != 0 else { return nil }
        return (Int(numerator), Int(denominator))
    }

    /// `gst_structure_get_value`, valid while the structure's owner lives.
    func value(_ field: String) -> BorrowedValue? {
        gst_structure_get_value(pointer, field).map { BorrowedValue(borrowing: $0, owner: owner) }
    }

    /// The fields' names and values, in order (`gst_structure_n_fields`, `gst_structure_nth_field_name`).
    var fields: [(name: String, value: BorrowedValue)] {
        (0..<max(0, Int(gst_structure_n_fields(pointer)))).compactMap { index in
            guard let name = gst_structure_nth_field_name(pointer, guint(index)),
                let value = gst_structure_get_value(pointer, name)
            else { return nil }
            return (String(cString: name), BorrowedValue(borrowing: value, owner: owner))
        }
    }

    /// `gst_structure_to_string`.
    var description: String { takeGString(gst_structure_to_string(pointer)) ?? "" }
}
