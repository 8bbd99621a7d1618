import Foundation
import MediaEngine
import MediaTestSupport
import PrerollAdSource
import Testing

/// ``BeaconSender``: beacons that fail are recorded, the caller never waits, and a flush is
/// bounded.
@Suite("Beacon sender")
struct BeaconSenderTests {
    @Test("failures are recorded and reported: an error status, a refused connection, a template that is no URL")
    func failures() async throws {
        let server = try await VASTTestServer()
        let reported = Locked<[BeaconSender.Failure]>([])
        let beacons = BeaconSender { failure in reported.withLock { $0.append(failure) } }
        beacons.fire([server.url("beacon/ok"), server.url("status/500")], event: "impression")
        beacons.fire([URL(string: "http://127.0.0.1:1/beacon")!], event: "start")
        beacons.fire([URL(string: "file:///etc/passwd")!], event: "start")
        beacons.fire(
            templates: ["  javascript:void(0)  ", "\(server.baseURL)/beacon/t?c=[ERRORCODE]"], event: "error",
            macros: VASTMacros(errorCode: 405))
        #expect(await beacons.flush(within: .seconds(5).scaled))
        #expect(beacons.pendingCount == 0)
        #expect(beacons.sentCount == 4)
        let failures = beacons.failures
        #expect(failures.count == 4)
        #expect(Set(reported.withLock { $0 }) == Set(failures))
        #expect(
            failures.contains { $0.event == "impression" && $0.status == 500 && $0.url == server.url("status/500") })
        #expect(failures.contains { $0.event == "start" && $0.status == nil && $0.url?.port == 1 })
        #expect(failures.contains { $0.event == "start" && $0.url?.scheme == "file" })
        #expect(failures.contains { $0.event == "error" && $0.url == nil && $0.template == "  javascript:void(0)  " })
        let fired = try await server.settledBeacons()
        #expect(Set(fired.map(\.uri)) == ["/beacon/ok", "/beacon/t?c=405"])
    }

    @Test("firing never waits for a server that does not answer; a flush gives up at its limit")
    func boundedFlush() async throws {
        let server = try FaultInjectingServer(serving: Data(), fault: .neverAnswer)
        defer { server.stop() }
        let beacons = BeaconSender(timeout: .seconds(30))
        let clock = ContinuousClock()
        let start = clock.now
        beacons.fire((0..<5).map { URL(string: server.url("beacon/\($0)"))! }, event: "impression")
        let fired = clock.now - start
        #expect(fired < .milliseconds(500).scaled, "\(fired)")
        _ = try await withDeadline(.seconds(5), "the requests") { await server.requests(atLeast: 5) }
        #expect(beacons.pendingCount == 5)
        let flushStart = clock.now
        #expect(await beacons.flush(within: .milliseconds(300)) == false)
        let flushed = clock.now - flushStart
        #expect(flushed >= .milliseconds(300) && flushed < .seconds(3).scaled, "\(flushed)")
        // Once the server goes away, the beacons fail and a flush returns at once.
        server.stop()
        #expect(await beacons.flush(within: .seconds(10).scaled))
        #expect(beacons.failures.count == 5)
    }

    @Test("a flush with nothing in flight returns at once")
    func idleFlush() async {
        let beacons = BeaconSender()
        let clock = ContinuousClock()
        let start = clock.now
        #expect(await beacons.flush(within: .seconds(10)))
        #expect(clock.now - start < .seconds(2).scaled)
    }
}
