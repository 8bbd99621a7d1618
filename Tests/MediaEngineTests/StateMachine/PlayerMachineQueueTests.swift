import Testing

@testable import MediaEngineCore

/// The queue's decisions at a new stream group, without GStreamer: the movie playbin went on to
/// is announced when it is the queue's next, and ends the queue's current movie when the queue
/// changed after playbin had taken it.
@Suite("PlayerMachine: queues")
struct PlayerMachineQueueTests {
    typealias Source = MachineHarness.NamedSource

    /// A prepared, playing queue of `uris`, its first movie's stream group (1) seen.
    static func playingQueue(_ uris: [String]) -> MachineHarness {
        var h = MachineHarness()
        h.feed { _ = $0.setQueue(uris.map { Source(uri: $0) }, startingAt: 0) }
        h.prepared()
        let session = h.machine.sessionID
        h.feed { _ = $0.play() }
        h.feed { $0.contentStreamStarted(session: session, group: 1, facts: .init()) }
        _ = h.take()
        return h
    }

    static func started(_ item: Int?) -> PlayerMachine.PipelineFacts {
        var facts = MachineHarness.facts
        facts.startedItem = item
        return facts
    }

    @Test("the next movie the pipeline went on to is announced and prepared while it plays")
    func handedNextStarts() {
        var h = Self.playingQueue(["file:///a.mp4", "file:///b.mp4"])
        let session = h.machine.sessionID
        let next = h.machine.queueIDs[1]
        h.feed { $0.contentStreamStarted(session: session, group: 2, facts: Self.started(next)) }
        let (events, _) = h.take()
        #expect(events.contains(.queueItemChanged(1)) && events.contains(.nowPlayingMovieChanged))
        #expect(h.machine.queueIndex == 1 && h.machine.phase == .prepared)
    }

    @Test("a movie removed after the pipeline took it: when it starts, the queue ends and the pipeline closes")
    func removedAfterHandOver() {
        var h = Self.playingQueue(["file:///a.mp4", "file:///b.mp4"])
        let session = h.machine.sessionID
        let handed = h.machine.queueIDs[1]
        h.feed { _ = $0.removeFromQueue(at: 1) }
        _ = h.take()
        h.feed { $0.contentStreamStarted(session: session, group: 2, facts: Self.started(handed)) }
        let (events, actions) = h.take()
        #expect(events.contains(.playbackDidFinish(.playbackEnded, nil)))
        #expect(!events.contains(.queueItemChanged(1)))
        #expect(actions.contains("close \(session)"), "\(actions)")
        #expect(h.machine.phase == .idle && h.machine.queueIndex == 0)
    }

    @Test("a play() still waiting when the removed movie starts completes: the queue ended, not cancelled")
    func removedAfterHandOverWhileStarting() {
        var h = MachineHarness()
        h.feed { _ = $0.setQueue([Source(uri: "file:///a.mp4"), Source(uri: "file:///b.mp4")], startingAt: 0) }
        h.prepared()
        let session = h.machine.sessionID
        h.feed { $0.contentStreamStarted(session: session, group: 1, facts: .init()) }
        let handed = h.machine.queueIDs[1]
        h.feed { _ = $0.removeFromQueue(at: 1) }
        // Paused near the end, playbin had read ahead into the removed movie: its group starts
        // before the pipeline reports PLAYING.
        let play = MachineHarness.waiter(h.feed { $0.play() })
        _ = h.take()
        h.feed { $0.contentStreamStarted(session: session, group: 2, facts: Self.started(handed)) }
        let (events, actions) = h.take()
        #expect(actions.contains("resume \(play)"), "\(actions)")
        #expect(events.contains(.playbackDidFinish(.playbackEnded, nil)))
        #expect(h.machine.phase == .idle)
    }

    @Test("a movie replaced after the pipeline took it: the queue's real next movie is loaded on its own")
    func replacedAfterHandOver() {
        var h = Self.playingQueue(["file:///a.mp4", "file:///b.mp4", "file:///c.mp4"])
        let session = h.machine.sessionID
        let handed = h.machine.queueIDs[1]
        h.feed { _ = $0.removeFromQueue(at: 1) }
        _ = h.take()
        h.feed { $0.contentStreamStarted(session: session, group: 2, facts: Self.started(handed)) }
        let (events, actions) = h.take()
        #expect(events.contains(.queueItemChanged(1)), "c, now second, is loaded")
        #expect(!events.contains { if case .playbackDidFinish = $0 { true } else { false } })
        #expect(actions.contains { $0.hasPrefix("reload \(session)") }, "\(actions)")
        #expect(h.machine.queueIndex == 1 && h.machine.source.uri == "file:///c.mp4")
    }

    @Test("the next movie's parser revising its duration before that movie starts: each movie's own, announced once")
    func nextMoviesDurationBeforeItStarts() {
        var h = Self.playingQueue(["file:///a.mp4", "file:///b.mp4"])
        let session = h.machine.sessionID
        // Read ahead by playbin, b's parser posts while a's last frames are still on their way;
        // on a busy machine the player hears of it after playbin has gone on to b.
        h.feed { $0.durationChanged(session: session, group: 2, duration: .seconds(1)) }
        #expect(h.take().events.isEmpty, "b's duration is not a's")
        var facts = Self.started(h.machine.queueIDs[1])
        facts.duration = .seconds(1)
        h.feed { $0.contentStreamStarted(session: session, group: 2, facts: facts) }
        let durations = h.take().events.filter { if case .durationAvailable = $0 { true } else { false } }
        #expect(durations == [.durationAvailable(.seconds(1))])
        h.feed { $0.durationChanged(session: session, group: 1, duration: .seconds(10)) }
        #expect(h.take().events.isEmpty, "a late one of a's stream is not b's")
        h.feed { $0.durationChanged(session: session, group: 2, duration: .seconds(3)) }
        #expect(h.take().events == [.durationAvailable(.seconds(3))], "b's own revision is b's")
    }

    @Test("a new group of the same movie (an adaptive stream's next period) is the one its durations come from")
    func sameMoviesNextGroup() {
        var h = Self.playingQueue(["file:///a.mp4"])
        let session = h.machine.sessionID
        h.feed { $0.contentStreamStarted(session: session, group: 2, facts: Self.started(nil)) }
        h.feed { $0.durationChanged(session: session, group: 2, duration: .seconds(12)) }
        #expect(h.take().events == [.durationAvailable(.seconds(12))])
    }

    @Test("a stream start without a group (the sinks' streams carried different ones) does not hold durations back")
    func streamStartWithoutGroup() {
        var h = MachineHarness()
        h.prepared()
        let session = h.machine.sessionID
        h.feed { $0.contentStreamStarted(session: session, group: 0, facts: .init()) }
        h.feed { $0.durationChanged(session: session, group: 7, duration: .seconds(12)) }
        #expect(h.take().events == [.durationAvailable(.seconds(12))])
    }

    @Test("a new stream group the pipeline was handed no movie for changes nothing")
    func groupWithoutHandOver() {
        var h = Self.playingQueue(["file:///a.mp4", "file:///b.mp4"])
        let session = h.machine.sessionID
        h.feed { $0.contentStreamStarted(session: session, group: 2, facts: Self.started(nil)) }
        let (events, actions) = h.take()
        #expect(events.isEmpty && actions.isEmpty, "\(events) \(actions)")
        #expect(h.machine.queueIndex == 0)
    }
}

/// Subtitle track choices, without GStreamer.
@Suite("PlayerMachine: subtitle tracks")
struct PlayerMachineSubtitleTests {
    static let facts: PlayerMachine.PipelineFacts = {
        var facts = MachineHarness.facts
        facts.tracks = ([], [MediaTrack(kind: .subtitle, index: 0), MediaTrack(kind: .subtitle, index: 1)])
        return facts
    }()

    @Test("choosing a track is announced and sent to the pipeline; nil hides; a new movie starts with none")
    func choose() {
        var h = MachineHarness()
        #expect(throws: MediaError.self) { try h.feed { $0.selectSubtitleTrack(0) }.get() }
        h.prepared(facts: Self.facts)
        let session = h.machine.sessionID
        #expect(throws: MediaError.self) { try h.feed { $0.selectSubtitleTrack(2) }.get() }
        _ = h.take()
        #expect((try? h.feed { $0.selectSubtitleTrack(1) }.get()) != nil)
        var (events, actions) = h.take()
        #expect(events == [.subtitleTrackChanged(MediaTrack(kind: .subtitle, index: 1))])
        #expect(actions == ["selectSubtitleTrack \(session) 1"])
        #expect((try? h.feed { $0.selectSubtitleTrack(1) }.get()) != nil)
        #expect(h.take().events.isEmpty, "the same track again changes nothing")
        #expect((try? h.feed { $0.selectSubtitleTrack(nil) }.get()) != nil)
        (events, actions) = h.take()
        #expect(events == [.subtitleTrackChanged(nil)] && actions == ["selectSubtitleTrack \(session) none"])
        #expect((try? h.feed { $0.selectSubtitleTrack(0) }.get()) != nil)
        _ = h.take()
        h.feed { $0.resetMovieInfo() }
        #expect(h.take().actions.contains("selectSubtitleTrack \(session) none"))
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
        facts.tracks = ([], [MediaTrack(kind: .subtitle, index: 0, languageCode: "en")])
        _ = h.feed { $0.prepare() }
        let session = h.machine.sessionID
        h.feed { _ = $0.pipelineBuilt(session: session) }
        _ = h.take()
        // The first frame, which brings the captions, reaches the output before the preroll ends.
        h.feed { $0.closedCaptionsFound(session: session, channels: [.cc1]) }
        #expect(h.take().events.isEmpty, "announced with the other tracks")
        h.feed {
            $0.firstFrameArrived(
                session: session, seqnum: 1, streamTime: .zero, displaySize: VideoSize(width: 320, height: 240),
                facts: facts)
        }
        h.feed { $0.asyncDone(session: session, facts: facts) }
        let cc1 = MediaTrack(kind: .subtitle, index: 1, codec: "CEA-608", title: "CC1")
        #expect(h.machine.subtitleTracks == [MediaTrack(kind: .subtitle, index: 0, languageCode: "en"), cc1])
        _ = h.take()
        h.feed { $0.closedCaptionsFound(session: session, channels: [.cc1]) }
        #expect(h.take().events.isEmpty, "known already")
        h.feed { $0.closedCaptionsFound(session: session + 1, channels: [.cc3]) }
        #expect(h.take().events.isEmpty, "another pipeline's")
        h.feed { $0.closedCaptionsFound(session: session, channels: [.cc1, .cc3]) }
        let cc3 = MediaTrack(kind: .subtitle, index: 2, codec: "CEA-608", title: "CC3")
        #expect(h.take().events == [.tracksAvailable(h.machine.streamSubtitleTracks + [cc1, cc3])])

        #expect((try? h.feed { $0.selectSubtitleTrack(2) }.get()) != nil)
        var (events, actions) = h.take()
        #expect(events == [.subtitleTrackChanged(cc3)] && actions == ["selectSubtitleTrack \(session) CC3"])
        #expect((try? h.feed { $0.selectSubtitleTrack(0) }.get()) != nil)
        (events, actions) = h.take()
        #expect(actions == ["selectSubtitleTrack \(session) 0"])
        h.feed { $0.resetMovieInfo() }
        #expect(h.machine.closedCaptionChannels.isEmpty && h.machine.subtitleTracks.isEmpty)
    }
}
