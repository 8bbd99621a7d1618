internal import CMediaEngineCGStreamer

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
        let failure = message.failure(isError: isError)
        let domain: Domain =
            switch failure.domain {
            case .core: .core
            case .library: .library
            case .resource: .resource
            case .stream: .stream
            case .other(let name): .other(name)
            }
        self.init(
            domain: domain,
            code: failure.code,
            message: failure.message ?? "unknown error",
            debug: failure.debug,
            elementName: message.sourceName,
            factoryName: message.sourceFactoryName,
            httpStatusCode: failure.details?.uint("http-status-code").map { Int($0) })
        fromDemuxerWithoutStreams = message.isFromDemuxerWithoutStreams
    }

    func isResource(_ code: GstResourceError) -> Bool { domain == .resource && self.code == Int32(code.rawValue) }
    func isStream(_ code: GstStreamError) -> Bool { domain == .stream && self.code == Int32(code.rawValue) }
    func isCore(_ code: GstCoreError) -> Bool { domain == .core && self.code == Int32(code.rawValue) }
}
