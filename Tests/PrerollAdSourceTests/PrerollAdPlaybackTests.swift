import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import PrerollAdSource
import Testing

/// `playPrerollAd` end to end: VAST documents and the ad's media on nginx, the player playing
/// the ad then the content through one frames sink, and the beacons read back from nginx's log.
@Suite("Pre-roll ads, played", .serialized)
struct PrerollAdPlaybackTests {
    /// The ad server, with the ad's media (1.5 s, 328x184) and the content (the numbered clip).
    final class Setup: Sendable {
        let server: VASTTestServer
        let adMedia: String
        let player: MoviePlayer
        let recorder: EventRecorder
        let widths: Locked<[Int]>

        init(autoplay: Bool = false, cap: FrequencyCap? = nil) async throws {
            server = try await VASTTestServer()
            let ad = try await TestMedia.url(for: TestMedia.ballWithBFrames)
            try FileManager.default.createSymbolicLink(
                at: server.documents.appendingPathComponent("ad.mp4"), withDestinationURL: ad)
            adMedia = server.url("ad.mp4").absoluteString
            let widths = Locked<[Int]>([])
            self.widths = widths
            let sink = FrameSink(format: .i420, dropsLateFrames: false) { frame in
                let width = frame.width
                widths.withLock { $0.append(width) }
            }
            player = MoviePlayer(
                source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
                audioOutput: .discard)
            player.shouldAutoplay = autoplay
            recorder = EventRecorder(player)
        }

        /// An inline linear ad with every tracking event, pointing at `media`.
        func inline(
            id: String = "ad-1", media: String? = nil, type: String = "video/mp4", skipOffset: String? = nil,
            sequence: Int? = nil
        ) -> String {
            let b = server.baseURL
            let skip = skipOffset.map { " skipoffset=\"\($0)\"" } ?? ""
            let seq = sequence.map { " sequence=\"\($0)\"" } ?? ""
            let events = [
                "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "pause",
                "resume", "skip", "close", "closeLinear", "mute", "unmute",
            ]
            .map { "<Tracking event=\"\($0)\"><![CDATA[\n  \(b)/beacon/\(id)/\($0)?t=[ADPLAYHEAD]\n]]></Tracking>" }
            .joined(separator: "\n")
            return """
                <Ad id="\(id)"\(seq)><InLine><AdSystem>Loopback</AdSystem><AdTitle>Ad \(id)</AdTitle>
                <Impression><![CDATA[\(b)/beacon/\(id)/impression?cb=[CACHEBUSTING]&c=[CONTENTPLAYHEAD]&a=[ASSETURI]]]></Impression>
                <Error><![CDATA[\(b)/beacon/\(id)/error?code=[ERRORCODE]]]></Error>
                <Creatives><Creative><Linear\(skip)><Duration>00:00:01.500</Duration>
                <TrackingEvents>\(events)</TrackingEvents>
                <VideoClicks><ClickThrough><![CDATA[https://advertiser.invalid/\(id)]]></ClickThrough>
                <ClickTracking><![CDATA[\(b)/beacon/\(id)/click]]></ClickTracking></VideoClicks>
                <MediaFiles><MediaFile delivery="progressive" type="\(type)" width="328" height="184" bitrate="500">
                <![CDATA[ \(media ?? adMedia) ]]></MediaFile></MediaFiles>
                </Linear></Creative></Creatives></InLine></Ad>
                """
        }

        func vast(_ ads: String...) -> String {
            "<?xml version=\"1.0\"?><VAST version=\"3.0\">\(ads.joined())</VAST>"
        }

        /// The beacons' paths (without the query), in the order nginx answered them.
        func beacons() async throws -> [String] {
            try await server.settledBeacons().map(\.path)
        }

        /// The ad events announced so far.
        var adEvents: [PrerollAdEvent] {
            recorder.events.compactMap { if case .prerollAd(let event) = $0 { event } else { nil } }
        }
    }

    @Test("an inline ad plays before the content: its beacons once each in order, macros filled, the events")
    func inlineAd() async throws {
        let s = try await Setup()
        let tag = try s.server.write(s.vast(s.inline()), to: "vast.xml")
        try await s.player.playPrerollAd(PrerollAdRequest(adTag: tag))
        let (reason, _) = try await s.recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        let widths = s.widths.withLock { $0 }
        #expect(widths.prefix { $0 == 328 }.count == 45 && widths.drop { $0 == 328 }.count == 60)
        let log = try await s.server.settledBeacons()
        // The impression, creativeView and start go out together (in parallel), the others one by one.
        #expect(
            Set(log.prefix(3).map(\.path))
                == ["/beacon/ad-1/impression", "/beacon/ad-1/creativeView", "/beacon/ad-1/start"])
        #expect(
            log.dropFirst(3).map(\.path) == [
                "/beacon/ad-1/firstQuartile", "/beacon/ad-1/midpoint", "/beacon/ad-1/thirdQuartile",
                "/beacon/ad-1/complete",
            ])
        guard let impression = log.first(where: { $0.path == "/beacon/ad-1/impression" }) else { return }
        #expect(impression.query["c"] == "00:00:00.000")
        #expect(impression.query["a"] == s.adMedia, "ASSETURI, decoded back: \(impression.uri)")
        #expect(impression.query["cb"].map { $0.count == 8 && $0.allSatisfy(\.isNumber) } ?? false)
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        #expect(impression.uri.contains(s.adMedia.addingPercentEncoding(withAllowedCharacters: unreserved)!))
        let quartileTimes = log[3...5].compactMap { $0.query["t"] }
        #expect(quartileTimes.count == 3 && quartileTimes == quartileTimes.sorted(), "\(quartileTimes)")
        #expect(log.allSatisfy { $0.userAgent == "swift-media-engine" })
        let events = s.adEvents
        guard case .started(let info) = events.first else {
            Issue.record("the first ad event is \(String(describing: events.first))")
            return
        }
        #expect(info.id == "ad-1" && info.title == "Ad ad-1" && info.position == 1 && info.count == 1)
        #expect(info.clickThrough == URL(string: "https://advertiser.invalid/ad-1"))
        #expect(
            Array(events.dropFirst()) == [
                .progressed(.firstQuartile), .progressed(.midpoint), .progressed(.thirdQuartile),
                .finished(.completed, nil),
            ])
    }

    @Test("a wrapper's impression and tracking join the inline ad's")
    func wrapper() async throws {
        let s = try await Setup()
        try s.server.write(s.vast(s.inline()), to: "inline.xml")
        let wrapper = """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>Wrapper</AdSystem>
            <VASTAdTagURI><![CDATA[ \(s.server.url("inline.xml")) ]]></VASTAdTagURI>
            <Impression><![CDATA[\(s.server.baseURL)/beacon/w/impression]]></Impression>
            <Creatives><Creative><Linear><TrackingEvents>
            <Tracking event="complete"><![CDATA[\(s.server.baseURL)/beacon/w/complete]]></Tracking>
            </TrackingEvents></Linear></Creative></Creatives></Wrapper></Ad></VAST>
            """
        let tag = try s.server.write(wrapper, to: "wrapper.xml")
        try await s.player.playPrerollAd(PrerollAdRequest(adTag: tag))
        _ = try await s.recorder.waitForFinish()
        let beacons = try await s.beacons()
        #expect(
            beacons.filter { $0.hasSuffix("/impression") }.sorted() == [
                "/beacon/ad-1/impression", "/beacon/w/impression",
            ])
        #expect(
            beacons.filter { $0.hasSuffix("/complete") }.sorted() == ["/beacon/ad-1/complete", "/beacon/w/complete"])
    }

    /// Plays `document`'s ad and expects `code`; then the content plays when asked.
    func expectFailure(
        _ code: PrerollAdError.Code, vastCode: Int?, _ document: (Setup) -> String, errorBeacons: [String],
        configure: (inout PrerollAdRequest) -> Void = { _ in }
    ) async throws {
        let s = try await Setup()
        let tag = try s.server.write(document(s), to: "vast.xml")
        var configured = PrerollAdRequest(adTag: tag)
        configure(&configured)
        let request = configured
        let error = await #expect(throws: PrerollAdError.self) { try await s.player.playPrerollAd(request) }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.vastErrorCode == vastCode)
        try await s.recorder.waitFor("the ad's finish") { $0 == .prerollAd(.finished(.failed, error)) }
        let beacons = try await s.server.settledBeacons()
        #expect(beacons.map(\.path).sorted() == errorBeacons, "\(beacons)")
        #expect(beacons.allSatisfy { $0.query["code"] == vastCode.map(String.init) })
        // The content still plays, when the app chooses.
        try await s.player.play()
        let (reason, _) = try await s.recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(s.widths.withLock { $0 }.filter { $0 == 320 }.count == 60)
    }

    @Test("an empty VAST is noInventory (303), told to the root Error URI")
    func empty() async throws {
        try await expectFailure(
            .noInventory, vastCode: 303,
            { s in
                "<VAST version=\"3.0\"><Error><![CDATA[\(s.server.baseURL)/beacon/root/error?code=[ERRORCODE]]]></Error></VAST>"
            }, errorBeacons: ["/beacon/root/error"])
    }

    @Test("an empty answer (HTTP 204, no document) is noInventory (303), nothing to tell, and the content plays after")
    func noContent() async throws {
        let noAd = try FaultInjectingServer(serving: Data(), contentType: "application/xml", fault: .status(204))
        let tag = try #require(URL(string: noAd.url("vast.xml")))
        try await expectFailure(
            .noInventory, vastCode: 303, { _ in "" }, errorBeacons: [], configure: { $0.origin = .tag(tag) })
        #expect(noAd.requests.map(\.status) == [204])
    }

    @Test(
        "an InLine ad without creatives is noInventory (303), told to its Error URI and the root's; the content plays")
    func inlineWithoutCreatives() async throws {
        try await expectFailure(
            .noInventory, vastCode: 303,
            { s in
                let b = s.server.baseURL
                return s.vast(
                    "<Error><![CDATA[\(b)/beacon/root/error?code=[ERRORCODE]]]></Error>",
                    "<Ad id=\"empty\"><InLine><AdSystem>Loopback</AdSystem><AdTitle>No ad</AdTitle>"
                        + "<Impression><![CDATA[\(b)/beacon/empty/impression]]></Impression>"
                        + "<Error><![CDATA[\(b)/beacon/empty/error?code=[ERRORCODE]]]></Error>"
                        + "<Creatives></Creatives></InLine></Ad>")
            }, errorBeacons: ["/beacon/empty/error", "/beacon/root/error"])
    }

    @Test("malformed XML is malformedVAST (100)")
    func malformed() async throws {
        try await expectFailure(
            .malformedVAST, vastCode: 100, { _ in "<VAST version=\"3.0\"><Ad><InLine>" }, errorBeacons: [])
    }

    /// The ball in FLV (H.264 with AAC), the container of many VAST 2 ads.
    static let flvAd = TestMedia.Clip(
        fileExtension: "flv",
        pipeline: """
            videotestsrc num-buffers=45 pattern=ball ! video/x-raw,format=I420,width=328,height=184,framerate=30/1 ! \
            x264enc key-int-max=15 speed-preset=superfast ! h264parse ! flvmux name=mux ! filesink location=LOCATION \
            audiotestsrc num-buffers=65 samplesperbuffer=1024 ! audio/x-raw,rate=44100 ! avenc_aac ! aacparse ! mux.
            """)

    @Test("an FLV ad (video/x-flv, as VAST 2 ad servers send) plays with the default media types, then the content")
    func flvAd() async throws {
        let s = try await Setup()
        try FileManager.default.createSymbolicLink(
            at: s.server.documents.appendingPathComponent("ad.flv"),
            withDestinationURL: try await TestMedia.url(for: Self.flvAd))
        let tag = try s.server.write(
            s.vast(s.inline(media: s.server.url("ad.flv").absoluteString, type: "video/x-flv")), to: "vast.xml")
        try await s.player.playPrerollAd(PrerollAdRequest(adTag: tag))
        let (reason, _) = try await s.recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        let widths = s.widths.withLock { $0 }
        #expect(widths.prefix { $0 == 328 }.count == 45 && widths.drop { $0 == 328 }.count == 60, "\(widths.count)")
        #expect(s.adEvents.last == .finished(.completed, nil))
    }

    @Test("a media file that is not on its server is mediaFileNotFound (401)")
    func missingMedia() async throws {
        try await expectFailure(
            .mediaFileNotFound, vastCode: 401,
            { s in
                s.vast(s.inline(media: s.server.url("missing.mp4").absoluteString))
            }, errorBeacons: ["/beacon/ad-1/error"])
    }

    @Test("a media file that is not a movie is playbackFailed (405)")
    func notAMovie() async throws {
        try await expectFailure(
            .playbackFailed, vastCode: 405, { s in s.vast(s.inline(media: s.server.url("vast.xml").absoluteString)) },
            errorBeacons: ["/beacon/ad-1/error"])
    }

    @Test("a media file whose server never answers is mediaTimeout (402) after the request's media timeout")
    func mediaTimeout() async throws {
        let silent = try FaultInjectingServer(serving: Data(), fault: .neverAnswer)
        let started = ContinuousClock.now
        try await expectFailure(
            .mediaTimeout, vastCode: 402, { s in s.vast(s.inline(media: silent.url("ad.mp4"))) },
            errorBeacons: ["/beacon/ad-1/error"], configure: { request in request.mediaTimeout = .milliseconds(800) })
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("only media types the engine cannot play is noSupportedMediaFile (403)")
    func unsupportedMedia() async throws {
        try await expectFailure(
            .noSupportedMediaFile, vastCode: 403,
            { s in
                s.vast(s.inline(type: "application/javascript"))
            }, errorBeacons: ["/beacon/ad-1/error"])
    }

    @Test("six wrappers deep is wrapperLimitReached (302), told to every wrapper's Error URI")
    func tooDeep() async throws {
        try await expectFailure(
            .wrapperLimitReached, vastCode: 302,
            { s in
                try! s.server.write(s.vast(s.inline()), to: "w7.xml")
                for level in stride(from: 6, through: 1, by: -1) {
                    try! s.server.write(
                        """
                        <VAST version="3.0"><Ad><Wrapper><AdSystem>W</AdSystem>
                        <VASTAdTagURI>\(s.server.url("w\(level + 1).xml"))</VASTAdTagURI>
                        <Error>\(s.server.baseURL)/beacon/w\(level)/error?code=[ERRORCODE]</Error>
                        <Creatives/></Wrapper></Ad></VAST>
                        """, to: "w\(level).xml")
                }
                return try! String(contentsOf: s.server.documents.appendingPathComponent("w1.xml"), encoding: .utf8)
            }, errorBeacons: (1...6).map { "/beacon/w\($0)/error" })
    }

    @Test("after its skip offset, skipAd() ends the ad: skip beacon, no complete, the content plays")
    func skip() async throws {
        let s = try await Setup()
        let tag = try s.server.write(s.vast(s.inline(skipOffset: "00:00:00.300")), to: "vast.xml")
        #expect(!s.player.skipAd())
        let watcher = Task {
            try await s.recorder.waitFor("skippable") { $0 == .prerollAd(.skippable) }
            return s.player.skipAd()
        }
        try await s.player.playPrerollAd(PrerollAdRequest(adTag: tag))
        #expect(try await watcher.value)
        _ = try await s.recorder.waitForFinish()
        let beacons = try await s.beacons()
        #expect(beacons.contains("/beacon/ad-1/skip") && !beacons.contains("/beacon/ad-1/complete"))
        #expect(s.adEvents.suffix(2) == [.skipped, .finished(.skipped, nil)])
        #expect(s.widths.withLock { $0 }.filter { $0 == 320 }.count == 60)
    }

    @Test("play() during the ad stops it at once and plays the content: userStartedContent, no complete beacon")
    func playDuringAd() async throws {
        let s = try await Setup()
        let tag = try s.server.write(s.vast(s.inline()), to: "vast.xml")
        let ad = Task { try await s.player.playPrerollAd(PrerollAdRequest(adTag: tag)) }
        try await s.recorder.waitFor("the ad's start") { if case .prerollAd(.started) = $0 { true } else { false } }
        try await s.player.play()
        try await ad.value
        #expect(s.adEvents.last == .finished(.userStartedContent, nil))
        _ = try await s.recorder.waitForFinish()
        #expect(!(try await s.beacons()).contains("/beacon/ad-1/complete"))
        #expect(s.widths.withLock { $0 }.filter { $0 == 320 }.count == 60)
    }

    @Test("muting and unmuting the player during the ad fire the ad's mute and unmute beacons")
    func muteBeacons() async throws {
        let s = try await Setup()
        let tag = try s.server.write(s.vast(s.inline()), to: "vast.xml")
        let watcher = Task {
            try await s.recorder.waitFor("the ad's start") { if case .prerollAd(.started) = $0 { true } else { false } }
            s.player.isMuted = true
            s.player.isMuted = false
        }
        try await s.player.playPrerollAd(PrerollAdRequest(adTag: tag))
        try await watcher.value
        _ = try await s.recorder.waitForFinish()
        let beacons = try await s.beacons()
        // One of each (sent a moment apart, so their order on the wire is not certain).
        #expect(
            beacons.filter { $0.hasSuffix("mute") }.sorted() == ["/beacon/ad-1/mute", "/beacon/ad-1/unmute"],
            "\(beacons)")
        #expect(s.recorder.events.contains(.mutedChanged(true)) && !s.player.isMuted)
    }

    @Test("an ad pod of two plays both in sequence when asked, then the content")
    func pod() async throws {
        let s = try await Setup()
        let tag = try s.server.write(
            s.vast(s.inline(id: "second", sequence: 2), s.inline(id: "first", sequence: 1)), to: "vast.xml")
        var request = PrerollAdRequest(adTag: tag)
        request.playsWholePod = true
        try await s.player.playPrerollAd(request)
        _ = try await s.recorder.waitForFinish()
        let started = s.adEvents.compactMap {
            if case .started(let info) = $0 { "\(info.id ?? "") \(info.position)/\(info.count)" } else { nil }
        }
        #expect(started == ["first 1/2", "second 2/2"])
        let completes = try await s.beacons().filter { $0.hasSuffix("/complete") }
        #expect(completes == ["/beacon/first/complete", "/beacon/second/complete"])
        #expect(s.widths.withLock { $0 }.filter { $0 == 328 }.count == 90)
    }

    @Test("refused while autoplay is on, and over the frequency cap, shared by two players: nothing fetched")
    func refusals() async throws {
        let autoplay = try await Setup(autoplay: true)
        let tag = try autoplay.server.write(autoplay.vast(autoplay.inline()), to: "vast.xml")
        let busy = await #expect(throws: PrerollAdError.self) {
            try await autoplay.player.playPrerollAd(PrerollAdRequest(adTag: tag))
        }
        #expect(busy?.code == .playerBusy)
        #expect(try await autoplay.server.settledLog().isEmpty)

        let store = try TestMedia.scratchDirectory().appendingPathComponent("cap.json")
        let cap = FrequencyCap(maximumAds: 1, per: .seconds(3600), storeURL: store)
        let first = try await Setup()
        let firstTag = try first.server.write(first.vast(first.inline()), to: "vast.xml")
        var request = PrerollAdRequest(adTag: firstTag)
        request.frequencyCap = cap
        try await first.player.playPrerollAd(request)
        let second = try await Setup()
        let secondTag = try second.server.write(second.vast(second.inline()), to: "vast.xml")
        var capped = PrerollAdRequest(adTag: secondTag)
        capped.frequencyCap = FrequencyCap(maximumAds: 1, per: .seconds(3600), storeURL: store)
        let error = await #expect(throws: PrerollAdError.self) { try await second.player.playPrerollAd(capped) }
        #expect(error?.code == .frequencyCapExceeded)
        #expect(try await second.server.settledLog().isEmpty)
    }

    @Test("the frequency cap counts ads shown: a request without an ad gives its place back, a pod counts each ad")
    func capCountsAdsShown() async throws {
        let store = try TestMedia.scratchDirectory().appendingPathComponent("cap.json")
        func capped(_ tag: URL, pod: Bool = false) -> PrerollAdRequest {
            var request = PrerollAdRequest(adTag: tag)
            request.frequencyCap = FrequencyCap(maximumAds: 3, per: .seconds(3600), storeURL: store)
            request.playsWholePod = pod
            return request
        }
        func counted() throws -> Int {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any]
            return (object?["starts"] as? [Double])?.count ?? -1
        }
        // No inventory: nothing shown, nothing counted.
        let empty = try await Setup()
        let emptyTag = try empty.server.write("<VAST version=\"3.0\"/>", to: "vast.xml")
        let error = await #expect(throws: PrerollAdError.self) {
            try await empty.player.playPrerollAd(capped(emptyTag))
        }
        #expect(error?.code == .noInventory)
        #expect(try counted() == 0)
        // A pod of two, interrupted by play() during its first ad: only that ad counts.
        let interrupted = try await Setup()
        let podTag = try interrupted.server.write(
            interrupted.vast(
                interrupted.inline(id: "first", sequence: 1), interrupted.inline(id: "second", sequence: 2)),
            to: "vast.xml")
        let ad = Task { try await interrupted.player.playPrerollAd(capped(podTag, pod: true)) }
        try await interrupted.recorder.waitFor("the ad's start") {
            if case .prerollAd(.started) = $0 { true } else { false }
        }
        try await interrupted.player.play()
        try await ad.value
        #expect(try counted() == 1)
        _ = try await interrupted.recorder.waitForFinish()
        // A pod of three with room for two more: the first two play, the third is left out.
        let full = try await Setup()
        let threeTag = try full.server.write(
            full.vast(
                full.inline(id: "a", sequence: 1), full.inline(id: "b", sequence: 2), full.inline(id: "c", sequence: 3)),
            to: "vast.xml")
        try await full.player.playPrerollAd(capped(threeTag, pod: true))
        _ = try await full.recorder.waitForFinish()
        let started = full.adEvents.compactMap {
            if case .started(let info) = $0 { "\(info.id ?? "") \(info.position)/\(info.count)" } else { nil }
        }
        #expect(started == ["a 1/2", "b 2/2"])
        #expect(try counted() == 3)
        // The cap is full now.
        let refused = #expect(throws: PrerollAdError.self) {
            try FrequencyCap(maximumAds: 3, per: .seconds(3600), storeURL: store).reserve()
        }
        #expect(refused?.code == .frequencyCapExceeded)
    }

    @Test("a tracking beacon that fails goes to the player's error log; the ad and the content play on")
    func failedBeaconLogged() async throws {
        let s = try await Setup()
        let missing = "\(s.server.baseURL)/nowhere/impression"
        let document = s.vast(s.inline()).replacingOccurrences(
            of: "<Impression>", with: "<Impression><![CDATA[\(missing)]]></Impression><Impression>")
        let tag = try s.server.write(document, to: "vast.xml")
        try await s.player.playPrerollAd(PrerollAdRequest(adTag: tag))
        let (reason, _) = try await s.recorder.waitForFinish()
        #expect(reason == .playbackEnded)
        #expect(s.adEvents.last == .finished(.completed, nil))
        try await s.recorder.waitUntil("the failed beacon's error entry") { events in
            events.contains { if case .errorLogEntryAdded = $0 { true } else { false } }
        }
        let entries = s.player.errorLog.events
        #expect(entries.count == 1, "\(entries)")
        #expect(entries.first?.uri == missing && entries.first?.statusCode == 404 && entries.first?.domain == "HTTP")
        #expect(entries.first?.comment.contains("impression") == true, "\(entries.first?.comment ?? "")")
        #expect(try await s.beacons().contains("/beacon/ad-1/complete"))
    }

    @Test("the completion handler is called exactly once, with nil after the ad")
    func completionHandler() async throws {
        let s = try await Setup()
        let tag = try s.server.write(s.vast(s.inline()), to: "vast.xml")
        let calls = Locked<[PrerollAdError?]>([])
        let done = AsyncStream<Void>.makeStream()
        s.player.playPrerollAd(PrerollAdRequest(adTag: tag)) { error in
            calls.withLock { $0.append(error) }
            done.continuation.yield()
        }
        for await _ in done.stream { break }
        _ = try await s.recorder.waitForFinish()
        #expect(calls.withLock { $0.count } == 1 && calls.withLock { $0.first! } == nil)
    }
}
