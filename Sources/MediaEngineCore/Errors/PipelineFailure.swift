internal import CGStreamer

/// An ERROR or WARNING message from the pipeline, parsed into plain values.
struct PipelineFailure: Sendable, Equatable {
    /// The `GError` domain GStreamer used.
    enum Domain: Sendable, Equatable {
        case core, library, resource, stream
        case other(String)
    }

    var domain: Domain
    /// The `GError` code within the domain (`GST_RESOURCE_ERROR_NOT_FOUND`, ...).
    var code: Int32
    var message: String
    var debug: String?
    /// The name of the element that posted the failure.
    var elementName: String?
    /// That element's factory name.
    var factoryName: String?
    /// The HTTP status an HTTP source element attached to the failure (souphttpsrc's
    /// `http-status-code` detail), if any.
    var httpStatusCode: Int?
    /// Posted by a demuxer that had exposed no stream when it failed.
    var fromDemuxerWithoutStreams = false

    init(
        domain: Domain, code: Int32, message: String, debug: String? = nil, elementName: String? = nil,
        factoryName: String? = nil, httpStatusCode: Int? = nil
    ) {
        self.domain = domain
        self.code = code
        self.message = message
        self.debug = debug
        self.elementName = elementName
        self.factoryName = factoryName
        self.httpStatusCode = httpStatusCode
    }

    init(parsing message: Message, isError: Bool) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        var details: UnsafePointer<GstStructure>?
        if isError {
            gst_message_parse_error(message.pointer, &error, &debug)
            gst_message_parse_error_details(message.pointer, &details)
        } else {
            gst_message_parse_warning(message.pointer, &error, &debug)
            gst_message_parse_warning_details(message.pointer, &details)
        }
        var status: guint = 0
        let httpStatusCode =
            details.map { gst_structure_get_uint($0, "http-status-code", &status) != 0 } == true
            ? Int(status) : nil
        let domainQuark = error?.pointee.domain ?? 0
        let domain: Domain =
            switch domainQuark {
            case gst_core_error_quark(): .core
            case gst_library_error_quark(): .library
            case gst_resource_error_quark(): .resource
            case gst_stream_error_quark(): .stream
            default: .other(g_quark_to_string(domainQuark).map { String(cString: $0) } ?? "unknown")
            }
        self.init(
            domain: domain,
            code: error?.pointee.code ?? 0,
            message: error.map { String(cString: $0.pointee.message) } ?? "unknown error",
            debug: takeGString(debug),
            elementName: message.sourceName,
            factoryName: message.sourceFactoryName,
            httpStatusCode: httpStatusCode)
        fromDemuxerWithoutStreams = message.isFromDemuxerWithoutStreams
        if let error { g_error_free(error) }
    }

    func isResource(_ code: GstResourceError) -> Bool { domain == .resource && self.code == Int32(code.rawValue) }
    func isStream(_ code: GstStreamError) -> Bool { domain == .stream && self.code == Int32(code.rawValue) }
    func isCore(_ code: GstCoreError) -> Bool { domain == .core && self.code == Int32(code.rawValue) }
}
