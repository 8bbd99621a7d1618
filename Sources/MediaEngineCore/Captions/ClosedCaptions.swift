/// The closed captions of the movie in the pipeline: CEA-608, decoded from the caption data its
/// video frames carry (ATSC A/53 `cc_data` in H.264, H.265 and MPEG-2 user data, which
/// GStreamer's parsers and decoders attach to each frame; SMPTE 334 and caption distribution
/// packets), into timed cues for each channel in use.
///
/// Fed on the video streaming thread as frames enter the output, before they are drawn on: a
/// caption shows from the frame it came with. Cues are made as the movie plays (captions come
/// in real time, not ahead like a subtitle file's), and only the last few of each channel are
/// kept. A flush (a seek) forgets the decoder's state, as a television does on a new channel:
/// captions show again from the next caption command.
final class ClosedCaptions: Sendable {
    /// Cues kept per channel besides the one showing: enough for frames still on their way to
    /// the sink when a caption changes.
    static let keptCues = 8

    private struct ChannelCues {
        /// The text showing, and since when.
        var showing: (text: String, since: Duration)?
        /// The last cues that ended.
        var ended: [TextCue] = []

        var cues: [TextCue] {
            ended
                + (showing.map {
                    [TextCue(start: $0.since, end: $0.since + ClosedCaptions.untilReplaced, text: $0.text)]
                } ?? [])
        }
    }

    private struct State {
        var decoder = ClosedCaptionDecoder()
        var channels: [ClosedCaptionChannel] = []
        var cues: [ClosedCaptionChannel: ChannelCues] = [:]
        var lastTime = Duration.zero
    }

    /// How long a caption is given when it starts: CEA-608 captions stay until replaced or erased.
    static let untilReplaced = Duration.seconds(24 * 3600)

    private let state = Locked(State())

    /// What one frame's caption data changed.
    struct Received: Sendable {
        /// The channels in use, when this frame's data brought a new one.
        var channels: [ClosedCaptionChannel]?
        /// The cues of each channel whose text changed.
        var cues: [ClosedCaptionChannel: [TextCue]] = [:]
    }

    /// Decodes one frame's caption data, `carriage` as GStreamer's caption type numbers it, at
    /// the frame's position in the movie (nil when unknown: the last one's). On a streaming thread.
    func receive(_ bytes: [UInt8], carriage: Int32, at time: Duration?) -> Received {
        guard let carriage = CaptionCarriage(rawValue: carriage) else { return Received() }
        return state.withLock { state in
            let time = time ?? state.lastTime
            var received = Received()
            if time < state.lastTime {
                // Back in time without a flush (a loop): the cues that ended belong to the end;
                // what shows goes on showing from here.
                for (channel, cues) in state.cues {
                    let restarted = ChannelCues(showing: cues.showing.map { ($0.text, time) })
                    state.cues[channel] = restarted
                    received.cues[channel] = restarted.cues
                }
            }
            state.lastTime = time
            let update = state.decoder.decode(bytes, carriage: carriage)
            if !update.channels.allSatisfy(state.channels.contains) {
                state.channels = Set(state.channels).union(update.channels).sorted()
                received.channels = state.channels
            }
            for (channel, text) in update.displayed {
                var cues = state.cues[channel] ?? ChannelCues()
                if let showing = cues.showing, time > showing.since {
                    cues.ended.append(TextCue(start: showing.since, end: time, text: showing.text))
                    if cues.ended.count > Self.keptCues { cues.ended.removeFirst(cues.ended.count - Self.keptCues) }
                }
                cues.showing = text.isEmpty ? nil : (text, time)
                state.cues[channel] = cues
                received.cues[channel] = cues.cues
            }
            return received
        }
    }

    /// The channels in use so far.
    var channels: [ClosedCaptionChannel] { state.withLock { $0.channels } }

    /// The cues `channel` has now.
    func cues(of channel: ClosedCaptionChannel) -> [TextCue] {
        state.withLock { $0.cues[channel]?.cues ?? [] }
    }

    /// A flush: the decoder starts afresh and nothing shows until the next caption. The
    /// channels found stay (they are the movie's tracks).
    func flush() {
        state.withLock { state in
            state.decoder = ClosedCaptionDecoder()
            state.cues = [:]
        }
    }

    /// A new movie: nothing of the last one stays.
    func newMovie() {
        state.withLock { $0 = State() }
    }
}
