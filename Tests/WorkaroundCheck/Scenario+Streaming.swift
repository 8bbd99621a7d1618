import Foundation
import HTTPStreamSource
import MediaEngine
import MediaTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Network movies against the test's servers on loopback: progressive HTTP and HTTPS, HLS, DASH.
extension Scenario {
    static let streaming: [Scenario] = [
        // Off: loading the movie again into the same pipeline (a retry after a 503) starts the
        // failed load's source on the way up: one more request (the test counts them on its server).
        Scenario(.reloadSources, arguments: ["URL"]) { arguments, report in
            var options = HTTPStreamOptions()
            options.retryDelay = .milliseconds(100)
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: arguments[0], options: options), videoSink: NullVideoSink(),
                audioOutput: .discard)
            player.shouldAutoplay = false
            let events = EventRecorder(player)
            try await player.prepareToPlay()
            report.set("prepared", player.isPreparedToPlay)
            report.set("retries", events.events.filter { if case .reconnecting = $0 { true } else { false } }.count)
        },
        // Off: while the first picture is decoded (held 400 ms in the sink here), the demuxer
        // reads ahead: several segments requested, not the first and at most the second.
        Scenario(.fragmentGate, arguments: ["PLAYLIST-URL", "ACCESS-LOG"]) { arguments, report in
            let log = URL(fileURLWithPath: arguments[1])
            let held = Locked(false)
            let sink = FrameSink { _ in
                guard !held.withLock({ $0 }) else { return }
                usleep(400_000)
                let segments = (try? StreamingTestServer.accessLog(in: log))?.filter { $0.uri.hasSuffix(".ts") }
                report.set("segmentsWhilePreparing", segments?.count ?? -1)
                held.withLock { $0 = true }
            }
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: arguments[0]), videoSink: sink, audioOutput: .discard)
            player.shouldAutoplay = false
            try await player.prepareToPlay()
        },
        // Off: the buffering elements keep GStreamer's watermarks (99 %), so a movie whose
        // download stops at 40 % (1.6 s of 4) never buffers enough to play; on, playback starts
        // once the policy's second is buffered.
        Scenario(.bufferingThresholds, arguments: ["URL"]) { arguments, report in
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: arguments[0]), videoSink: FrameSink(), audioOutput: .discard)
            player.bufferingPolicy = BufferingPolicy(startAfter: .seconds(1), maximum: .seconds(10))
            let events = EventRecorder(player)
            report.set("playing", false)
            Task { try await player.play() }
            do {
                try await events.waitFor("playing", within: .seconds(3)) { $0 == .playbackStateChanged(.playing) }
                report.set("playing", true)
                report.mark("playingAfter")
            } catch is DeadlineExceeded {
                report.set("state", events.events.compactMap(\.playbackState).last.map { "\($0)" } ?? "none")
            }
        },
        // Off: dashdemux's moves to another representation are not reported.
        Scenario(.dashManifest, arguments: ["MANIFEST-URL"]) { arguments, report in
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: arguments[0]), videoSink: FrameSink(synchronized: false),
                audioOutput: .discard)
            let events = EventRecorder(player)
            try await player.play()
            _ = try await events.waitForFinish()
            let switches = events.events.compactMap { event -> VariantSwitch? in
                if case .variantSwitched(let change) = event { return change }
                return nil
            }
            report.set("switches", switches.map(\.uri).joined(separator: " "))
            report.set("height", player.naturalSize.height)
        },
        // Off: the stream starts on the variant the demuxer picks (the master playlist's first,
        // the highest), not the lowest the start bitrate asks for.
        Scenario(.adaptiveStartBitrate, arguments: ["MASTER-URL"]) { arguments, report in
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: arguments[0]), videoSink: FrameSink(synchronized: false),
                audioOutput: .discard)
            player.shouldAutoplay = false
            let events = EventRecorder(player)
            try await player.prepareToPlay()
            let sizes = events.events.compactMap { event -> VideoSize? in
                if case .naturalSizeAvailable(let size) = event { return size }
                return nil
            }
            report.set("firstHeight", sizes.first?.height ?? 0)
        },
        // Off: only souphttpsrc's ssl-ca-file is set, which libsoup 3 ignores: a server whose
        // certificate that file's CA signed is not trusted.
        Scenario(.soupCertificateFile, arguments: ["HTTPS-URL", "CA-FILE"]) { arguments, report in
            var options = HTTPStreamOptions()
            options.certificateAuthorityFile = arguments[1]
            options.retries = 0
            let player = MoviePlayer(
                source: try HTTPStreamSource(string: arguments[0], options: options), videoSink: NullVideoSink(),
                audioOutput: .discard)
            player.shouldAutoplay = false
            await report.recordPreparation(of: player)
        },
    ]
}
