internal import CMediaEngineCGStreamer
import Foundation

/// Turns what the pipeline reported into a ``MediaError``, using what the player saw before
/// the failure (the stream's type, a missing-plugin message). GStreamer gives several bad
/// inputs the same error; this is where they are told apart.
struct PipelineErrorTranslator {
    /// The caps typefind reported for the stream, if it got that far.
    var streamCaps: String?
    /// decodebin's missing-plugin report, if there was one.
    var missingPlugin: (description: String, caps: String?)?
    /// The last answer (or failure to answer) an HTTP source element reported.
    var lastHTTPResponse: HTTPResponse?

    /// The error for `failure`, with no user information in any URI it quotes.
    func translate(_ failure: PipelineFailure) -> MediaError {
        var translated = translateUnredacted(failure)
        translated.message = URIRedaction.redacting(translated.message)
        translated.debugDetail = translated.debugDetail.map(URIRedaction.redacting)
        return translated
    }

    private func translateUnredacted(_ failure: PipelineFailure) -> MediaError {
        let element = failure.elementName
        func error(_ code: MediaError.Code, _ message: String) -> MediaError {
            MediaError(code, message, debugDetail: failure.debug, element: element)
        }
        if let http = httpError(failure) { return http }
        if failure.debug == MediaLimits.frameTooLargeDetail { return error(.tooLarge, failure.message) }
        if let missingPlugin {
            if let caps = missingPlugin.caps, !StreamTypePolicy.isPlayable(caps) {
                return error(.notAMovie, "the content is \(StreamTypePolicy.mediaType(of: caps)), not a movie")
            }
            var translated = MissingPluginAdvisor.errorForMissingDecoder(
                description: missingPlugin.description, caps: missingPlugin.caps)
            translated.element = element
            return translated
        }
        switch failure.domain {
        case .resource:
            if failure.isResource(GST_RESOURCE_ERROR_NOT_FOUND) { return error(.fileNotFound, failure.message) }
            if failure.isResource(GST_RESOURCE_ERROR_NOT_AUTHORIZED) {
                return error(.permissionDenied, failure.message)
            }
            if failure.isResource(GST_RESOURCE_ERROR_OPEN_READ)
                || failure.isResource(GST_RESOURCE_ERROR_OPEN_READ_WRITE)
            {
                return error(.permissionDenied, failure.message)
            }
            if let write = writeError(failure) { return error(write, failure.message) }
            return error(.streamFailure, failure.message)
        case .stream:
            if failure.isStream(GST_STREAM_ERROR_TYPE_NOT_FOUND) || failure.isStream(GST_STREAM_ERROR_WRONG_TYPE) {
                return error(.notAMovie, "the content is not a movie GStreamer recognises (\(failure.message))")
            }
            if failure.isStream(GST_STREAM_ERROR_CODEC_NOT_FOUND) {
                return error(
                    .missingPlugin, "\(failure.message): install gstreamer1.0-libav and gstreamer1.0-plugins-bad")
            }
            if failure.isStream(GST_STREAM_ERROR_DEMUX) || failure.isStream(GST_STREAM_ERROR_FORMAT)
                || failure.isStream(GST_STREAM_ERROR_DECODE)
            {
                return error(.corruptContainer, failure.message)
            }
            if failure.isStream(GST_STREAM_ERROR_FAILED) && failure.fromDemuxerWithoutStreams {
                // A flow error ("Internal data stream error") before the demuxer found a single
                // stream: qtdemux's on an ftyp box followed by noise. What the stalled-demuxer
                // watch says when decodebin drops that error instead.
                return error(.corruptContainer, "the container holds no stream that can be played (\(failure.message))")
            }
            return error(.streamFailure, failure.message)
        case .core:
            if failure.isCore(GST_CORE_ERROR_MISSING_PLUGIN) {
                return error(.missingPlugin, "\(failure.message): a GStreamer plugin is missing")
            }
            return error(.pipelineFailure, failure.message)
        case .library, .other:
            return error(.pipelineFailure, failure.message)
        }
    }
}

extension PipelineErrorTranslator {
    /// The code of a sink's failed write (`multifilesink` of the images sink): `NO_SPACE_LEFT`,
    /// or `OPEN_WRITE`/`WRITE`/`CLOSE` told apart by the system error the element put in its
    /// debug text (`g_strerror`): a full disk, a quota or a file size limit is
    /// ``MediaError/Code/diskFull``; a read-only file system or a folder without permission
    /// ``MediaError/Code/permissionDenied``; a folder that went away ``MediaError/Code/fileNotFound``.
    /// Nil for other failures.
    fileprivate func writeError(_ failure: PipelineFailure) -> MediaError.Code? {
        if failure.isResource(GST_RESOURCE_ERROR_NO_SPACE_LEFT) { return .diskFull }
        guard
            failure.isResource(GST_RESOURCE_ERROR_OPEN_WRITE) || failure.isResource(GST_RESOURCE_ERROR_WRITE)
                || failure.isResource(GST_RESOURCE_ERROR_CLOSE)
        else { return nil }
        let debug = failure.debug ?? ""
        func mentions(_ codes: Int32...) -> Bool { codes.contains { debug.contains(String(cString: strerror($0))) } }
        if mentions(ENOSPC, EDQUOT, EFBIG) { return .diskFull }
        if mentions(EROFS, EACCES, EPERM) { return .permissionDenied }
        if mentions(ENOENT, ENOTDIR) { return .fileNotFound }
        return nil
    }

    /// The error of an HTTP source that failed: by the status it attached, or by the last answer
    /// it reported (an HTTP source's flow error carries no status; its `http-headers` message,
    /// which came first, has it). Nil for failures that are not about HTTP.
    fileprivate func httpError(_ failure: PipelineFailure) -> MediaError? {
        // An adaptive demuxer (hlsdemux, dashdemux) reads its segments with HTTP sources of its
        // own and posts their errors as its own: the segment's answer is the last one reported.
        let fromSource =
            failure.httpStatusCode != nil
            || failure.factoryName.map { Self.isHTTPSource($0) || Self.isAdaptiveDemuxer($0) } == true
        guard fromSource else { return nil }
        let response = lastHTTPResponse
        let status = failure.httpStatusCode ?? response?.statusCode
        let uri = response?.finalURI ?? ""
        if status == 200 || status == 206, failure.factoryName.map(Self.isHTTPSource) == true,
            failure.domain == .stream || failure.domain == .resource
        {
            // The server answered, then the source's body stopped: a reset, or retries spent on
            // a body that ends early. (A demuxer's error after a full answer is about the
            // content: a bad playlist, not a broken connection.)
            return MediaError(
                .connectionLost, "the connection to the server broke while the movie was read (\(uri))",
                debugDetail: failure.debug, element: failure.elementName)
        }
        guard let status, status != 200, status != 206 else { return nil }
        let at = uri.isEmpty ? "" : " (\(uri))"
        func error(_ code: MediaError.Code, _ message: String) -> MediaError {
            MediaError(
                code, message + at, debugDetail: failure.debug, element: failure.elementName,
                httpStatusCode: status > 0 ? status : nil)
        }
        switch status {
        case 0:
            return error(.connectionFailed, "no connection to the server could be made")
        case 401, 407:
            return error(.unauthorized, "the server wants credentials (HTTP \(status)) and has none it accepts")
        case 403:
            return error(.forbidden, "the server refuses access (HTTP 403)")
        case 404, 410:
            return error(.fileNotFound, "the server has no such file (HTTP \(status))")
        case 300..<400:
            return error(.tooManyRedirects, "the server's redirects lead nowhere (HTTP \(status))")
        case 400...:
            return error(.httpError, "the server answered HTTP \(status)")
        default:
            return nil
        }
    }

    /// Whether a factory is an adaptive-streaming demuxer, which downloads segments itself.
    static func isAdaptiveDemuxer(_ factory: String) -> Bool {
        ["hlsdemux", "dashdemux", "mssdemux"].contains { factory.hasPrefix($0) }
    }

    /// Whether a factory is an HTTP source element.
    static func isHTTPSource(_ factory: String) -> Bool {
        factory == "souphttpsrc" || factory == "curlhttpsrc"
    }
}

/// Which stream types a movie player accepts. Typefind also recognises images, text,
/// subtitles and archives; decodebin would happily show an image as a one-frame video,
/// so those are refused as soon as their type is known.
enum StreamTypePolicy {
    private static let mediaApplicationTypes: Set<String> = [
        "application/ogg", "application/x-id3", "application/x-apetag", "application/x-hls", "application/dash+xml",
        "application/vnd.ms-sstr+xml", "application/mxf", "application/x-yuv4mpeg", "application/x-annodex",
        "application/x-ogm-video", "application/x-ogm-audio", "application/sdp", "application/x-rtp",
        "application/vnd.rn-realmedia", "application/x-pn-realaudio", "application/x-icy", "application/x-3gp",
        "application/x-rtsp",
    ]

    /// The types of adaptive-streaming manifests (HLS, DASH, Smooth Streaming).
    static let manifestTypes: Set<String> = [
        "application/x-hls", "application/dash+xml", "application/vnd.ms-sstr+xml",
    ]

    /// The media type of caps (`"video/quicktime, variant=iso"` -> `"video/quicktime"`).
    static func mediaType(of caps: String) -> String {
        String(caps.prefix { $0 != "," && $0 != ";" }).filter { !$0.isWhitespace }
    }

    /// Whether a stream of these caps can be a movie (video or audio).
    static func isPlayable(_ caps: String) -> Bool {
        let type = mediaType(of: caps)
        return type.hasPrefix("video/") || type.hasPrefix("audio/") || mediaApplicationTypes.contains(type)
    }
}
