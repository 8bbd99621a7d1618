internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// An owned reference to a `GstTagList`; `deinit` drops it with `gst_tag_list_unref`.
///
/// `@unchecked Sendable`: tag lists are reference counted atomically and this wrapper never
/// writes to them.
final class TagList: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstTagList>

    /// Adopts a reference the caller owns.
    init(owning pointer: UnsafeMutablePointer<GstTagList>) {
        self.pointer = pointer
    }

    /// Takes a new reference to a tag list someone else owns (`gst_tag_list_ref`).
    convenience init(borrowing pointer: UnsafeMutablePointer<GstTagList>) {
        self.init(owning: gst_tag_list_ref(pointer))
    }

    /// Calls `body` with each tag's name (`gst_tag_list_nth_tag_name`) and each of its values
    /// (`gst_tag_list_get_value_index`), in order.
    func forEachValue(_ body: (_ name: String, _ value: BorrowedValue) -> Void) {
        for index in 0..<max(0, Int(gst_tag_list_n_tags(pointer))) {
            guard let rawName = gst_tag_list_nth_tag_name(pointer, guint(index)) else { continue }
            let name = String(cString: rawName)
            let count = Int(gst_tag_list_get_tag_size(pointer, rawName))
            for position in 0..<max(0, count) {
                guard let value = gst_tag_list_get_value_index(pointer, rawName, guint(position)) else { continue }
                body(name, BorrowedValue(borrowing: value, owner: self))
            }
        }
    }

    /// The tags as text, the first value of each: strings as they are, other values serialised;
    /// binary tags (cover art) left out.
    var textTags: [String: String] {
        var result: [String: String] = [:]
        for index in 0..<gst_tag_list_n_tags(pointer) {
            guard let rawName = gst_tag_list_nth_tag_name(pointer, guint(index)),
                let raw = gst_tag_list_get_value_index(pointer, rawName, 0)
            else { continue }
            let value = BorrowedValue(borrowing: raw, owner: self)
            if let text = value.string {
                result[String(cString: rawName)] = text
            } else if value.type == me_type_string() || value.holdsBinary {
                continue  // a NULL string; cover art and other binary tags: not text
            } else if let text = value.serialized {
                result[String(cString: rawName)] = text
            }
        }
        return result
    }

    deinit {
        gst_tag_list_unref(pointer)
    }
}
