import Foundation
import MediaEngine
import MediaTestSupport
import PrerollAdSource
import Testing

/// ``AdTracker``: which beacons go out when, each once or each time as VAST says, with their
/// macros; read back from nginx's access log (``VASTTestServer``).
@Suite("Ad tracker")
struct AdTrackerTests {
    static let asset = URL(string: "https://cdn.invalid/ads/spot 1.mp4")!

    /// A server, the ad `name` (16 s, every event, progress at 10 s and 90 %) resolved from
    /// it, and a tracker for it.
    static func tracked(_ name: String = "ad") async throws -> (VASTTestServer, ResolvedAd, AdTracker, BeaconSender) {
        let server = try await VASTTestServer()
        let tag = try server.write(VASTSamples.inline(name: name, base: server.baseURL), to: "\(name).xml")
        let ad = try #require(try await VASTClient().resolve(tag: tag).ads.first)
        let beacons = BeaconSender(userAgent: "tracker-tests")
        let tracker = AdTracker(ad: ad, mediaFileURL: asset, contentPlayhead: .zero, beacons: beacons)
        return (server, ad, tracker, beacons)
    }

    /// The beacons fired since the last call, as event names (the path's last component),
    /// once all have answered; their order within one step is not defined, so each step is
    /// compared as a sorted list.
    final class Reader: Sendable {
        let server: VASTTestServer
        let beacons: BeaconSender
        private let seen = Locked(0)

        init(_ server: VASTTestServer, _ beacons: BeaconSender) {
            self.server = server
            self.beacons = beacons
        }

        func step() async throws -> [VASTTestServer.LoggedRequest] {
            #expect(await beacons.flush(within: .seconds(5).scaled))
            let all = try await server.settledBeacons()
            let seen = self.seen.withLock { seen in
                defer { seen = all.count }
                return seen
            }
            return Array(all.dropFirst(seen))
        }

        func events() async throws -> [String] {
            try await step().map { String($0.path.split(separator: "/").last ?? "") }.sorted()
        }
    }

    @Test(
        "a whole play: impression once, quartiles and progress once each at their times, pauses each time, complete once"
    )
    func wholePlay() async throws {
        let (server, _, tracker, beacons) = try await Self.tracked()
        let reader = Reader(server, beacons)
        tracker.impression()
        tracker.impression()
        #expect(try await reader.events() == ["creativeView", "impression", "start"])
        #expect(tracker.progress(to: .seconds(1)) == [])
        #expect(tracker.progress(to: .seconds(4)) == [.firstQuartile])
        #expect(tracker.progress(to: .milliseconds(4100)) == [])
        let first = try await reader.step()
        #expect(first.map(\.path) == ["/beacon/ad/firstQuartile"])
        #expect(first.first?.query["ad"] == "00:00:04.000" && first.first?.query["media"] == "00:00:04.000")
        tracker.paused()
        tracker.resumed()
        tracker.paused()
        tracker.resumed()
        tracker.muted()
        tracker.unmuted()
        #expect(try await reader.events() == ["mute", "pause", "pause", "resume", "resume", "unmute"])
        // A jump past the midpoint, 10 s and the third quartile at once.
        #expect(tracker.progress(to: .seconds(12)) == [.midpoint, .thirdQuartile])
        #expect(tracker.progress(to: .seconds(12)) == [])
        let jumped = try await reader.step()
        #expect(
            jumped.map(\.path).sorted() == [
                "/beacon/ad/midpoint", "/beacon/ad/progress-10s", "/beacon/ad/thirdQuartile",
            ])
        #expect(jumped.allSatisfy { $0.query["ad"] == "00:00:12.000" })
        #expect(tracker.clickThrough() == URL(string: "https://advertiser.invalid/ad"))
        #expect(try await reader.events() == ["click"])
        // The end: the 90 % progress offset had not been reported; completion fires it first.
        #expect(tracker.completed() == [])
        #expect(tracker.completed() == [])
        tracker.skipped()
        tracker.closed()
        #expect(tracker.progress(to: .seconds(20)) == [])
        #expect(try await reader.events() == ["complete", "progress-90pc"])
        #expect(beacons.failures.isEmpty)
        let all = try await server.settledBeacons()
        #expect(all.count == 16)
        #expect(all.allSatisfy { $0.userAgent == "tracker-tests" && $0.status == 204 })
    }

    @Test("macros: content playhead, asset URI, cache busting and timestamp in every beacon")
    func macros() async throws {
        let (server, _, tracker, beacons) = try await Self.tracked()
        tracker.impression()
        tracker.progress(to: .milliseconds(4250))
        let reader = Reader(server, beacons)
        let fired = try await reader.step()
        #expect(fired.count == 4)
        for beacon in fired {
            #expect(beacon.query["content"] == "00:00:00.000")
            #expect(beacon.query["asset"] == Self.asset.absoluteString)
            #expect(beacon.query["cb"]?.wholeMatch(of: /\d{8}/) != nil, "\(beacon)")
            // Percent-encoded on the wire: nothing but unreserved characters and escapes.
            #expect(beacon.uri.contains("asset=https%3A%2F%2Fcdn.invalid%2Fads%2Fspot%25201.mp4"), "\(beacon.uri)")
        }
        let impression = try #require(fired.first { $0.path == "/beacon/ad/impression" })
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let timestamp = try #require(impression.query["ts"].flatMap { parser.date(from: $0) })
        #expect(abs(timestamp.timeIntervalSinceNow) < 60)
        #expect(fired.first { $0.path == "/beacon/ad/firstQuartile" }?.query["ad"] == "00:00:04.250")
    }

    @Test("the click-through's macros are replaced at each click: ad playhead, a new cache-busting number")
    func clickThroughMacros() async throws {
        let (_, resolved, _, beacons) = try await Self.tracked()
        var ad = resolved
        ad.clickThrough = " https://advertiser.invalid/landing?cb=[CACHEBUSTING]&at=[ADPLAYHEAD]&who=[UNKNOWN] "
        let tracker = AdTracker(ad: ad, mediaFileURL: Self.asset, contentPlayhead: .zero, beacons: beacons)
        tracker.impression()
        tracker.progress(to: .milliseconds(2500))
        let first = try #require(tracker.clickThrough())
        let items = URLComponents(url: first, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(first.host == "advertiser.invalid" && first.path == "/landing")
        #expect(query["cb"]?.wholeMatch(of: /\d{8}/) != nil, "\(first)")
        #expect(query["at"] == "00:00:02.500", "\(first)")
        // A macro VAST does not know stays as written (its brackets escaped in the URL).
        #expect(query["who"] == "[UNKNOWN]", "\(first)")
        // Each click is a new request for the page: a new cache-busting number (1 in 10^8 the same).
        let numbers = Set(
            (0..<3).compactMap { _ in
                tracker.clickThrough().flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
                    .queryItems?.first { $0.name == "cb" }?.value
            })
        #expect(numbers.count >= 2, "\(numbers)")
        _ = await beacons.flush(within: .seconds(5).scaled)
    }

    @Test("progress reported late fires every quartile at once, in order, and returns them")
    func late() async throws {
        let (server, _, tracker, beacons) = try await Self.tracked()
        tracker.impression()
        #expect(tracker.progress(to: .seconds(15)) == [.firstQuartile, .midpoint, .thirdQuartile])
        #expect(tracker.progress(to: .seconds(16)) == [])
        let events = try await Reader(server, beacons).events()
        #expect(
            events == [
                "creativeView", "firstQuartile", "impression", "midpoint", "progress-10s", "progress-90pc", "start",
                "thirdQuartile",
            ])
    }

    @Test("a skip ends the ad: no quartiles after it, no complete")
    func skip() async throws {
        let (server, _, tracker, beacons) = try await Self.tracked()
        let reader = Reader(server, beacons)
        tracker.impression()
        tracker.progress(to: .seconds(6))
        #expect(try await reader.events() == ["creativeView", "firstQuartile", "impression", "start"])
        tracker.skipped()
        tracker.skipped()
        #expect(tracker.progress(to: .seconds(13)) == [])
        #expect(tracker.completed() == [])
        tracker.closed()
        let skipped = try await reader.step()
        #expect(skipped.map(\.path) == ["/beacon/ad/skip"])
        #expect(skipped.first?.query["ad"] == "00:00:06.000")
    }

    @Test("a close fires close and closeLinear once, and no complete")
    func close() async throws {
        let (server, _, tracker, beacons) = try await Self.tracked()
        tracker.progress(to: .seconds(2))
        tracker.closed()
        tracker.closed()
        tracker.completed()
        #expect(try await Reader(server, beacons).events() == ["close", "closeLinear"])
    }

    @Test("errors: once, with the error's code; none for errors VAST has no code for")
    func errors() async throws {
        let (server, _, tracker, beacons) = try await Self.tracked()
        tracker.failed(PrerollAdError(.cancelled, "stopped"))
        tracker.failed(PrerollAdError(.frequencyCapExceeded, "capped"))
        tracker.progress(to: .seconds(3))
        tracker.failed(PrerollAdError(.noSupportedMediaFile, "no MP4"))
        tracker.failed(PrerollAdError(.playbackFailed, "decoder"))
        let fired = try await Reader(server, beacons).step()
        #expect(fired.map(\.path) == ["/beacon/ad/error"])
        #expect(fired.first?.query["code"] == "403")
        #expect(fired.first?.query["ad"] == "00:00:03.000")
        // Unknown macros are left as they are (their brackets percent-encoded on the wire).
        #expect(fired.first?.query["unknown"] == "[PLAYERSTATE]", "\(fired.first?.uri ?? "")")
    }

    @Test("the real duration, when the player knows it, sets the quartiles")
    func realDuration() async throws {
        let server = try await VASTTestServer()
        let tag = try server.write(VASTSamples.inline(name: "ad", base: server.baseURL), to: "ad.xml")
        let ad = try #require(try await VASTClient().resolve(tag: tag).ads.first)
        let beacons = BeaconSender()
        let tracker = AdTracker(
            ad: ad, mediaFileURL: nil, contentPlayhead: nil, adDuration: .seconds(8), beacons: beacons)
        #expect(tracker.progress(to: .seconds(4)) == [.firstQuartile, .midpoint])
        let fired = try await Reader(server, beacons).step()
        #expect(fired.count == 2)
        #expect(fired.allSatisfy { $0.query["asset"] == "-1" && $0.query["content"] == "-1" })
        // Without any duration, no quartile.
        let unknown = AdTracker(
            ad: ResolvedAd(tracking: ad.tracking), mediaFileURL: nil, adDuration: nil, beacons: BeaconSender())
        #expect(unknown.progress(to: .seconds(100)) == [])
    }
}
