import Foundation
import MediaEngine
import MediaTestSupport
import PrerollAdSource
import Testing

/// ``VASTClient`` against ad servers on loopback (nginx, ``VASTTestServer``): wrapper chains,
/// their limits and loops, pods, empty answers, and servers that fail or do not answer.
@Suite("VAST client")
struct VASTClientTests {
    static let userAgent = "vast-client-tests/1.0"

    static func client(timeout: Duration = .seconds(5), depth: Int = 5) -> VASTClient {
        VASTClient(timeout: timeout, userAgent: userAgent, maximumWrapperDepth: depth)
    }

    /// Resolves, expecting a failure.
    static func failure(_ client: VASTClient, tag: URL) async -> VASTResolutionFailure? {
        do {
            let resolution = try await client.resolveReportingErrors(tag: tag)
            Issue.record("resolved to \(resolution.ads.map(\.id))")
            return nil
        } catch {
            return error
        }
    }

    @Test("a chain of two wrappers: every wrapper's impressions, errors, tracking and click tracking merged in")
    func wrapperChain() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        try server.write(VASTSamples.inline(name: "inline", base: base), to: "inline.xml")
        try server.write(
            VASTSamples.wrapper(name: "inner", next: server.url("inline.xml").absoluteString, base: base),
            to: "inner.xml")
        let tag = try server.write(
            VASTSamples.wrapper(
                name: "outer", next: server.url("inner.xml").absoluteString, base: base, version: "4.1"),
            to: "outer.xml")
        let resolution = try await Self.client().resolve(tag: tag)
        let ad = try #require(resolution.ads.first)
        #expect(resolution.ads.count == 1 && resolution.failures.isEmpty)
        #expect(ad.id == "inline" && ad.title == "inline" && ad.adSystem == "Test Ad Server")
        #expect(ad.duration == .seconds(16) && ad.skipOffset == .time(.seconds(5)))
        #expect(
            ad.impressions.map(Self.beaconPath) == [
                "/beacon/outer/impression", "/beacon/inner/impression", "/beacon/inline/impression",
            ])
        #expect(
            ad.errors.map(Self.beaconPath) == ["/beacon/outer/error", "/beacon/inner/error", "/beacon/inline/error"])
        #expect(
            ad.trackingURIs(for: .start).map(Self.beaconPath) == [
                "/beacon/outer/start", "/beacon/inner/start", "/beacon/inline/start",
            ])
        #expect(
            ad.trackingURIs(for: .firstQuartile).map(Self.beaconPath) == [
                "/beacon/outer/firstQuartile", "/beacon/inner/firstQuartile", "/beacon/inline/firstQuartile",
            ])
        #expect(ad.trackingURIs(for: .complete).map(Self.beaconPath) == ["/beacon/inline/complete"])
        #expect(
            ad.clickTracking.map(Self.beaconPath) == [
                "/beacon/outer/click", "/beacon/inner/click", "/beacon/inline/click",
            ])
        #expect(ad.clickThrough == "https://advertiser.invalid/inline")
        #expect(ad.mediaFiles.map(\.url.absoluteString) == ["https://cdn.invalid/inline.mp4"])
        #expect(ad.documentURLs == [tag, server.url("inner.xml"), server.url("inline.xml")])
        let log = try await server.settledLog()
        #expect(log.map(\.uri) == ["/outer.xml", "/inner.xml", "/inline.xml"])
        #expect(log.allSatisfy { $0.userAgent == Self.userAgent && $0.method == "GET" })
    }

    static func beaconPath(_ template: String) -> String {
        URL(string: template.replacingOccurrences(of: "[", with: "%5B").replacingOccurrences(of: "]", with: "%5D"))?
            .path ?? template
    }

    /// Writes `count` wrappers, `wrapper-1.xml` leading to `wrapper-2.xml` and so on, the last
    /// to `inline.xml`.
    static func chain(_ count: Int, on server: VASTTestServer) throws -> URL {
        let base = server.baseURL
        try server.write(VASTSamples.inline(name: "inline", base: base), to: "inline.xml")
        for index in 1...count {
            let next = index == count ? "inline.xml" : "wrapper-\(index + 1).xml"
            try server.write(
                VASTSamples.wrapper(name: "w\(index)", next: server.url(next).absoluteString, base: base),
                to: "wrapper-\(index).xml")
        }
        return server.url("wrapper-1.xml")
    }

    @Test("five wrappers lead to the ad; a sixth is 302, before the ad is fetched")
    func depth() async throws {
        let server = try await VASTTestServer()
        let five = try Self.chain(5, on: server)
        let resolution = try await Self.client().resolve(tag: five)
        #expect(resolution.ads.first?.impressions.count == 6)
        #expect(resolution.ads.first?.documentURLs.count == 6)

        let longer = try await VASTTestServer()
        let six = try Self.chain(6, on: longer)
        let failure = try #require(await Self.failure(Self.client(), tag: six))
        #expect(failure.error.code == .wrapperLimitReached && failure.error.vastErrorCode == 302)
        #expect(failure.error.message.contains("more than 5 wrappers"), "\(failure.error.message)")
        #expect(failure.errorURIs.map(Self.beaconPath) == (1...6).map { "/beacon/w\($0)/error" })
        let log = try await longer.settledLog()
        #expect(log.map(\.uri) == (1...6).map { "/wrapper-\($0).xml" })

        // The limit is the client's.
        let strict = try #require(await Self.failure(Self.client(depth: 1), tag: five))
        #expect(strict.error.code == .wrapperLimitReached)
        #expect(strict.errorURIs.count == 2)
        #expect(try await Self.client(depth: 6).resolve(tag: six).ads.count == 1)
    }

    @Test("a wrapper chain that comes back to a document it read is a loop (302)")
    func loop() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        try server.write(
            VASTSamples.wrapper(name: "a", next: server.url("b.xml").absoluteString, base: base), to: "a.xml")
        // Relative, resolved against b.xml's own URL.
        try server.write(VASTSamples.wrapper(name: "b", next: "a.xml", base: base), to: "b.xml")
        let failure = try #require(await Self.failure(Self.client(), tag: server.url("a.xml")))
        #expect(failure.error.code == .wrapperLimitReached)
        #expect(failure.error.message.contains("loops"), "\(failure.error.message)")
        #expect(failure.error.message.contains(server.url("a.xml").absoluteString))
        #expect(failure.errorURIs.map(Self.beaconPath) == ["/beacon/a/error", "/beacon/b/error"])
        #expect(try await server.settledLog().map(\.uri) == ["/a.xml", "/b.xml"])
    }

    @Test("a wrapper's <VASTAdTagURI> is fetched with its macros replaced; a loop is found by the URI as written")
    func wrapperMacros() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        try server.write(VASTSamples.inline(name: "inline", base: base), to: "inline.xml")
        let tag = try server.write(
            VASTSamples.wrapper(
                name: "w",
                next: server.url("inline.xml").absoluteString + "?cb=[CACHEBUSTING]&ts=[TIMESTAMP]&x=[OTHER]",
                base: base),
            to: "w.xml")
        #expect(try await Self.client().resolve(tag: tag).ads.map(\.id) == ["inline"])
        let log = try await server.settledLog()
        #expect(log.map(\.path) == ["/w.xml", "/inline.xml"])
        let fetched = try #require(log.last)
        #expect(fetched.query["cb"]?.wholeMatch(of: /\d{8}/) != nil, "\(fetched.uri)")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(fetched.query["ts"].flatMap { parser.date(from: $0) } != nil, "\(fetched.uri)")
        #expect(fetched.query["x"] == "[OTHER]", "\(fetched.uri)")
        // Each fetch has a new cache-busting number; the chain still loops as written.
        try server.write(
            VASTSamples.wrapper(name: "a", next: server.url("b.xml").absoluteString + "?cb=[CACHEBUSTING]", base: base),
            to: "a.xml")
        try server.write(VASTSamples.wrapper(name: "b", next: "a.xml", base: base), to: "b.xml")
        let failure = try #require(await Self.failure(Self.client(), tag: server.url("a.xml")))
        #expect(failure.error.code == .wrapperLimitReached && failure.error.message.contains("loops"))
        #expect(try await server.settledLog().suffix(2).map(\.path) == ["/a.xml", "/b.xml"])
    }

    @Test("a wrapper leading to an empty VAST is no inventory (303), reported to the wrappers and the root error")
    func emptyAfterWrapper() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        try server.write(
            "<VAST version=\"3.0\">\n  <Error><![CDATA[\n    \(base)/beacon/empty/error?code=[ERRORCODE]\n  ]]></Error>\n</VAST>",
            to: "empty.xml")
        let tag = try server.write(
            VASTSamples.wrapper(name: "w", next: server.url("empty.xml").absoluteString, base: base), to: "w.xml")
        let failure = try #require(await Self.failure(Self.client(), tag: tag))
        #expect(failure.error.code == .noInventory && failure.error.vastErrorCode == 303)
        #expect(failure.error.message.contains("empty.xml"))
        #expect(failure.errorURIs.map(Self.beaconPath) == ["/beacon/w/error", "/beacon/empty/error"])
        // resolve(tag:) throws the same error alone.
        await #expect(throws: failure.error) { try await Self.client().resolve(tag: tag) }

        let beacons = BeaconSender(userAgent: Self.userAgent)
        AdTracker.fireErrors(of: failure, using: beacons)
        #expect(await beacons.flush(within: .seconds(5).scaled))
        #expect(beacons.failures.isEmpty)
        let fired = try await server.settledBeacons()
        #expect(Set(fired.map(\.path)) == ["/beacon/w/error", "/beacon/empty/error"])
        #expect(fired.count == 2 && fired.allSatisfy { $0.query["code"] == "303" && $0.userAgent == Self.userAgent })
    }

    @Test("an empty VAST given as a document, with and without a root error")
    func emptyDocument() async throws {
        let client = Self.client()
        do {
            _ = try await client.resolveReportingErrors(document: Data("<VAST version=\"3.0\"/>".utf8))
            Issue.record("an empty VAST resolved")
        } catch {
            #expect(error.error.code == .noInventory && error.errorURIs.isEmpty)
        }
        do {
            _ = try await client.resolveReportingErrors(
                document: Data("<VAST version=\"4.2\"><Error>https://ads.invalid/e?c=[ERRORCODE]</Error></VAST>".utf8))
            Issue.record("an empty VAST resolved")
        } catch {
            #expect(error.error.code == .noInventory)
            #expect(error.errorURIs == ["https://ads.invalid/e?c=[ERRORCODE]"])
        }
    }

    @Test("an empty answer (0 bytes with 200, a 204, white space) is no inventory (303), not malformedVAST")
    func emptyAnswer() async throws {
        let empty = try FaultInjectingServer(serving: Data(), contentType: "application/xml")
        let noContent = try FaultInjectingServer(serving: Data(), contentType: "application/xml", fault: .status(204))
        for tag in [empty.url("vast.xml"), noContent.url("vast.xml")] {
            let url = try #require(URL(string: tag))
            let failure = try #require(await Self.failure(Self.client(), tag: url))
            #expect(failure.error.code == .noInventory && failure.error.vastErrorCode == 303, "\(failure)")
            #expect(failure.error.message.contains("\(tag) is empty"), "\(failure)")
            #expect(failure.errorURIs.isEmpty, "no document, no Error URI")
        }
        #expect(empty.requests.map(\.status) == [200] && noContent.requests.map(\.status) == [204])
        let blank = await #expect(throws: PrerollAdError.self) {
            try await Self.client().resolve(document: Data(" \r\n\t".utf8))
        }
        #expect(blank?.code == .noInventory)
        // Bytes that are not VAST stay malformed.
        let text = await #expect(throws: PrerollAdError.self) {
            try await Self.client().resolve(document: Data("no ad".utf8))
        }
        #expect(text?.code == .malformedVAST)
    }

    @Test("a wrapper leading to a 204 is no inventory (303), told to the wrapper's Error URI")
    func noContentAfterWrapper() async throws {
        let server = try await VASTTestServer()
        let noContent = try FaultInjectingServer(serving: Data(), contentType: "application/xml", fault: .status(204))
        let tag = try server.write(
            VASTSamples.wrapper(name: "w", next: noContent.url("vast.xml"), base: server.baseURL), to: "w.xml")
        let failure = try #require(await Self.failure(Self.client(), tag: tag))
        #expect(failure.error.code == .noInventory, "\(failure)")
        #expect(failure.errorURIs.map(Self.beaconPath) == ["/beacon/w/error"])
        let beacons = BeaconSender(userAgent: Self.userAgent)
        AdTracker.fireErrors(of: failure, using: beacons)
        #expect(await beacons.flush(within: .seconds(5).scaled))
        let fired = try await server.settledBeacons()
        #expect(fired.map(\.path) == ["/beacon/w/error"] && fired.first?.query["code"] == "303", "\(fired)")
    }

    @Test("a tag answering 404 or 500, or nothing listening: 301 naming the URL and the cause")
    func unreachable() async throws {
        let server = try await VASTTestServer()
        for (path, cause) in [("status/404", "404"), ("status/500", "500"), ("missing.xml", "404")] {
            let error = await #expect(throws: PrerollAdError.self) {
                try await Self.client().resolve(tag: server.url(path))
            }
            #expect(error?.code == .vastTimeout && error?.vastErrorCode == 301)
            #expect(error?.message.contains(server.url(path).absoluteString) == true)
            #expect(error?.message.contains("status \(cause)") == true, "\(error?.message ?? "")")
        }
        let refused = URL(string: "http://127.0.0.1:1/vast.xml")!
        let error = await #expect(throws: PrerollAdError.self) { try await Self.client().resolve(tag: refused) }
        #expect(error?.code == .vastTimeout)
        #expect(error?.message.contains("http://127.0.0.1:1/vast.xml could not be fetched") == true)

        // A wrapper whose tag fails: 301, reported to the wrapper.
        let tag = try server.write(
            VASTSamples.wrapper(name: "w", next: server.url("status/500").absoluteString, base: server.baseURL),
            to: "w.xml")
        let failure = try #require(await Self.failure(Self.client(), tag: tag))
        #expect(failure.error.code == .vastTimeout)
        #expect(failure.errorURIs.map(Self.beaconPath) == ["/beacon/w/error"])
    }

    @Test("a tag slower than the timeout is 301, soon after the timeout")
    func slow() async throws {
        let server = try FaultInjectingServer(serving: Data(VASTSamples.inline2().utf8), fault: .neverAnswer)
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let error = try await withDeadline(.seconds(5), "the resolution") {
            await #expect(throws: PrerollAdError.self) {
                try await Self.client(timeout: .milliseconds(500)).resolve(tag: URL(string: server.url("vast.xml"))!)
            }
        }
        let elapsed = clock.now - start
        #expect(error?.code == .vastTimeout)
        #expect(error?.message.contains("did not answer within") == true, "\(error?.message ?? "")")
        #expect(elapsed >= .milliseconds(450))
        #expect(elapsed < .seconds(3).scaled, "\(elapsed)")
        #expect(server.requests.count == 1)
    }

    @Test("cancelling the task ends the resolution with cancelled, at once")
    func cancelled() async throws {
        let server = try FaultInjectingServer(serving: Data(), fault: .neverAnswer)
        defer { server.stop() }
        let client = Self.client(timeout: .seconds(30))
        let tag = URL(string: server.url("vast.xml"))!
        let task = Task { () async throws(PrerollAdError) -> VASTResolution in try await client.resolve(tag: tag) }
        _ = try await withDeadline(.seconds(5), "the request") { await server.requests(atLeast: 1) }
        task.cancel()
        let result = try await withDeadline(.seconds(3), "the cancelled resolution") { await task.result }
        #expect(throws: PrerollAdError(.cancelled, "the ad was cancelled while \(tag.absoluteString) was fetched")) {
            try result.get()
        }
    }

    @Test("only http and https tags", arguments: ["file:///etc/passwd", "ftp://ads.invalid/vast.xml", "vast.xml"])
    func schemes(_ tag: String) async throws {
        let error = await #expect(throws: PrerollAdError.self) {
            try await Self.client().resolve(tag: try #require(URL(string: tag)))
        }
        #expect(error?.code == .configuration)
    }

    @Test("an ad pod plays in sequence order; the stand-alone ad beside it is not used")
    func pod() async throws {
        let base = "http://ads.invalid"
        let document = VASTSamples.document([
            VASTSamples.inlineAd(name: "standalone", base: base),
            VASTSamples.inlineAd(name: "second", base: base, sequence: 2),
            VASTSamples.inlineAd(name: "first", base: base, sequence: 1),
        ])
        let resolution = try await Self.client().resolve(document: Data(document.utf8))
        #expect(resolution.ads.map(\.id) == ["first", "second"])
        #expect(resolution.ads.map(\.sequence) == [1, 2])
        #expect(resolution.failures.isEmpty)
        #expect(resolution.errorURIs.map(Self.beaconPath) == ["/beacon/first/error", "/beacon/second/error"])
    }

    @Test("a pod ad that fails is replaced by a stand-alone ad; its failure is kept for its Error URIs")
    func podFallback() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        try server.write(VASTSamples.inline(name: "deep", base: base), to: "deep.xml")
        let broken = VASTSamples.wrapper(
            name: "broken", next: server.url("status/404").absoluteString, base: base, sequence: 2)
        let wrapped = VASTSamples.wrapper(
            name: "wrapped", next: server.url("deep.xml").absoluteString, base: base, sequence: 1)
        let document = VASTSamples.document([
            Self.adElement(of: broken), VASTSamples.inlineAd(name: "fallback", base: base), Self.adElement(of: wrapped),
        ])
        let tag = try server.write(document, to: "pod.xml")
        let resolution = try await Self.client().resolve(tag: tag)
        #expect(resolution.ads.map(\.id) == ["deep", "fallback"])
        #expect(resolution.ads.map(\.sequence) == [1, nil])
        #expect(
            resolution.ads[0].impressions.map(Self.beaconPath) == [
                "/beacon/wrapped/impression", "/beacon/deep/impression",
            ])
        #expect(resolution.failures.count == 1)
        #expect(resolution.failures.first?.error.code == .vastTimeout)
        #expect(resolution.failures.first?.errorURIs.map(Self.beaconPath) == ["/beacon/broken/error"])
    }

    @Test("with no pod, stand-alone ads are tried in order; when all fail, every failure is reported")
    func standAloneFallbacks() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        let broken = Self.adElement(
            of: VASTSamples.wrapper(name: "broken", next: server.url("status/500").absoluteString, base: base))
        let companionOnly = """
            <Ad id="companion"><InLine><AdSystem>x</AdSystem><Error>\(base)/beacon/companion/error?code=[ERRORCODE]</Error>
              <Creatives><Creative><CompanionAds><Companion width="300" height="250"/></CompanionAds></Creative></Creatives>
            </InLine></Ad>
            """
        let resolution = try await Self.client().resolve(
            document: Data(
                VASTSamples.document([broken, companionOnly, VASTSamples.inlineAd(name: "good", base: base)]).utf8))
        #expect(resolution.ads.map(\.id) == ["good"])
        #expect(resolution.failures.map(\.error.code) == [.vastTimeout, .noSupportedMediaFile])

        let failure: VASTResolutionFailure
        do {
            _ = try await Self.client().resolveReportingErrors(
                document: Data(VASTSamples.document([broken, companionOnly]).utf8))
            Issue.record("resolved")
            return
        } catch {
            failure = error
        }
        #expect(failure.error.code == .vastTimeout)
        #expect(failure.otherFailures.map(\.error.code) == [.noSupportedMediaFile])
        let beacons = BeaconSender()
        AdTracker.fireErrors(of: failure, using: beacons)
        #expect(await beacons.flush(within: .seconds(5).scaled))
        let fired = try await server.settledBeacons()
        #expect(
            Set(fired.map { "\($0.path) \($0.query["code"] ?? "")" }) == [
                "/beacon/broken/error 301", "/beacon/companion/error 403",
            ])
        #expect(fired.count == 2)
    }

    @Test("allowMultipleAds: a wrapper leads to every ad of its pod, or only the first")
    func multipleAds() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        try server.write(
            VASTSamples.document([
                VASTSamples.inlineAd(name: "p2", base: base, sequence: 2),
                VASTSamples.inlineAd(name: "p1", base: base, sequence: 1),
            ]), to: "pod.xml")
        let next = server.url("pod.xml").absoluteString
        let all = try server.write(
            VASTSamples.wrapper(name: "all", next: next, base: base, allowMultipleAds: true), to: "all.xml")
        let first = try server.write(VASTSamples.wrapper(name: "first", next: next, base: base), to: "first.xml")
        let resolution = try await Self.client().resolve(tag: all)
        #expect(resolution.ads.map(\.id) == ["p1", "p2"])
        #expect(resolution.ads.allSatisfy { $0.impressions.first.map(Self.beaconPath) == "/beacon/all/impression" })
        #expect(try await Self.client().resolve(tag: first).ads.map(\.id) == ["p1"])
    }

    @Test("followAdditionalWrappers=false: a wrapper after it is 302")
    func followAdditionalWrappers() async throws {
        let server = try await VASTTestServer()
        let base = server.baseURL
        _ = try Self.chain(1, on: server)
        let tag = try server.write(
            VASTSamples.wrapper(
                name: "strict", next: server.url("wrapper-1.xml").absoluteString, base: base,
                followAdditionalWrappers: false),
            to: "strict.xml")
        let failure = try #require(await Self.failure(Self.client(), tag: tag))
        #expect(failure.error.code == .wrapperLimitReached)
        #expect(failure.errorURIs.map(Self.beaconPath) == ["/beacon/strict/error", "/beacon/w1/error"])
        let direct = try server.write(
            VASTSamples.wrapper(
                name: "strict", next: server.url("inline.xml").absoluteString, base: base,
                followAdditionalWrappers: false),
            to: "direct.xml")
        #expect(try await Self.client().resolve(tag: direct).ads.map(\.id) == ["inline"])
    }

    @Test("a document given as data: relative wrapper URIs read against its base URL, redirects followed")
    func documentWithBase() async throws {
        let server = try await VASTTestServer()
        try server.write(VASTSamples.inline(name: "inline", base: server.baseURL), to: "inline.xml")
        let base = server.url("tags/w.xml")
        let wrapper = VASTSamples.wrapper(name: "w", next: "../redirect/inline.xml", base: server.baseURL)
        let resolution = try await Self.client().resolve(document: Data(wrapper.utf8), baseURL: base)
        #expect(resolution.ads.map(\.id) == ["inline"])
        #expect(resolution.ads.first?.documentURLs == [base, server.url("redirect/inline.xml")])
        #expect(
            try await server.settledLog().map { "\($0.uri) \($0.status)" } == [
                "/redirect/inline.xml 302", "/inline.xml 200",
            ])

        // A wrapper leading back to the document's own URL is a loop.
        let selfLoop = VASTSamples.wrapper(name: "w", next: "w.xml", base: server.baseURL)
        let error = await #expect(throws: PrerollAdError.self) {
            try await Self.client().resolve(document: Data(selfLoop.utf8), baseURL: base)
        }
        #expect(error?.code == .wrapperLimitReached)
    }

    @Test(
        "inline ads without creatives are no ad (303), with only non-linear ones 403; media that cannot play is the caller's 403"
    )
    func inlineWithoutLinear() async throws {
        // No <Creatives>, an empty one, or creatives that hold nothing: an empty InLine response,
        // told to the document's root Error and the ad's own.
        for creatives in ["", "<Creatives/>", "<Creatives><Creative id=\"c\"/></Creatives>"] {
            let none = VASTSamples.document(
                [
                    "<Ad id=\"n\"><InLine><AdSystem>x</AdSystem><Error>https://ads.invalid/n?c=[ERRORCODE]</Error>\(creatives)</InLine></Ad>"
                ],
                errors: ["https://ads.invalid/root?c=[ERRORCODE]"])
            do {
                let resolution = try await Self.client().resolveReportingErrors(document: Data(none.utf8))
                Issue.record("resolved to \(resolution.ads.map(\.id))")
            } catch {
                #expect(error.error.code == .noInventory && error.error.vastErrorCode == 303, "\(error)")
                #expect(error.error.message.contains("without any creative"))
                #expect(
                    error.errorURIs == [
                        "https://ads.invalid/root?c=[ERRORCODE]", "https://ads.invalid/n?c=[ERRORCODE]",
                    ])
            }
        }
        let nonLinear = try await Self.client().resolveReportingErrors(
            document: Data(VASTSamples.inline3().utf8))
        #expect(nonLinear.ads.count == 1)
        // inline3's media: an MP4 and a VPAID file; with MP4 unsupported nothing can play.
        #expect(
            nonLinear.ads[0].mediaFile(supportedTypes: ["video/webm"], preferredSize: nil, preferredBitrate: nil) == nil
        )
        #expect(
            nonLinear.ads[0].mediaFile(
                supportedTypes: ["video/mp4", "application/javascript"], preferredSize: nil, preferredBitrate: nil)?
                .id == "low")
    }

    /// The `<Ad>` element of a one-ad document.
    static func adElement(of document: String) -> String {
        let start = document.range(of: "<Ad ")!.lowerBound
        let end = document.range(of: "</Ad>")!.upperBound
        return String(document[start..<end])
    }
}
