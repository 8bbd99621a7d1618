import Foundation
import MediaEngine
import MediaTestSupport
import PrerollAdSource
import Testing

/// Cancelling resolutions while their connections fail: FoundationNetworking's own
/// `URLSession.data(for:)` deadlocks there (swift-corelibs-foundation#5412, in this toolchain):
/// the cancelling thread holds the task's lock and waits for the session's queue, which waits
/// for the task's lock to resume it. Seen in a `make stress` run, where it held both of Swift's
/// cooperative threads and so stopped every test of the process for 18 minutes.
@Suite("VAST client cancellation")
struct VASTClientCancellationTests {
    @Test("resolutions cancelled while their connections are refused end cancelled or 301, and never deadlock")
    func cancelledWhileRefused() async throws {
        // A deadlock holds the cooperative threads a deadline would need, so a thread of its own
        // watches: if the rounds have not ended in time, it ends the process with the reason.
        let watchdog = ProcessWatchdog(
            limit: .seconds(90).scaled,
            reason: "VASTClient deadlocked: resolutions cancelled while their connections failed never ended")
        defer { watchdog.disarm() }
        let port = try LoopbackPorts.freeTCP()[0]
        let refused = URL(string: "http://127.0.0.1:\(port)/vast.xml")!
        let client = VASTClient(timeout: .seconds(5))
        var outcomes: [PrerollAdError.Code: Int] = [:]
        for _ in 0..<40 {
            let codes = await withTaskGroup(of: PrerollAdError.Code.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        do throws(PrerollAdError) {
                            _ = try await client.resolve(tag: refused)
                            return .configuration  // not expected: nothing listens
                        } catch {
                            return error.code
                        }
                    }
                }
                // Cancel the rest as soon as the first refusal has ended its resolution: the
                // others' refusals are arriving at that moment.
                var codes: [PrerollAdError.Code] = []
                if let first = await group.next() { codes.append(first) }
                group.cancelAll()
                for await code in group { codes.append(code) }
                return codes
            }
            for code in codes { outcomes[code, default: 0] += 1 }
        }
        #expect(Set(outcomes.keys).isSubset(of: [.cancelled, .vastTimeout]), "\(outcomes)")
        #expect(outcomes.values.reduce(0, +) == 40 * 40)
        // The rounds did cancel transfers that were still running.
        #expect(outcomes[.cancelled, default: 0] > 0, "\(outcomes)")
    }

    @Test("a resolution cancelled before it starts ends cancelled at once, and its client still works")
    func cancelledBeforeStart() async throws {
        let server = try FaultInjectingServer(serving: Data(), fault: .neverAnswer)
        defer { server.stop() }
        let client = VASTClient(timeout: .seconds(30))
        let tag = URL(string: server.url("vast.xml"))!
        let result = try await withDeadline(.seconds(5), "the resolution cancelled first") {
            await withTaskGroup(of: Result<VASTResolution, PrerollAdError>.self) { group in
                group.cancelAll()  // the child starts cancelled
                group.addTask {
                    do throws(PrerollAdError) {
                        return .success(try await client.resolve(tag: tag))
                    } catch {
                        return .failure(error)
                    }
                }
                return await group.next()!
            }
        }
        #expect(throws: PrerollAdError(.cancelled, "the ad was cancelled while \(tag.absoluteString) was fetched")) {
            try result.get()
        }
        // The same client resolves a document afterwards.
        let resolution = try await client.resolve(document: Data(VASTSamples.inline2().utf8))
        #expect(resolution.ads.count == 1)
    }
}

/// Ends the process with `reason` unless disarmed within `limit`: for a test whose failure is a
/// deadlock of Swift's cooperative threads, which no deadline running on them can report.
final class ProcessWatchdog: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(limit: Duration, reason: String) {
        let done = done
        Thread {
            if done.wait(timeout: .now() + limit.inSeconds) == .timedOut {
                FileHandle.standardError.write(Data("\n\(reason) (after \(limit))\n".utf8))
                abort()
            }
        }.start()
    }

    func disarm() { done.signal() }
}
