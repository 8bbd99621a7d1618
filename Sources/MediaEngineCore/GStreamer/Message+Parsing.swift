internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue
internal import CMediaEnginePipeline

/// The fields of the messages the player reads, each parsed by the `gst_message_parse_*`
/// function named in its doc.
extension Message {
    /// `gst_message_parse_state_changed`.
    var stateChange: (old: GstState, new: GstState, pending: GstState) {
        var old = GST_STATE_VOID_PENDING
        var new = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        gst_message_parse_state_changed(pointer, &old, &new, &pending)
        return (old, new, pending)
    }

    /// `gst_message_parse_buffering`: how full the buffer is, in percent.
    var bufferingPercent: Int {
        var percent: gint = 0
        gst_message_parse_buffering(pointer, &percent)
        return Int(percent)
    }

    /// `gst_message_parse_buffering_stats`: the mode, the average input and output rates (bytes
    /// per second) and the time left to fill the buffer (milliseconds, -1 unknown).
    var bufferingStats: (mode: GstBufferingMode, averageIn: Int, averageOut: Int, left: gint64) {
        var mode = GST_BUFFERING_STREAM
        var averageIn: gint = 0
        var averageOut: gint = 0
        var left: gint64 = -1
        gst_message_parse_buffering_stats(pointer, &mode, &averageIn, &averageOut, &left)
        return (mode, Int(averageIn), Int(averageOut), left)
    }

    /// `gst_message_parse_qos_stats`: the format of the counts, and what was processed and dropped.
    var qosStats: (format: GstFormat, processed: guint64, dropped: guint64) {
        var format = GST_FORMAT_UNDEFINED
        var processed: guint64 = 0
        var dropped: guint64 = 0
        gst_message_parse_qos_stats(pointer, &format, &processed, &dropped)
        return (format, processed, dropped)
    }

    /// `gst_message_parse_tag`: the tags, owned.
    var tagList: TagList? {
        var list: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(pointer, &list)
        return list.map { TagList(owning: $0) }
    }

    /// A STREAM_START message's group id, 0 when it has none (`gst_message_parse_group_id`).
    var groupID: UInt32 { me_message_group_id(pointer) }

    /// The stream group of the element that posted the message (`me_message_source_group_id`).
    var sourceGroupID: UInt32 { me_message_source_group_id(pointer) }

    /// `gst_is_missing_plugin_message`.
    var isMissingPlugin: Bool { gst_is_missing_plugin_message(pointer) != 0 }

    /// `gst_missing_plugin_message_get_description`.
    var missingPluginDescription: String? { takeGString(gst_missing_plugin_message_get_description(pointer)) }

    /// An ERROR's or WARNING's `GError` and details (`gst_message_parse_error` and
    /// `gst_message_parse_error_details`, or the warning's).
    func failure(isError: Bool) -> MessageFailure {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        var details: UnsafePointer<GstStructure>?
        if isError {
            gst_message_parse_error(pointer, &error, &debug)
            gst_message_parse_error_details(pointer, &details)
        } else {
            gst_message_parse_warning(pointer, &error, &debug)
            gst_message_parse_warning_details(pointer, &details)
        }
        defer { if let error { g_error_free(error) } }
        let domain = error?.pointee.domain ?? 0
        return MessageFailure(
            domain: MessageFailure.Domain(domain), code: error?.pointee.code ?? 0,
            message: error.map { String(cString: $0.pointee.message) }, debug: takeGString(debug),
            details: details.map { Structure(borrowing: $0, owner: self) })
    }
}

/// What `Message.failure(isError:)` parsed.
struct MessageFailure {
    /// The `GError` domain: GStreamer's own four (`gst_core_error_quark` and the others), or
    /// another quark's name (`g_quark_to_string`).
    enum Domain: Equatable {
        case core, library, resource, stream
        case other(String)

        init(_ quark: GQuark) {
            switch quark {
            case gst_core_error_quark(): self = .core
            case gst_library_error_quark(): self = .library
            case gst_resource_error_quark(): self = .resource
            case gst_stream_error_quark(): self = .stream
            default: self = .other(g_quark_to_string(quark).map { String(cString: $0) } ?? "unknown")
            }
        }
    }

    var domain: Domain
    var code: Int32
    var message: String?
    var debug: String?
    /// The message's details structure, if any (borrowed from the message).
    var details: Structure?
}
