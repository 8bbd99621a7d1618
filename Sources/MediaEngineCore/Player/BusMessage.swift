internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// A bus message the player cares about, as a `Sendable` value. The bus thread turns each
/// `GstMessage` into one of these, so no C type leaves the thread that popped it.
enum BusMessage: Sendable {
    /// The pipeline (not a child) changed state.
    case pipelineStateChanged(old: GstStateValue, new: GstStateValue, pending: GstStateValue)
    /// The pipeline finished an asynchronous state change or flushing seek.
    case asyncDone(seqnum: UInt32)
    case endOfStream
    /// A segment seek's segment ended (repeat mode): time to loop.
    case segmentDone
    case error(PipelineFailure)
    case warning(PipelineFailure)
    /// An element revised its duration: `group` is the stream group its pads carry (0 for none),
    /// which tells a queue's next movie, read ahead by playbin, from the one shown.
    case durationChanged(group: UInt32)
    case tags([String: String])
    /// The items of an ID3 tag the stream carries (a TS metadata stream, the start of packed
    /// audio), at their presentation time, read in the segment numbered `seqnum`.
    case timedMetadata(items: [TimedMetadataItem], time: Duration, seqnum: UInt32?)
    case buffering(percent: Int, stats: BufferingStats)
    /// An HTTP source element reported a server's answer (or that none came).
    case httpResponse(HTTPResponse)
    /// A network source delivered its whole stream.
    case downloadComplete
    /// A video element's QoS report: the frames it has dropped so far.
    case framesDropped(element: String, count: Int)
    /// An adaptive demuxer (HLS, DASH) switched variants or downloaded a segment.
    case adaptiveStreaming(AdaptiveStreamingReport)
    /// The manifest an adaptive demuxer read (a DASH MPD, an HLS playlist), whole.
    case manifest(String)
    /// decodebin found no element for a stream.
    case missingPlugin(description: String, caps: String?)
    /// A typefind element recognised the stream (posted by the shim's typefind watch).
    case streamTypeFound(caps: String)
    /// decodebin chose the element that decodes the video (its factory's name).
    case videoDecoderChosen(String)
    /// The first frame since start or since a flush reached the video sink; `seqnum` is the
    /// sequence number of the seek (or start) that led to it.
    case firstFrame(FirstFrame)
    /// The first frame was held back (and dropped) until the seek to the initial playback time.
    case firstFrameHeld
    case clockLost
    case latencyChanged
    /// The video output moved to another sink (posted by the swap in the shim).
    case outputSwapped
    /// A state change of the pipeline failed (posted after GStreamer's own error, if any).
    case stateChangeFailed
    /// A source setting did not fit the source element (the failure is kept by `SourceSetup`).
    case sourceSettingsFailed
    /// Where a reloaded movie's messages begin: the epoch's number.
    case newEpoch(Int)
    /// A flushing seek with this sequence number is about to be sent: what the pipeline says
    /// after this may be about it, what came before is not.
    case seekSent(UInt32)
    /// Every sink of the pipeline started a new stream: the movie's first, or the next one
    /// playbin went on to without a gap (a different `group`).
    case streamStarted(group: UInt32)
    /// The bus thread is asked to end.
    case stopBusThread

    /// The message types the bus thread pops; GStreamer drops the rest unread.
    static let interestingTypes: GstMessageType = GstMessageType(
        rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_WARNING.rawValue
            | GST_MESSAGE_STATE_CHANGED.rawValue | GST_MESSAGE_ASYNC_DONE.rawValue
            | GST_MESSAGE_DURATION_CHANGED.rawValue | GST_MESSAGE_TAG.rawValue | GST_MESSAGE_BUFFERING.rawValue
            | GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_APPLICATION.rawValue | GST_MESSAGE_CLOCK_LOST.rawValue
            | GST_MESSAGE_LATENCY.rawValue | GST_MESSAGE_SEGMENT_DONE.rawValue | GST_MESSAGE_QOS.rawValue
            | GST_MESSAGE_STREAM_START.rawValue)

    /// Translates a message, or returns nil for one the player does not need
    /// (a child's state change, an unrelated element message).
    init?(_ message: Message, pipeline: Element) {
        switch message.type {
        case GST_MESSAGE_STATE_CHANGED:
            guard message.sourcePointer == UnsafeMutableRawPointer(pipeline.pointer) else { return nil }
            let change = message.stateChange
            self = .pipelineStateChanged(old: .init(change.old), new: .init(change.new), pending: .init(change.pending))
        case GST_MESSAGE_ASYNC_DONE:
            guard message.sourcePointer == UnsafeMutableRawPointer(pipeline.pointer) else { return nil }
            self = .asyncDone(seqnum: message.seqnum)
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_STREAM_START:
            guard message.sourcePointer == UnsafeMutableRawPointer(pipeline.pointer) else { return nil }
            self = .streamStarted(group: message.groupID)
        case GST_MESSAGE_SEGMENT_DONE:
            guard message.sourcePointer == UnsafeMutableRawPointer(pipeline.pointer) else { return nil }
            self = .segmentDone
        case GST_MESSAGE_ERROR:
            self = .error(PipelineFailure(parsing: message, isError: true))
        case GST_MESSAGE_WARNING:
            self = .warning(PipelineFailure(parsing: message, isError: false))
        case GST_MESSAGE_DURATION_CHANGED:
            self = .durationChanged(group: message.sourceGroupID)
        case GST_MESSAGE_TAG:
            self = .tags(message.tagList?.textTags ?? [:])
        case GST_MESSAGE_BUFFERING:
            let stats = message.bufferingStats
            let mode = stats.mode
            self = .buffering(
                percent: message.bufferingPercent,
                stats: BufferingStats(
                    mode: mode == GST_BUFFERING_DOWNLOAD ? .download : mode == GST_BUFFERING_LIVE ? .live : .stream,
                    averageIn: stats.averageIn, averageOut: stats.averageOut,
                    remaining: stats.left >= 0 ? .milliseconds(stats.left) : nil))
        case GST_MESSAGE_CLOCK_LOST:
            self = .clockLost
        case GST_MESSAGE_QOS:
            // Only video elements' drops count (an audio sink's QoS is about samples).
            guard message.sourceIsVideoElement, let name = message.sourceName else { return nil }
            let qos = message.qosStats
            guard qos.format == GST_FORMAT_BUFFERS || qos.format == GST_FORMAT_DEFAULT, qos.dropped != UInt64.max else {
                return nil
            }
            self = .framesDropped(element: name, count: Int(clamping: qos.dropped))
        case GST_MESSAGE_LATENCY:
            self = .latencyChanged
        case GST_MESSAGE_ELEMENT:
            if let structure = message.structure, structure.name == "http-headers" {
                self = .httpResponse(Self.httpResponse(in: structure))
                return
            }
            if let structure = message.structure, structure.name == AdaptiveStreamingReport.messageName {
                guard let report = AdaptiveStreamingReport(structure) else { return nil }
                self = .adaptiveStreaming(report)
                return
            }
            guard message.isMissingPlugin else { return nil }
            let description = message.missingPluginDescription ?? "plugin"
            let caps = message.structure?.value("detail")?.caps?.description
            self = .missingPlugin(description: description, caps: caps)
        case GST_MESSAGE_APPLICATION:
            guard let structure = message.structure else { return nil }
            let name = structure.name
            switch name {
            case ME_MESSAGE_STREAM_TYPE:
                self = .streamTypeFound(caps: structure.string(ME_FIELD_CAPS) ?? "")
            case ME_MESSAGE_VIDEO_DECODER:
                guard let factory = structure.string(ME_FIELD_FACTORY) else { return nil }
                self = .videoDecoderChosen(factory)
            case ME_MESSAGE_FIRST_FRAME_HELD:
                self = .firstFrameHeld
            case ME_MESSAGE_FIRST_FRAME:
                let parN = structure.int(ME_FIELD_PAR_N) ?? 1
                let parD = structure.int(ME_FIELD_PAR_D) ?? 1
                self = .firstFrame(
                    FirstFrame(
                        width: structure.int(ME_FIELD_WIDTH) ?? 0, height: structure.int(ME_FIELD_HEIGHT) ?? 0,
                        pixelAspectRatio: parN > 0 && parD > 0 ? Double(parN) / Double(parD) : 1,
                        streamTime: structure.uint64(ME_FIELD_STREAM_TIME).flatMap {
                            Duration(clockTime: GstClockTime($0))
                        },
                        seqnum: UInt32(truncatingIfNeeded: structure.uint(ME_FIELD_SEQNUM) ?? 0)))
            case ME_MESSAGE_OUTPUT_SWAPPED:
                self = .outputSwapped
            case ME_MESSAGE_STATE_CHANGE_FAILED:
                self = .stateChangeFailed
            case ME_MESSAGE_SOURCE_SETTINGS_FAILED:
                self = .sourceSettingsFailed
            case ME_MESSAGE_TIMED_METADATA:
                guard let timed = Self.timedMetadata(in: structure) else { return nil }
                self = timed
            case ME_MESSAGE_BUS_STOP:
                self = .stopBusThread
            case ME_MESSAGE_DOWNLOAD_COMPLETE:
                self = .downloadComplete
            case ME_MESSAGE_MANIFEST:
                guard let text = structure.string(ME_FIELD_TEXT) else { return nil }
                self = .manifest(text)
            case ME_MESSAGE_EPOCH:
                guard let epoch = structure.uint(ME_FIELD_EPOCH) else { return nil }
                self = .newEpoch(Int(epoch))
            case ME_MESSAGE_SEEK_SENT:
                guard let seqnum = structure.uint(ME_FIELD_SEQNUM) else { return nil }
                self = .seekSent(UInt32(truncatingIfNeeded: seqnum))
            default:
                return nil  // Not one of the engine's.
            }
        default:
            return nil
        }
    }

    /// souphttpsrc's `http-headers` structure: `uri`, `http-status-code`, `redirection-uri`,
    /// `response-headers` (a structure of strings). Request headers are never read: they carry
    /// the Authorization header.
    private static func httpResponse(in structure: Structure) -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in structure.value("response-headers")?.structure?.fields ?? [] {
            if let text = value.type == me_type_string() ? value.string : value.serialized { headers[name] = text }
        }
        return HTTPResponse(
            uri: structure.string("uri") ?? "", redirectedURI: structure.string("redirection-uri"),
            statusCode: Int(structure.uint("http-status-code") ?? 0), headers: headers)
    }

    /// The items of an ME_MESSAGE_TIMED_METADATA message (posted by `timedmetadata.c`).
    private static func timedMetadata(in structure: Structure) -> BusMessage? {
        guard let streamTime = structure.uint64(ME_FIELD_STREAM_TIME),
            let time = Duration(clockTime: GstClockTime(streamTime)),
            let list = structure.value(ME_FIELD_TAGS)?.tagList
        else { return nil }
        let version = Int(structure.uint(ME_FIELD_ID3_VERSION) ?? 4)
        let items = TimedMetadataItem.items(id3Tags: list, version: version, at: time)
        // GST_SEQNUM_INVALID (0): a segment without a seek's number.
        let seqnum = structure.uint(ME_FIELD_SEQNUM).map { UInt32(truncatingIfNeeded: $0) }.flatMap {
            $0 == 0 ? nil : $0
        }
        return .timedMetadata(items: items, time: time, seqnum: seqnum)
    }
}

/// `GstState` as a Swift value.
enum GstStateValue: Sendable, Equatable {
    case voidPending, null, ready, paused, playing

    init(_ state: GstState) {
        switch state {
        case GST_STATE_NULL: self = .null
        case GST_STATE_READY: self = .ready
        case GST_STATE_PAUSED: self = .paused
        case GST_STATE_PLAYING: self = .playing
        default: self = .voidPending
        }
    }
}

/// What the video output's probe saw of the first frame after a start or a flush.
struct FirstFrame: Sendable, Equatable {
    var width: Int
    var height: Int
    var pixelAspectRatio: Double
    /// The frame's position in the movie.
    var streamTime: Duration?
    /// The sequence number of the flush or segment before the frame: a seek's number.
    var seqnum: UInt32

    /// The largest side of a display size: about what a sink can allocate (GStreamer's GL
    /// textures and most video hardware stop at 16384).
    static let maximumDisplaySide = 16384

    /// The size at which the frame displays: the stored size with the width multiplied by the
    /// pixel aspect ratio, scaled down (keeping its shape) until neither side exceeds
    /// ``maximumDisplaySide``, then each side at least 1. A pixel aspect ratio of 65535:1 on a
    /// 320x240 picture displays 16384x1, not 20,971,200x240; 1:65535 displays 1x240, not 0x240.
    var displaySize: VideoSize {
        let shownWidth = Double(width) * (pixelAspectRatio.isFinite && pixelAspectRatio > 0 ? pixelAspectRatio : 1)
        let shownHeight = Double(height)
        let largest = Double(Self.maximumDisplaySide)
        let shrink = min(1, largest / max(shownWidth, shownHeight, 1))
        func side(_ value: Double) -> Int { Int(min(largest, max(1, (value * shrink).rounded()))) }
        guard width > 0, height > 0 else { return .zero }
        return VideoSize(width: side(shownWidth), height: side(shownHeight))
    }
}
