internal import CGStreamer
internal import CGStreamerShim

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
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            var pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message.pointer, &old, &new, &pending)
            self = .pipelineStateChanged(old: .init(old), new: .init(new), pending: .init(pending))
        case GST_MESSAGE_ASYNC_DONE:
            guard message.sourcePointer == UnsafeMutableRawPointer(pipeline.pointer) else { return nil }
            self = .asyncDone(seqnum: message.seqnum)
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_STREAM_START:
            guard message.sourcePointer == UnsafeMutableRawPointer(pipeline.pointer) else { return nil }
            self = .streamStarted(group: me_message_group_id(message.pointer))
        case GST_MESSAGE_SEGMENT_DONE:
            guard message.sourcePointer == UnsafeMutableRawPointer(pipeline.pointer) else { return nil }
            self = .segmentDone
        case GST_MESSAGE_ERROR:
            self = .error(PipelineFailure(parsing: message, isError: true))
        case GST_MESSAGE_WARNING:
            self = .warning(PipelineFailure(parsing: message, isError: false))
        case GST_MESSAGE_DURATION_CHANGED:
            self = .durationChanged(group: me_message_source_group_id(message.pointer))
        case GST_MESSAGE_TAG:
            self = .tags(Self.tags(in: message))
        case GST_MESSAGE_BUFFERING:
            var percent: gint = 0
            gst_message_parse_buffering(message.pointer, &percent)
            var mode = GST_BUFFERING_STREAM
            var averageIn: gint = 0
            var averageOut: gint = 0
            var left: gint64 = -1
            gst_message_parse_buffering_stats(message.pointer, &mode, &averageIn, &averageOut, &left)
            self = .buffering(
                percent: Int(percent),
                stats: BufferingStats(
                    mode: mode == GST_BUFFERING_DOWNLOAD ? .download : mode == GST_BUFFERING_LIVE ? .live : .stream,
                    averageIn: Int(averageIn), averageOut: Int(averageOut),
                    remaining: left >= 0 ? .milliseconds(left) : nil))
        case GST_MESSAGE_CLOCK_LOST:
            self = .clockLost
        case GST_MESSAGE_QOS:
            // Only video elements' drops count (an audio sink's QoS is about samples).
            guard message.sourceIsVideoElement, let name = message.sourceName else { return nil }
            var format = GST_FORMAT_UNDEFINED
            var processed: guint64 = 0
            var dropped: guint64 = 0
            gst_message_parse_qos_stats(message.pointer, &format, &processed, &dropped)
            guard format == GST_FORMAT_BUFFERS || format == GST_FORMAT_DEFAULT, dropped != UInt64.max else {
                return nil
            }
            self = .framesDropped(element: name, count: Int(clamping: dropped))
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
            guard gst_is_missing_plugin_message(message.pointer) != 0 else { return nil }
            let description = takeGString(gst_missing_plugin_message_get_description(message.pointer)) ?? "plugin"
            let caps = message.structure.flatMap { structure -> String? in
                guard let value = gst_structure_get_value(structure.pointer, "detail"),
                    me_value_type(value) == gst_caps_get_type(),
                    let caps = gst_value_get_caps(value)
                else { return nil }
                return Caps(borrowing: UnsafeMutablePointer(mutating: caps)).description
            }
            self = .missingPlugin(description: description, caps: caps)
        case GST_MESSAGE_APPLICATION:
            guard let structure = message.structure else { return nil }
            let name = structure.name
            switch name {
            case ME_MESSAGE_STREAM_TYPE:
                self = .streamTypeFound(caps: structure.string("caps") ?? "")
            case ME_MESSAGE_VIDEO_DECODER:
                guard let factory = structure.string("factory") else { return nil }
                self = .videoDecoderChosen(factory)
            case ME_MESSAGE_FIRST_FRAME_HELD:
                self = .firstFrameHeld
            case ME_MESSAGE_FIRST_FRAME:
                let parN = structure.int("par-n") ?? 1
                let parD = structure.int("par-d") ?? 1
                self = .firstFrame(
                    FirstFrame(
                        width: structure.int("width") ?? 0, height: structure.int("height") ?? 0,
                        pixelAspectRatio: parN > 0 && parD > 0 ? Double(parN) / Double(parD) : 1,
                        streamTime: structure.uint64("stream-time").flatMap { Duration(clockTime: GstClockTime($0)) },
                        seqnum: UInt32(truncatingIfNeeded: structure.uint("seqnum") ?? 0)))
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
                guard let text = structure.string("text") else { return nil }
                self = .manifest(text)
            case _ where name.hasPrefix(ME_MESSAGE_EPOCH_PREFIX):
                guard let epoch = Int(name.dropFirst(ME_MESSAGE_EPOCH_PREFIX.count)) else { return nil }
                self = .newEpoch(epoch)
            case _ where name.hasPrefix(ME_MESSAGE_SEEK_PREFIX):
                guard let seqnum = UInt32(name.dropFirst(ME_MESSAGE_SEEK_PREFIX.count)) else { return nil }
                self = .seekSent(seqnum)
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
        if let value = gst_structure_get_value(structure.pointer, "response-headers"),
            me_value_type(value) == gst_structure_get_type(),
            let fields = gst_value_get_structure(value)
        {
            for index in 0..<max(0, gst_structure_n_fields(fields)) {
                guard let name = gst_structure_nth_field_name(fields, guint(index)),
                    let field = gst_structure_get_value(fields, name)
                else { continue }
                let text =
                    me_value_type(field) == me_type_string()
                    ? g_value_get_string(field).map { String(cString: $0) }
                    : takeGString(gst_value_serialize(field))
                if let text { headers[String(cString: name)] = text }
            }
        }
        return HTTPResponse(
            uri: structure.string("uri") ?? "", redirectedURI: structure.string("redirection-uri"),
            statusCode: Int(structure.uint("http-status-code") ?? 0), headers: headers)
    }

    /// The items of an ME_MESSAGE_TIMED_METADATA message (posted by `timedmetadata.c`).
    private static func timedMetadata(in structure: Structure) -> BusMessage? {
        guard let streamTime = structure.uint64("stream-time"),
            let time = Duration(clockTime: GstClockTime(streamTime)),
            let value = gst_structure_get_value(structure.pointer, "tags"), me_value_type(value) == me_type_tag_list(),
            let list = g_value_get_boxed(value)
        else { return nil }
        let version = Int(structure.uint("id3-version") ?? 4)
        let items = TimedMetadataItem.items(
            id3Tags: list.assumingMemoryBound(to: GstTagList.self), version: version, at: time)
        // GST_SEQNUM_INVALID (0): a segment without a seek's number.
        let seqnum = structure.uint("seqnum").map { UInt32(truncatingIfNeeded: $0) }.flatMap { $0 == 0 ? nil : $0 }
        return .timedMetadata(items: items, time: time, seqnum: seqnum)
    }

    private static func tags(in message: Message) -> [String: String] {
        var list: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(message.pointer, &list)
        guard let list else { return [:] }
        defer { gst_tag_list_unref(list) }
        return textTags(of: list)
    }

    /// A tag list's tags as text: strings as they are, other values serialised; binary tags
    /// (cover art) left out.
    static func textTags(of list: UnsafeMutablePointer<GstTagList>) -> [String: String] {
        var result: [String: String] = [:]
        for index in 0..<gst_tag_list_n_tags(list) {
            guard let rawName = gst_tag_list_nth_tag_name(list, guint(index)) else { continue }
            let name = String(cString: rawName)
            guard let value = gst_tag_list_get_value_index(list, rawName, 0) else { continue }
            if me_value_type(value) == me_type_string() {
                result[name] = g_value_get_string(value).map { String(cString: $0) }
            } else if me_value_type(value) == gst_sample_get_type() || me_value_type(value) == gst_buffer_get_type() {
                continue  // cover art and other binary tags: not text
            } else if let text = takeGString(gst_value_serialize(value)) {
                result[name] = text
            }
        }
        return result
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
