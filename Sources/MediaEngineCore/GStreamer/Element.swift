internal import CGStreamer
internal import CMediaEngineElements
internal import CMediaEngineGlue

/// An owned reference to a `GstElement`; `deinit` drops it with `gst_object_unref`.
///
/// `@unchecked Sendable`: GStreamer objects are thread-safe. Their reference counts
/// are atomic, and GStreamer guards an element's state, pads and properties with the
/// element's own object lock (`GST_OBJECT_LOCK`) and state lock; this wrapper adds no
/// mutable state of its own.
class Element: @unchecked Sendable, CustomStringConvertible {
    let pointer: UnsafeMutablePointer<GstElement>

    /// Adopts a reference the caller already owns (a `transfer full` return value).
    init(owning pointer: UnsafeMutablePointer<GstElement>) {
        self.pointer = pointer
    }

    /// Takes a new reference to an element someone else owns (`gst_object_ref`).
    convenience init(borrowing pointer: UnsafeMutablePointer<GstElement>) {
        gst_object_ref(pointer)
        self.init(owning: pointer)
    }

    /// Sinks a floating reference, as returned by `gst_element_factory_make` (`gst_object_ref_sink`).
    convenience init(sinking pointer: UnsafeMutablePointer<GstElement>) {
        gst_object_ref_sink(pointer)
        self.init(owning: pointer)
    }

    deinit {
        gst_object_unref(pointer)
    }

    /// Makes an element from a factory (`gst_element_factory_make`).
    /// - Throws: ``MediaError/Code/missingPlugin`` naming the Debian package that has the factory.
    static func make(_ factory: String, name: String? = nil) throws(MediaError) -> Element {
        try GStreamer.initialize()
        guard let raw = gst_element_factory_make(factory, name) else {
            throw MissingPluginAdvisor.errorForMissingFactory(factory)
        }
        return Element(sinking: raw)
    }

    var objectPointer: UnsafeMutablePointer<GstObject> { gcast(pointer) }

    /// The element's name (`gst_object_get_name`).
    var name: String { takeGString(gst_object_get_name(objectPointer)) ?? "" }

    /// The name of the factory that made the element, or "" for bins made by hand.
    var factoryName: String {
        me_element_factory_name(pointer).map { String(cString: $0) } ?? ""
    }

    var description: String { "\(factoryName):\(name)" }

    /// `gst_element_set_state`.
    @discardableResult
    func setState(_ state: GstState) -> GstStateChangeReturn {
        gst_element_set_state(pointer, state)
    }

    /// `gst_element_get_state` with a timeout in nanoseconds (0 returns at once).
    func state(timeout: GstClockTime = 0) -> (result: GstStateChangeReturn, current: GstState, pending: GstState) {
        var current = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(pointer, &current, &pending, timeout)
        return (result, current, pending)
    }

    /// `gst_element_get_static_pad`.
    func staticPad(_ name: String) -> Pad? {
        gst_element_get_static_pad(pointer, name).map { Pad(owning: $0) }
    }

    /// `gst_element_link`.
    func link(to next: Element) throws(MediaError) {
        guard gst_element_link(pointer, next.pointer) != 0 else {
            throw MediaError(.pipelineFailure, "could not link \(self) to \(next)", element: name)
        }
    }

    /// `gst_element_get_bus`.
    var bus: Bus? {
        gst_element_get_bus(pointer).map { Bus(owning: $0) }
    }

    /// Sends an event (`gst_element_send_event`, which takes ownership of it).
    @discardableResult
    func send(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        gst_element_send_event(pointer, event) != 0
    }

    /// `gst_element_query_position` in time format.
    func queryPosition() -> GstClockTime? {
        var position: gint64 = -1
        guard gst_element_query_position(pointer, GST_FORMAT_TIME, &position) != 0, position >= 0 else { return nil }
        return GstClockTime(position)
    }

    /// `gst_element_query_duration` in time format.
    func queryDuration() -> GstClockTime? {
        var duration: gint64 = -1
        guard gst_element_query_duration(pointer, GST_FORMAT_TIME, &duration) != 0, duration >= 0 else { return nil }
        return GstClockTime(duration)
    }

    /// `gst_bin_recalculate_latency`, for an element that is a bin (a pipeline).
    func recalculateLatency() {
        gst_bin_recalculate_latency(gcast(pointer))
    }

    /// Posts ME_MESSAGE_EPOCH with `epoch` on this pipeline's bus (`me_post_epoch_marker`): where a
    /// reloaded movie's messages begin.
    @discardableResult
    func postEpochMarker(_ epoch: Int) -> Bool {
        me_post_epoch_marker(pointer, guint(clamping: epoch)) != 0
    }

    /// Posts ME_MESSAGE_SEEK_SENT with `seqnum` on this pipeline's bus (`me_post_seek_sent_marker`):
    /// a flushing seek with that number is about to be sent.
    @discardableResult
    func postSeekSentMarker(_ seqnum: UInt32) -> Bool {
        me_post_seek_sent_marker(pointer, seqnum) != 0
    }

    /// A seeking query in time (`gst_query_new_seeking`, `gst_element_query`,
    /// `gst_query_parse_seeking`): whether the element can seek, and the range (-1: unknown); nil
    /// when nothing answered.
    func querySeeking() -> (seekable: Bool, start: gint64, end: gint64)? {
        guard let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return nil }
        defer { gst_query_unref(query) }
        guard gst_element_query(pointer, query) != 0 else { return nil }
        var seekable: gboolean = 0
        var start: gint64 = -1
        var end: gint64 = -1
        gst_query_parse_seeking(query, nil, &seekable, &start, &end)
        return (seekable != 0, start, end)
    }

    /// `gst_element_query_position` and `gst_element_query_duration` in bytes: how far a byte
    /// source has read, and how many bytes it has in all (an HTTP source: the Content-Length).
    func queryBytes() -> (position: Int, total: Int)? {
        var position: gint64 = -1
        var total: gint64 = -1
        guard gst_element_query_position(pointer, GST_FORMAT_BYTES, &position) != 0,
            gst_element_query_duration(pointer, GST_FORMAT_BYTES, &total) != 0, position >= 0, total > 0
        else { return nil }
        return (Int(position), Int(total))
    }

    /// Posts an empty application message named `name` on this element's bus.
    @discardableResult
    func postApplicationMessage(_ name: String) -> Bool {
        me_post_application_message(pointer, name) != 0
    }
}

/// An owned reference to a `GstBin`.
final class Bin: Element, @unchecked Sendable {
    var binPointer: UnsafeMutablePointer<GstBin> { gcast(pointer) }

    /// Makes an empty bin (`gst_bin_new`).
    static func make(name: String? = nil) throws(MediaError) -> Bin {
        try GStreamer.initialize()
        return Bin(sinking: gst_bin_new(name))
    }

    /// Makes an empty bin for a player's video output (`me_video_output_bin_new`): a seek sent to
    /// it goes upstream from its `sink` pad once, as from a single video sink, and never into the
    /// sinks inside it (see `outputbin.c`).
    static func makeVideoOutput(name: String) throws(MediaError) -> Bin {
        try GStreamer.initialize()
        return Bin(sinking: me_video_output_bin_new(name))
    }

    /// Builds a bin from a `gst-launch-1.0` description (`gst_parse_bin_from_description`), ghosting
    /// its unlinked pads.
    static func parse(_ description: String) throws(MediaError) -> Bin {
        try GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let raw = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            let message = String(cString: error.pointee.message)
            let missing =
                error.pointee.domain == gst_parse_error_quark()
                && error.pointee.code == GST_PARSE_ERROR_NO_SUCH_ELEMENT.rawValue
            g_error_free(error)
            if let raw { gst_object_unref(raw) }
            if missing, let factory = MissingPluginAdvisor.factoryNamed(inParseMessage: message) {
                throw MissingPluginAdvisor.errorForMissingFactory(factory)
            }
            throw MediaError(.invalidArgument, "cannot build '\(description)': \(message)")
        }
        guard let raw else { throw MediaError(.invalidArgument, "cannot build '\(description)'") }
        return Bin(sinking: gcast(raw))
    }

    /// Adds an element (`gst_bin_add`); the bin takes its own reference.
    func add(_ element: Element) throws(MediaError) {
        guard gst_bin_add(binPointer, element.pointer) != 0 else {
            throw MediaError(.pipelineFailure, "could not add \(element) to \(self)", element: element.name)
        }
    }

    /// Adds elements and links them in order.
    func addAndLink(_ elements: [Element]) throws(MediaError) {
        for element in elements { try add(element) }
        for (upstream, downstream) in zip(elements, elements.dropFirst()) {
            try upstream.link(to: downstream)
        }
    }

    /// Exposes a pad of a child as the bin's own pad (`gst_ghost_pad_new` + `gst_element_add_pad`).
    func addGhostPad(named name: String, target: Pad) throws(MediaError) {
        guard let ghost = gst_ghost_pad_new(name, target.pointer),
            gst_element_add_pad(pointer, ghost) != 0
        else {
            throw MediaError(.pipelineFailure, "could not expose pad '\(name)' on \(self)")
        }
    }
}
