import Testing

@testable import MediaEngineCore

/// The queue's decisions at a new stream group, without GStreamer: the movie playbin went on to
/// is announced when it is the queue's next, and ends the queue's current movie when the queue
/// changed after playbin had taken it. What the pipeline goes on to is the machine's own
/// (``UpNext``): playbin's about-to-finish takes it from there.
@Suite("PlayerMachine: queues")
struct PlayerMachineQueueTests {
    typealias Source = MachineHarness.NamedSource

    static func sources(_ names: String...) -> [any MediaSource] {
        names.map { Source(uri: "file:///\($0).mp4") }
    }

    /// A prepared queue of `items`, its first movie's stream group (1) seen; playing unless `paused`.
    static func queue(_ items: [any MediaSource], repeat mode: RepeatMode = .none, paused: Bool = false)
        -> MachineHarness
    {
        var h = MachineHarness()
        h.feed { $0.setRepeatMode(mode, position: nil) }
        h.feed { _ = $0.setQueue(items, startingAt: 0) }
        h.prepared()
        if !paused { _ = h.feed { $0.play() } }
        h.streamStarted(group: 1)
        _ = h.takeAll()
        return h
    }

    /// playbin reads the last bytes of the movie playing: the next one is handed over.
    static func handOver(_ h: inout MachineHarness) -> (any MediaSource)? {
        let session = h.session
        return h.feed { $0.aboutToFinish(session: session, gateOpen: true) }
    }

    @Test("the next movie the pipeline went on to is announced and prepared while it plays")
    func handedNextStarts() {
        var h = Self.queue(Self.sources("a", "b"))
        let next = Self.handOver(&h)
        #expect(next?.uri == "file:///b.mp4")
        #expect(h.take().actions == [.setNextQueued(session: 1, false)], "nothing follows b")
        h.streamStarted(group: 2)
        let (events, _) = h.take()
        #expect(events.contains(.queueItemChanged(1)) && events.contains(.nowPlayingMovieChanged))
        #expect(h.machine.queueIndex == 1 && h.machine.phase == .prepared)
    }

    @Test("a movie removed after the pipeline took it: its hand-over is withdrawn, and when it starts the queue ends")
    func removedAfterHandOver() {
        var h = Self.queue(Self.sources("a", "b"))
        _ = Self.handOver(&h)
        _ = h.take()
        h.feed { _ = $0.removeFromQueue(at: 1) }
        #expect(
            h.take().actions == [.withdrawHandOvers(session: 1, fromGroup: 2), .setNextQueued(session: 1, false)])
        h.streamStarted(group: 2)
        let (events, actions) = h.take()
        #expect(events.contains(.playbackDidFinish(.playbackEnded, nil)))
        #expect(!events.contains(.queueItemChanged(1)))
        #expect(actions.contains(.close(session: 1)), "\(actions)")
        #expect(h.machine.phase == .idle && h.machine.queueIndex == 0)
    }

    @Test("a play() still waiting when the removed movie starts completes: the queue ended, not cancelled")
    func removedAfterHandOverWhileStarting() {
        var h = Self.queue(Self.sources("a", "b"), paused: true)
        _ = Self.handOver(&h)
        h.feed { _ = $0.removeFromQueue(at: 1) }
        // Paused near the end, playbin had read ahead into the removed movie: its group starts
        // before the pipeline reports PLAYING.
        let play = MachineHarness.waiter(h.feed { $0.play() })
        _ = h.take()
        h.streamStarted(group: 2)
        let (events, actions) = h.take()
        #expect(actions.contains(.resume(waiter: play, .success)), "\(actions)")
        #expect(events.contains(.playbackDidFinish(.playbackEnded, nil)))
        #expect(h.machine.phase == .idle)
    }

    @Test("a movie replaced after the pipeline took it: the queue's real next movie is loaded on its own")
    func replacedAfterHandOver() {
        var h = Self.queue(Self.sources("a", "b", "c"))
        _ = Self.handOver(&h)
        _ = h.take()
        h.feed { _ = $0.removeFromQueue(at: 1) }
        #expect(h.take().actions == [.withdrawHandOvers(session: 1, fromGroup: 2), .setNextQueued(session: 1, true)])
        h.streamStarted(group: 2)
        let (events, actions) = h.take()
        #expect(events.contains(.queueItemChanged(1)), "c, now second, is loaded")
        #expect(!events.contains { if case .playbackDidFinish = $0 { true } else { false } })
        #expect(actions.contains(.reload(1, Source(uri: "file:///c.mp4"), epoch: 1)), "\(actions)")
        #expect(h.machine.queueIndex == 1 && h.machine.source.uri == "file:///c.mp4")
    }

    @Test("the next movie's parser revising its duration before that movie starts: each movie's own, announced once")
    func nextMoviesDurationBeforeItStarts() {
        var h = Self.queue(Self.sources("a", "b"))
        _ = Self.handOver(&h)
        // Read ahead by playbin, b's parser posts while a's last frames are still on their way;
        // on a busy machine the player hears of it after playbin has gone on to b.
        h.feed { $0.durationChanged(session: 1, group: 2, duration: .seconds(1)) }
        #expect(h.take().events.isEmpty, "b's duration is not a's")
        var facts = MachineHarness.facts
        facts.duration = .seconds(1)
        h.streamStarted(group: 2, facts: facts)
        let durations = h.take().events.filter { if case .durationAvailable = $0 { true } else { false } }
        #expect(durations == [.durationAvailable(.seconds(1))])
        h.feed { $0.durationChanged(session: 1, group: 1, duration: .seconds(10)) }
        #expect(h.take().events.isEmpty, "a late one of a's stream is not b's")
        h.feed { $0.durationChanged(session: 1, group: 2, duration: .seconds(3)) }
        #expect(h.take().events == [.durationAvailable(.seconds(3))], "b's own revision is b's")
    }

    @Test("a new group of the same movie (an adaptive stream's next period) is the one its durations come from")
    func sameMoviesNextGroup() {
        var h = Self.queue(Self.sources("a"))
        h.streamStarted(group: 2)
        h.feed { $0.durationChanged(session: 1, group: 2, duration: .seconds(12)) }
        #expect(h.take().events == [.durationAvailable(.seconds(12))])
    }

    @Test("a stream start without a group (the sinks' streams carried different ones) does not hold durations back")
    func streamStartWithoutGroup() {
        var h = MachineHarness()
        h.prepared()
        h.streamStarted(group: 0)
        h.feed { $0.durationChanged(session: 1, group: 7, duration: .seconds(12)) }
        #expect(h.take().events == [.durationAvailable(.seconds(12))])
    }

    @Test("a new stream group the pipeline was handed no movie for changes nothing")
    func groupWithoutHandOver() {
        var h = Self.queue(Self.sources("a", "b"))
        h.streamStarted(group: 2)
        #expect(h.takeAll() == ([], []))
        #expect(h.machine.queueIndex == 0)
    }
}

/// What the pipeline goes on to without a gap, as the machine decides it: playbin's
/// about-to-finish takes the movies queued in order, the gapless gate is told whether more
/// follow, and a change of the queue withdraws what playbin took that is no longer next.
@Suite("PlayerMachine: up next")
struct PlayerMachineUpNextTests {
    typealias Queue = PlayerMachineQueueTests

    @Test("a prepared queue tells the gate a movie follows; about-to-finish hands the movies over in order, once each")
    func inOrder() {
        var h = MachineHarness()
        h.feed { $0.setRepeatMode(.all, position: nil) }
        h.feed { _ = $0.setQueue(Queue.sources("a", "b", "c"), startingAt: 0) }
        h.preparing()
        h.asyncDone()
        #expect(h.take().actions.contains(.setNextQueued(session: 1, true)))
        // Repeat all: once round, ending with the movie playing.
        var handed: [String?] = []
        var queued: [[PlayerMachine.Action]] = []
        for _ in 0..<4 {
            handed.append(Queue.handOver(&h)?.uri)
            queued.append(h.takeAll().actions)
        }
        #expect(handed == ["file:///b.mp4", "file:///c.mp4", "file:///a.mp4", nil])
        #expect(
            queued == [
                [.setNextQueued(session: 1, true)], [.setNextQueued(session: 1, true)],
                [.setNextQueued(session: 1, false)], [],
            ])
        #expect(h.machine.startingItem == h.machine.queueIDs[1])
    }

    @Test("a refused gate (a stream's end already waits in the synchronizer): nothing handed, nothing queued any more")
    func gateRefused() {
        var h = Queue.queue(Queue.sources("a", "b"))
        #expect(h.feed { $0.aboutToFinish(session: 1, gateOpen: false) } == nil)
        #expect(h.takeAll() == ([], [.setNextQueued(session: 1, false)]))
        #expect(h.machine.pipeline?.upNext.pending.isEmpty == true)
        let later = Queue.handOver(&h)
        #expect(later == nil, "and later looks find nothing either")
        // The movie ends with EOS, and the player loads the next one on its own.
        h.feed { $0.endOfStream(session: 1, position: .seconds(10)) }
        let (events, actions) = h.take()
        #expect(actions.contains(.reload(1, MachineHarness.NamedSource(uri: "file:///b.mp4"), epoch: 1)))
        #expect(events.contains(.queueItemChanged(1)))
        #expect(!events.contains { if case .playbackDidFinish = $0 { true } else { false } })
    }

    @Test("an item inserted before the one handed over withdraws that hand-over; the new order is queued")
    func insertedBeforeHandedItem() {
        var h = Queue.queue(Queue.sources("a", "b"))
        _ = Queue.handOver(&h)
        _ = h.take()
        h.feed { _ = $0.insertInQueue(MachineHarness.NamedSource(uri: "file:///x.mp4"), at: 1) }
        #expect(h.take().actions == [.withdrawHandOvers(session: 1, fromGroup: 2), .setNextQueued(session: 1, true)])
        #expect(h.machine.pipeline?.upNext.pending.map(\.source.uri) == ["file:///x.mp4", "file:///b.mp4"])
    }

    @Test("an about-to-finish of a pipeline that is not the player's hands nothing over")
    func otherPipeline() {
        var h = Queue.queue(Queue.sources("a", "b"))
        #expect(h.feed { $0.aboutToFinish(session: 2, gateOpen: true) } == nil)
        #expect(h.takeAll() == ([], []))
        #expect(h.machine.pipeline?.upNext.pending.count == 1)
    }

    @Test("a movie that starts with a seek (a rate) is not queued: it is loaded on its own")
    func notGaplessWithRate() {
        var h = MachineHarness()
        _ = h.feed { $0.setRate(2, position: nil) }
        h.feed { _ = $0.setQueue(Queue.sources("a", "b"), startingAt: 0) }
        h.preparing()
        h.feed { $0.firstFrameHeld(session: 1) }
        h.landSeek(at: .zero)
        #expect(h.machine.phase == .prepared)
        #expect(h.take().actions.contains(.setNextQueued(session: 1, false)))
        let next = Queue.handOver(&h)
        #expect(next == nil)
    }
}

/// Subtitle tracks choices, without GStreamer.
@Suite("PlayerMachine: subtitle tracks")
struct PlayerMachineSubtitleTests {
    static let facts: PlayerMachine.PipelineFacts = {
        var facts = MachineHarness.facts
        facts.subtitleTracks = [MediaTrack(kind: .subtitle, index: 0), MediaTrack(kind: .subtitle, index: 1)]
        return facts
    }()

    @Test("choosing a track is announced and sent to the pipeline; nil hides; a new movie starts with none")
    func choose() {
        var h = MachineHarness()
        #expect(throws: MediaError.self) { try h.feed { $0.selectSubtitleTrack(0) }.get() }
        h.prepared(facts: Self.facts)
        #expect(throws: MediaError.self) { try h.feed { $0.selectSubtitleTrack(2) }.get() }
        _ = h.take()
        #expect((try? h.feed { $0.selectSubtitleTrack(1) }.get()) != nil)
        #expect(
            h.takeAll() == (
                [.subtitleTrackChanged(MediaTrack(kind: .subtitle, index: 1))],
                [.selectSubtitleTrack(session: 1, .stream(1))]
            ))
        #expect((try? h.feed { $0.selectSubtitleTrack(1) }.get()) != nil)
        #expect(h.take().events.isEmpty, "the same track again changes nothing")
        #expect((try? h.feed { $0.selectSubtitleTrack(nil) }.get()) != nil)
        #expect(h.takeAll() == ([.subtitleTrackChanged(nil)], [.selectSubtitleTrack(session: 1, nil)]))
        #expect((try? h.feed { $0.selectSubtitleTrack(0) }.get()) != nil)
        _ = h.take()
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        #expect(h.take().actions.contains(.selectSubtitleTrack(session: 1, nil)))
        #expect(h.machine.currentSubtitleTrack == nil)
    }
}

/// Closed-captions channels as subtitle tracks, without GStreamer.
@Suite("PlayerMachine: closed captions")
struct PlayerMachineClosedCaptionTests {
    @Test("channels found before preparation ends are tracks after the container's; later ones are announced")
    func found() {
        var h = MachineHarness()
        var facts = MachineHarness.facts
        facts.subtitleTracks = [MediaTrack(kind: .subtitle, index: 0, languageCode: "en")]
        h.preparing()
        _ = h.take()
        // The first frame, which brings the captions, reaches the output before the preroll ends.
        h.feed { $0.closedCaptionsFound(session: 1, channels: [.cc1]) }
        #expect(h.take().events.isEmpty, "announced with the other tracks")
        h.firstFrame(facts: facts)
        h.asyncDone(facts: facts)
        let cc1 = MediaTrack(kind: .subtitle, index: 1, codec: "CEA-608", title: "CC1")
        #expect(h.machine.subtitleTracks == [MediaTrack(kind: .subtitle, index: 0, languageCode: "en"), cc1])
        _ = h.take()
        h.feed { $0.closedCaptionsFound(session: 1, channels: [.cc1]) }
        #expect(h.take().events.isEmpty, "known already")
        h.feed { $0.closedCaptionsFound(session: 2, channels: [.cc3]) }
        #expect(h.take().events.isEmpty, "another pipeline's")
        h.feed { $0.closedCaptionsFound(session: 1, channels: [.cc1, .cc3]) }
        let cc3 = MediaTrack(kind: .subtitle, index: 2, codec: "CEA-608", title: "CC3")
        #expect(h.take().events == [.tracksAvailable(h.machine.facts.streamSubtitleTracks + [cc1, cc3])])

        #expect((try? h.feed { $0.selectSubtitleTrack(2) }.get()) != nil)
        #expect(
            h.takeAll() == ([.subtitleTrackChanged(cc3)], [.selectSubtitleTrack(session: 1, .closedCaptions(.cc3))]))
        #expect((try? h.feed { $0.selectSubtitleTrack(0) }.get()) != nil)
        #expect(h.takeAll().actions == [.selectSubtitleTrack(session: 1, .stream(0))])
        h.feed { $0.replaceSource(with: MachineHarness.NamedSource(uri: "file:///b.mp4")) }
        #expect(h.machine.closedCaptionChannels.isEmpty && h.machine.subtitleTracks.isEmpty)
    }
}
