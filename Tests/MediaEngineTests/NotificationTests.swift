import FileSource
import Foundation
import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The `NotificationCenter` mirror as code ported from MPMoviePlayerController reads it: every
/// name the engine posts, observed through `NotificationCenter`; the userInfo values it documents
/// as numbers (`as? Int`, `as? Double`, `as? NSNumber`); nothing but the event where it documents
/// no userInfo; the `"error"` key; one finish per movie.
@Suite("Notifications")
struct NotificationTests {
    /// Records the notifications of some names that one player posts, in order.
    final class Observer: Sendable {
        /// One notification received: its name and userInfo (read on the posting task, which is
        /// done with it; the values are the engine's own Sendable ones and NSNumbers).
        struct Received: @unchecked Sendable {
            let name: Notification.Name
            let userInfo: [AnyHashable: Any]
            let notification: Notification

            /// The userInfo's keys, as strings.
            var keys: Set<String> { Set(userInfo.keys.compactMap { $0 as? String }) }
        }

        private let received = Locked<[Received]>([])
        private let changes = Waitlist()
        /// The observers' tokens: set once in `init`, read in `deinit`.
        nonisolated(unsafe) private let tokens: [any NSObjectProtocol]

        init(_ player: MoviePlayer, names: [Notification.Name]) {
            let received = received
            let changes = changes
            tokens = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: player, queue: nil) { note in
                    received.withLock {
                        $0.append(Received(name: note.name, userInfo: note.userInfo ?? [:], notification: note))
                    }
                    changes.recheck()
                }
            }
        }

        deinit {
            for token in tokens { NotificationCenter.default.removeObserver(token) }
        }

        /// Everything received so far.
        var all: [Received] { received.withLock { $0 } }

        /// The ones named `name`.
        func named(_ name: Notification.Name) -> [Received] { all.filter { $0.name == name } }

        /// Waits until what was received satisfies `condition`.
        func waitUntil(
            _ what: String, within limit: Duration = .seconds(10), _ condition: @escaping @Sendable ([Received]) -> Bool
        ) async throws {
            try await withDeadline(limit, what) { [received, changes] in
                await changes.wait { received.withLock { condition($0) } }
            }
        }
    }

    /// A null sink that says it is external, as a network output would.
    struct ExternalSink: VideoSink {
        func makeOutput() throws(MediaError) -> VideoOutput { try NullVideoSink().makeOutput() }
        static var capabilities: VideoSinkCapabilities { .external }
    }

    private static let event = MoviePlayer.eventUserInfoKey
    private static let reason = MoviePlayer.finishReasonUserInfoKey
    private static let error = MoviePlayer.errorUserInfoKey
    private static let duration = MoviePlayer.fullscreenAnimationDurationUserInfoKey
    private static let curve = MoviePlayer.fullscreenAnimationCurveUserInfoKey

    /// The notifications MPMoviePlayerController posts without a userInfo dictionary: here they
    /// carry the event alone.
    static let documentedWithoutUserInfo: Set<Notification.Name> = [
        .mediaPlaybackIsPreparedToPlayDidChange, .movieSourceTypeAvailable, .movieDurationAvailable,
        .movieNaturalSizeAvailable, .movieMediaTypesAvailable, .moviePlayerLoadStateDidChange,
        .moviePlayerReadyForDisplayDidChange, .moviePlayerPlaybackStateDidChange,
        .moviePlayerNowPlayingMovieDidChange, .moviePlayerScalingModeDidChange,
        .moviePlayerIsExternalPlaybackActiveDidChange, .moviePlayerDidEnterFullscreen, .moviePlayerDidExitFullscreen,
    ]

    /// One event of every case, the name it must be posted under and the userInfo keys beside
    /// the event. `caseName(_:)` switches over every case without a default, so a new case does
    /// not compile until it is named there, and the count below fails until it has a line here.
    static let everyCase: [(event: PlayerEvent, name: Notification.Name, keys: Set<String>)] = {
        let track = MediaTrack(kind: .audio, index: 1, languageCode: "fr", codec: "Vorbis", title: "Commentary")
        let item = TimedMetadataItem(key: "TIT2", keySpace: .id3, value: .text("Opening"), time: .milliseconds(500))
        let logEntry = ErrorLogEvent(
            date: Date(timeIntervalSince1970: 0), uri: "http://127.0.0.1/movie.mp4", statusCode: 404,
            domain: "HTTP", comment: "404", playbackSessionID: "1")
        let thumbnail = ThumbnailResult(
            requestedTime: .seconds(1), actualTime: nil, result: .failure(MediaError(.cancelled, "cancelled")))
        return [
            (.preparedToPlayChanged(true), .mediaPlaybackIsPreparedToPlayDidChange, []),
            (.sourceTypeAvailable(.file), .movieSourceTypeAvailable, []),
            (.durationAvailable(.seconds(2)), .movieDurationAvailable, []),
            (.naturalSizeAvailable(VideoSize(width: 320, height: 240)), .movieNaturalSizeAvailable, []),
            (.mediaTypesAvailable([.video, .audio]), .movieMediaTypesAvailable, []),
            (.loadStateChanged([.playable, .playthroughOK]), .moviePlayerLoadStateDidChange, []),
            (.readyForDisplayChanged(true), .moviePlayerReadyForDisplayDidChange, []),
            (.playbackStateChanged(.playing), .moviePlayerPlaybackStateDidChange, []),
            (.seekCompleted(.seconds(1)), .moviePlayerSeekDidComplete, []),
            (.playbackRateChanged(2), .moviePlayerPlaybackRateDidChange, []),
            (.didLoop(1), .moviePlayerDidLoop, []),
            (.nowPlayingMovieChanged, .moviePlayerNowPlayingMovieDidChange, []),
            (.scalingModeChanged(.fill), .moviePlayerScalingModeDidChange, []),
            (.externalPlaybackActiveChanged(true), .moviePlayerIsExternalPlaybackActiveDidChange, []),
            (.videoSinkChanged, .moviePlayerVideoSinkDidChange, []),
            (
                .willEnterFullscreen(animationDuration: .milliseconds(300)), .moviePlayerWillEnterFullscreen,
                [duration, curve]
            ),
            (.didEnterFullscreen, .moviePlayerDidEnterFullscreen, []),
            (.willExitFullscreen(animationDuration: .zero), .moviePlayerWillExitFullscreen, [duration, curve]),
            (.didExitFullscreen, .moviePlayerDidExitFullscreen, []),
            (
                .fullscreenRefused(MediaError(.unsupportedOperation, "the app's window")),
                .moviePlayerFullscreenRefused, [error]
            ),
            (.periodicTime(TimeObserver(id: 1), .seconds(1)), .moviePlayerTimeObserverDidFire, []),
            (.boundaryTimeReached(TimeObserver(id: 2), .seconds(1)), .moviePlayerTimeObserverDidFire, []),
            (.metadataAvailable(["title": "Bars"]), .movieMetadataAvailable, []),
            (.timedMetadataChanged([item]), .moviePlayerTimedMetadataUpdated, [MoviePlayer.timedMetadataUserInfoKey]),
            (.playbackDidFinish(.playbackEnded, nil), .moviePlayerPlaybackDidFinish, [reason]),
            (
                .playbackDidFinish(.playbackError, MediaError(.notAMovie, "not a movie")),
                .moviePlayerPlaybackDidFinish,
                [reason, error]
            ),
            (
                .truncationDetected(playable: .seconds(1), duration: .seconds(2)), .moviePlayerTruncationDetected,
                []
            ),
            (
                .overlayFailed(VideoOverlays.ID(value: 1), MediaError(.overlayFailed, "x")), .moviePlayerOverlayDidFail,
                []
            ),
            (
                .overlayRegionActivated(
                    overlay: VideoOverlays.ID(value: 1), region: "tab", point: OverlayPoint(x: 1, y: 2)),
                .moviePlayerOverlayRegionActivated, []
            ),
            (
                .thumbnailRequestFinished(thumbnail), .moviePlayerThumbnailImageRequestDidFinish,
                [MoviePlayer.thumbnailTimeUserInfoKey, MoviePlayer.thumbnailErrorUserInfoKey]
            ),
            (.accessLogChanged, .moviePlayerAccessLogDidChange, []),
            (.errorLogEntryAdded(logEntry), .moviePlayerErrorLogEntryAdded, []),
            (
                .variantSwitched(VariantSwitch(uri: "low.m3u8", indicatedBitrate: 200_000)),
                .moviePlayerVariantDidSwitch, []
            ),
            (
                .reconnecting(attempt: 1, delay: .milliseconds(500), error: MediaError(.timedOut, "no answer")),
                .moviePlayerWillReconnect, [error]
            ),
            (.queueItemChanged(1), .moviePlayerQueueItemDidChange, []),
            (.tracksAvailable([track]), .moviePlayerTracksAvailable, []),
            (.audioTrackChanged(track), .moviePlayerAudioTrackDidChange, []),
            (.subtitleTrackChanged(nil), .moviePlayerSubtitleTrackDidChange, []),
            (.volumeChanged(0.5), .moviePlayerVolumeDidChange, []),
            (.mutedChanged(true), .moviePlayerMutedDidChange, []),
            (.prerollAd(.skipped), .moviePlayerPrerollAdDidChange, []),
            (.windowKeyPressed("space", shift: false), .moviePlayerWindowKeyPressed, []),
            (
                .teardownStalled(element: "appsink0 (appsink): PAUSED to READY", after: .seconds(2)),
                .moviePlayerTeardownDidStall, []
            ),
            (
                .prerollAd(.finished(.failed, PrerollAdError(.noInventory, "empty VAST"))),
                .moviePlayerPrerollAdDidChange, [error]
            ),
            (.groupTimeSourceLost, .moviePlayerGroupTimeSourceLost, []),
            (.groupTimeSourceRestored, .moviePlayerGroupTimeSourceRestored, []),
            (
                .groupMemberTooSlow(framesDropped: 12, within: .seconds(2)), .moviePlayerGroupMemberTooSlow,
                []
            ),
        ]
    }()

    /// The case's name; no default, so every case must be named.
    static func caseName(_ event: PlayerEvent) -> String {
        switch event {
        case .preparedToPlayChanged: "preparedToPlayChanged"
        case .sourceTypeAvailable: "sourceTypeAvailable"
        case .durationAvailable: "durationAvailable"
        case .naturalSizeAvailable: "naturalSizeAvailable"
        case .mediaTypesAvailable: "mediaTypesAvailable"
        case .loadStateChanged: "loadStateChanged"
        case .readyForDisplayChanged: "readyForDisplayChanged"
        case .playbackStateChanged: "playbackStateChanged"
        case .seekCompleted: "seekCompleted"
        case .playbackRateChanged: "playbackRateChanged"
        case .didLoop: "didLoop"
        case .nowPlayingMovieChanged: "nowPlayingMovieChanged"
        case .scalingModeChanged: "scalingModeChanged"
        case .externalPlaybackActiveChanged: "externalPlaybackActiveChanged"
        case .videoSinkChanged: "videoSinkChanged"
        case .willEnterFullscreen: "willEnterFullscreen"
        case .didEnterFullscreen: "didEnterFullscreen"
        case .willExitFullscreen: "willExitFullscreen"
        case .didExitFullscreen: "didExitFullscreen"
        case .fullscreenRefused: "fullscreenRefused"
        case .periodicTime: "periodicTime"
        case .boundaryTimeReached: "boundaryTimeReached"
        case .metadataAvailable: "metadataAvailable"
        case .timedMetadataChanged: "timedMetadataChanged"
        case .playbackDidFinish: "playbackDidFinish"
        case .truncationDetected: "truncationDetected"
        case .overlayFailed: "overlayFailed"
        case .overlayRegionActivated: "overlayRegionActivated"
        case .thumbnailRequestFinished: "thumbnailRequestFinished"
        case .accessLogChanged: "accessLogChanged"
        case .errorLogEntryAdded: "errorLogEntryAdded"
        case .variantSwitched: "variantSwitched"
        case .reconnecting: "reconnecting"
        case .queueItemChanged: "queueItemChanged"
        case .tracksAvailable: "tracksAvailable"
        case .audioTrackChanged: "audioTrackChanged"
        case .subtitleTrackChanged: "subtitleTrackChanged"
        case .volumeChanged: "volumeChanged"
        case .mutedChanged: "mutedChanged"
        case .prerollAd: "prerollAd"
        case .windowKeyPressed: "windowKeyPressed"
        case .teardownStalled: "teardownStalled"
        case .groupTimeSourceLost: "groupTimeSourceLost"
        case .groupTimeSourceRestored: "groupTimeSourceRestored"
        case .groupMemberTooSlow: "groupMemberTooSlow"
        }
    }

    @Test("every case of PlayerEvent is posted under its name, observed through NotificationCenter, with its keys")
    func everyName() async throws {
        #expect(Set(Self.everyCase.map { Self.caseName($0.event) }).count == 45, "a case without a line in everyCase")
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink())
        let names = Self.everyCase.map(\.name).reduce(into: [Notification.Name]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        #expect(names.count == 44, "periodic and boundary time observers share one name, every other case has its own")
        let observer = Observer(player, names: names)
        // Through the player's own event hub, which the mirror reads as it reads every event.
        player.core.hub.publish(Self.everyCase.map(\.event))
        try await observer.waitUntil("every notification") { $0.count == Self.everyCase.count }
        let received = observer.all
        for (expected, note) in zip(Self.everyCase, received) {
            #expect(note.name == expected.name, "\(expected.event)")
            #expect(note.notification.object as? MoviePlayer === player)
            #expect(note.userInfo[Self.event] as? PlayerEvent == expected.event)
            #expect(note.notification.playerEvent == expected.event)
            #expect(note.keys == expected.keys.union([Self.event]), "\(expected.event): \(note.keys)")
            if Self.documentedWithoutUserInfo.contains(note.name) {
                #expect(note.keys == [Self.event], "\(note.name.rawValue) carries only the event")
            }
        }
    }

    @Test(
        "the finish reason, the fullscreen animation and a thumbnail's time read as MPMoviePlayerController's numbers")
    func numbers() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: NullVideoSink())
        let observer = Observer(player, names: [.moviePlayerPlaybackDidFinish, .moviePlayerWillEnterFullscreen])
        let reasons: [FinishReason] = [.playbackEnded, .playbackError, .userExited]
        player.core.hub.publish(
            reasons.map { .playbackDidFinish($0, nil) } + [
                .willEnterFullscreen(animationDuration: .milliseconds(300)),
                .willEnterFullscreen(animationDuration: .zero),
            ])
        try await observer.waitUntil("five notifications") { $0.count == 5 }
        let finishes = observer.named(.moviePlayerPlaybackDidFinish)
        // MPMovieFinishReason: 0 ended, 1 error, 2 user exited.
        #expect(finishes.map { $0.userInfo[Self.reason] as? Int } == [0, 1, 2])
        #expect(finishes.map { ($0.userInfo[Self.reason] as? NSNumber)?.intValue } == [0, 1, 2])
        #expect(finishes.map { $0.userInfo[Self.reason] as? UInt } == [0, 1, 2])
        #expect(finishes.map(\.notification.finishReason) == reasons)
        #expect(reasons.map(\.rawValue) == [0, 1, 2])
        let fullscreen = observer.named(.moviePlayerWillEnterFullscreen)
        #expect(fullscreen.map { $0.userInfo[Self.duration] as? Double } == [0.3, 0])
        #expect(fullscreen.map { $0.userInfo[Self.duration] as? TimeInterval } == [0.3, 0])
        #expect(fullscreen.map { ($0.userInfo[Self.duration] as? NSNumber)?.doubleValue } == [0.3, 0])
        // UIViewAnimationCurve: 3 is linear, how the player's own window moves.
        #expect(fullscreen.map { $0.userInfo[Self.curve] as? Int } == [3, 3])
        #expect(fullscreen.map { ($0.userInfo[Self.curve] as? NSNumber)?.intValue } == [3, 3])
        #expect(fullscreen.map(\.notification.fullscreenAnimationDuration) == [.milliseconds(300), .zero])
        #expect(fullscreen.map(\.notification.fullscreenAnimationCurve) == [.linear, .linear])
        // MPMoviePlayerThumbnailTimeKey: an NSNumber of seconds, the frame's own time.
        let thumbnail = ThumbnailResult(
            requestedTime: .seconds(2), actualTime: .milliseconds(1500), result: .failure(MediaError(.cancelled, "c")))
        let thumbnails = Observer(player, names: [.moviePlayerThumbnailImageRequestDidFinish])
        player.core.hub.publish([.thumbnailRequestFinished(thumbnail)])
        try await thumbnails.waitUntil("the thumbnail") { !$0.isEmpty }
        let time = try #require(thumbnails.all.first)
        #expect(time.userInfo[MoviePlayer.thumbnailTimeUserInfoKey] as? Double == 1.5)
        #expect(time.notification.thumbnailTime == .milliseconds(1500))
        #expect([FullscreenAnimationCurve.easeInOut, .easeIn, .easeOut, .linear].map(\.rawValue) == [0, 1, 2, 3])
    }

    @Test(
        "a movie played to its end: MPMoviePlayerController's notifications, reason 0, and no second finish after stop()"
    )
    func playedToTheEnd() async throws {
        let clip = try await TestMedia.url(for: TestMedia.barsWithAudio)
        let player = MoviePlayer(
            source: FileSource(url: clip), videoSink: NullVideoSink(synchronized: false), audioOutput: .discard)
        let names: [Notification.Name] = [
            .mediaPlaybackIsPreparedToPlayDidChange, .movieSourceTypeAvailable, .movieDurationAvailable,
            .movieNaturalSizeAvailable, .movieMediaTypesAvailable, .moviePlayerLoadStateDidChange,
            .moviePlayerReadyForDisplayDidChange, .moviePlayerPlaybackStateDidChange, .moviePlayerPlaybackDidFinish,
            .moviePlayerTracksAvailable, .movieMetadataAvailable, .moviePlayerNowPlayingMovieDidChange,
            .moviePlayerScalingModeDidChange,
        ]
        let observer = Observer(player, names: names)
        try await player.play()
        try await observer.waitUntil("the finish") { $0.contains { $0.name == .moviePlayerPlaybackDidFinish } }
        // After the end: stop() adds no finish; a new source says it is now playing another movie,
        // and a scaling mode after it marks the end of what the stop could have posted (one task
        // posts every notification of a player, in order).
        player.stop()
        player.shouldAutoplay = false
        player.source = FileSource(url: try await TestMedia.url(for: TestMedia.bars))
        player.scalingMode = .fill
        try await observer.waitUntil("the scaling mode") { $0.contains { $0.name == .moviePlayerScalingModeDidChange } }
        let received = observer.all
        #expect(Set(received.map(\.name)) == Set(names), "\(Set(names).subtracting(received.map(\.name)))")
        let finishes = observer.named(.moviePlayerPlaybackDidFinish)
        #expect(finishes.count == 1)
        #expect(finishes.first?.userInfo[Self.reason] as? Int == 0)
        #expect(finishes.first?.notification.finishReason == .playbackEnded)
        #expect(finishes.first?.keys == [Self.event, Self.reason], "no error key without an error")
        #expect(
            received.map(\.name).suffix(2) == [.moviePlayerNowPlayingMovieDidChange, .moviePlayerScalingModeDidChange])
        for note in received where Self.documentedWithoutUserInfo.contains(note.name) {
            #expect(note.keys == [Self.event], "\(note.name.rawValue): \(note.keys)")
        }
        await player.shutdown()
    }

    @Test("a new source while playing: the movie pauses, no finish is posted, now-playing-changed, the new one plays")
    func newSourceWhilePlaying() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        let observer = Observer(
            player,
            names: [
                .moviePlayerPlaybackDidFinish, .moviePlayerNowPlayingMovieDidChange,
                .moviePlayerPlaybackStateDidChange,
            ])
        try await player.play()
        // A finish handler written for MPMoviePlayerController tears the player down on any
        // finish: a source switch must not post one.
        let torn = Locked(false)
        let finishHandler = NotificationCenter.default.addObserver(
            forName: .moviePlayerPlaybackDidFinish, object: player, queue: nil
        ) { _ in torn.withLock { $0 = true } }
        defer { NotificationCenter.default.removeObserver(finishHandler) }
        let before = observer.all.count
        // A 10 s movie: the 2 s bars once ended (and posted their own finish) before this task,
        // held up on a busy machine, read what the switch had posted.
        player.source = FileSource(url: try await TestMedia.url(for: TestMedia.numberedLong))
        try await observer.waitUntil("the new movie plays") { received in
            received.dropFirst(before).contains { $0.notification.playerEvent == .playbackStateChanged(.playing) }
        }
        let received = observer.all.dropFirst(before)
        #expect(received.first?.notification.playerEvent == .playbackStateChanged(.paused), "the movie pauses first")
        #expect(received.contains { $0.name == .moviePlayerNowPlayingMovieDidChange })
        #expect(
            !received.contains { $0.name == .moviePlayerPlaybackDidFinish },
            "\(received.map { String(describing: $0.notification.playerEvent) })")
        #expect(!torn.withLock { $0 })
        player.stop()
        await player.shutdown()
    }

    @Test("a failed movie's finish has reason 1 and, under \"error\", an NSError read as the seed's code reads it")
    func errorKey() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("not-a-movie.mp4")
        try Data(repeating: 0x41, count: 4096).write(to: file)
        let player = MoviePlayer(source: FileSource(url: file), videoSink: NullVideoSink())
        let observer = Observer(player, names: [.moviePlayerPlaybackDidFinish])
        await #expect(throws: MediaError.self) { try await player.prepareToPlay() }
        try await observer.waitUntil("the finish") { !$0.isEmpty }
        let finish = try #require(observer.all.first)
        #expect(finish.userInfo[Self.reason] as? Int == 1)
        #expect(finish.notification.finishReason == .playbackError)
        // As an MPMoviePlayerController app reads it: an NSError, its domain, code and description.
        let error = try #require(finish.userInfo["error"] as? NSError)
        #expect(error.domain == MediaError.domain)
        #expect(error.code == MediaError.Code.notAMovie.number)
        #expect(error.localizedDescription.contains("not a movie"))
        #expect(error.userInfo[MediaError.UserInfoKey.codeName] as? String == "notAMovie")
        #expect(finish.notification.mediaError?.code == .notAMovie)
        #expect(finish.keys == [Self.event, Self.reason, "error"])
    }

    @Test("a MediaError is an NSError of a stable domain and code, and comes back from one")
    func nsErrorBridge() throws {
        let original = MediaError(
            .httpError, "the server answered 503", debugDetail: "souphttpsrc: Service Unavailable",
            element: "source", httpStatusCode: 503)
        let bridged = original as NSError
        #expect(bridged.domain == "org.swift-media-engine.MediaError")
        #expect(bridged.code == 29)
        #expect(bridged.localizedDescription == "the server answered 503")
        #expect(bridged.localizedFailureReason == "souphttpsrc: Service Unavailable")
        #expect(MediaError(bridged) == original)
        #expect(MediaError.Code(number: 1) == .fileNotFound)
        #expect(MediaError.Code(number: 0) == nil)
        #expect(MediaError(NSError(domain: "other", code: 1)) == nil)
        // Every code has a number of its own.
        let codes: [MediaError.Code] = [
            .fileNotFound, .permissionDenied, .isDirectory, .notRegularFile, .emptyFile, .notAMovie,
            .corruptContainer, .truncatedMovie, .missingPlugin, .invalidProperty, .invalidArgument, .notPrepared,
            .cancelled, .timedOut, .pipelineFailure, .streamFailure, .unknownSink, .duplicateSink,
            .unsupportedOperation, .notAnImage, .invalidSubtitles, .overlayFailed, .invalidWindow, .noVideo,
            .tooLarge, .diskFull, .unauthorized, .forbidden, .httpError, .tooManyRedirects, .hostNotFound,
            .connectionRefused, .connectionFailed, .connectionLost, .tlsFailure, .invalidPlaylist,
            .unsupportedScheme, .duplicateSource, .invalidGroupMessage, .unsupportedGroupMessage, .addressInUse,
            .timeSourceUnreachable,
        ]
        #expect(Set(codes.map(\.number)) == Set(1...codes.count))
        #expect(codes.allSatisfy { MediaError.Code(number: $0.number) == $0 })
        #expect(MediaError.Code.invalidGroupMessage.number == 39)
        #expect(MediaError.Code.timeSourceUnreachable.number == 42)
    }

    @Test("commands while playing: external playback, the sink, scaling, seek, rate, volume, time observers")
    func commands() async throws {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBars)), videoSink: NullVideoSink(),
            audioOutput: .discard)
        let names: [Notification.Name] = [
            .moviePlayerIsExternalPlaybackActiveDidChange, .moviePlayerVideoSinkDidChange,
            .moviePlayerScalingModeDidChange, .moviePlayerSeekDidComplete, .moviePlayerPlaybackRateDidChange,
            .moviePlayerVolumeDidChange, .moviePlayerMutedDidChange, .moviePlayerTimeObserverDidFire,
        ]
        let observer = Observer(player, names: names)
        _ = try player.addPeriodicTimeObserver(every: .milliseconds(100))
        try await player.play()
        try await player.setVideoSink(ExternalSink())
        try await player.setVideoSink(NullVideoSink())
        player.scalingMode = .aspectFill
        try await player.seek(to: .seconds(10), option: .nearestKeyFrame)
        try await player.setRate(2)
        player.volume = 0.5
        player.isMuted = true
        try await observer.waitUntil("every name") { Set($0.map(\.name)) == Set(names) }
        let external = observer.named(.moviePlayerIsExternalPlaybackActiveDidChange)
        #expect(
            external.map(\.notification.playerEvent) == [
                .externalPlaybackActiveChanged(true), .externalPlaybackActiveChanged(false),
            ])
        #expect(external.allSatisfy { $0.keys == [Self.event] })
        #expect(observer.named(.moviePlayerScalingModeDidChange).map(\.keys) == [[Self.event]])
        player.stop()
        await player.shutdown()
    }

    @Test(
        "fullscreen on the player's own window (Xvfb): will-enter and will-exit carry the duration and curve, did-* nothing"
    )
    func fullscreen() async throws {
        let display = try await VirtualDisplay()
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)),
            videoSink: WindowSink(display: display.name), audioOutput: .discard)
        try await withShutdown(of: player) {
            player.shouldAutoplay = false
            let names: [Notification.Name] = [
                .moviePlayerWillEnterFullscreen, .moviePlayerDidEnterFullscreen, .moviePlayerWillExitFullscreen,
                .moviePlayerDidExitFullscreen,
            ]
            let observer = Observer(player, names: names)
            try await player.prepareToPlay()
            try await player.setFullscreen(true, animated: true)
            try await player.setFullscreen(false, animated: false)
            try await observer.waitUntil("the exit") { $0.count == 4 }
            let received = observer.all
            #expect(received.map(\.name) == names)
            #expect(received.map { $0.userInfo[Self.duration] as? Double } == [0.3, nil, 0, nil])
            #expect(received.map { $0.userInfo[Self.curve] as? Int } == [3, nil, 3, nil])
            #expect(received.map(\.notification.fullscreenAnimationCurve) == [.linear, nil, .linear, nil])
            #expect(received[1].keys == [Self.event] && received[3].keys == [Self.event])
        }
        withExtendedLifetime(display) {}
    }
}
