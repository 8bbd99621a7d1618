internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// Playbin's text sink: an appsink that turns each buffer of the chosen subtitle stream into a
/// ``TextCue`` in the movie's time (its PTS through its segment, for its duration) and hands it
/// on. Text marked up (`format=pango-markup`, SRT's `<i>` and the like) is handed on as plain
/// text. The appsink does not wait for the clock: cues arrive ahead of their time, and the
/// overlay shows each when the frames reach it.
///
/// `@unchecked Sendable`: the only stored property is a Sendable closure; the callbacks run on
/// the sink's streaming thread.
final class SubtitleDelivery: @unchecked Sendable {
    private let handle: @Sendable (TextCue) -> Void

    /// The longest a cue without a duration shows.
    static let defaultCueLength = Duration.seconds(4)

    private init(_ handle: @escaping @Sendable (TextCue) -> Void) {
        self.handle = handle
    }

    /// The text sink: `appsink caps=text/x-raw sync=false async=false`, delivering to `handle`.
    static func makeSink(_ handle: @escaping @Sendable (TextCue) -> Void) throws(MediaError) -> Element {
        let sink = try Element.make("appsink", name: "me-subtitles")
        try sink.set(["sync": .bool(false), "async": .bool(false), "max-buffers": .int(0)])
        if let caps = Caps("text/x-raw") { AppSink(sink).setCaps(caps) }
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, data in
            let delivery = Unmanaged<SubtitleDelivery>.fromOpaque(data!).takeUnretainedValue()
            guard let sink, let sample = AppSink(borrowing: sink).pullSample() else { return GST_FLOW_EOS }
            if let cue = SubtitleDelivery.cue(from: sample) { delivery.handle(cue) }
            return GST_FLOW_OK
        }
        AppSink(sink).setCallbacks(
            &callbacks, data: Unmanaged.passRetained(SubtitleDelivery(handle)).toOpaque(),
            destroy: { data in Unmanaged<SubtitleDelivery>.fromOpaque(data!).release() })
        return sink
    }

    /// The cue one text buffer carries, if it has a time and some text (also for
    /// ``SubparseReader``).
    static func cue(from sample: Sample) -> TextCue? {
        guard let buffer = sample.buffer else { return nil }
        let pts = me_buffer_pts(buffer)
        guard let start = Duration(clockTime: sample.streamTime(of: pts)) else { return nil }
        let length = Duration(clockTime: me_buffer_duration(buffer)) ?? defaultCueLength
        guard length > .zero else { return nil }
        guard var text = Buffers.withMappedBytes(buffer, { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        else { return nil }
        if sample.caps.flatMap({ Caps(borrowing: $0).structure(at: 0)?.string("format") }) == "pango-markup" {
            text = plainText(fromMarkup: text)
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        return TextCue(start: start, end: start + length, text: text)
    }

    /// Pango markup as plain text: tags dropped, the five XML entities and numeric references
    /// read back.
    static func plainText(fromMarkup markup: String) -> String {
        var plain = ""
        var inTag = false
        var entity: String?
        for character in markup {
            if inTag {
                if character == ">" { inTag = false }
                continue
            }
            if var name = entity {
                if character == ";" {
                    plain += decodedEntity(name) ?? "&\(name);"
                    entity = nil
                } else if name.count < 10 {
                    name.append(character)
                    entity = name
                } else {
                    plain += "&" + name + String(character)
                    entity = nil
                }
                continue
            }
            switch character {
            case "<": inTag = true
            case "&": entity = ""
            default: plain.append(character)
            }
        }
        if let entity { plain += "&" + entity }
        return plain
    }

    private static func decodedEntity(_ name: String) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let digits = name.hasPrefix("#x") ? name.dropFirst(2) : name.hasPrefix("#") ? name.dropFirst() : nil
            guard let digits, let value = UInt32(digits, radix: name.hasPrefix("#x") ? 16 : 10),
                let scalar = Unicode.Scalar(value)
            else { return nil }
            return String(Character(scalar))
        }
    }
}
