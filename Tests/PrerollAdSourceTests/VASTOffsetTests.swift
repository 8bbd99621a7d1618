import Foundation
import PrerollAdSource
import Testing

/// Skip offsets and progress offsets: VAST's clock times and percentages.
@Suite("VAST offsets")
struct VASTOffsetTests {
    @Test("clock times, with and without milliseconds, and percentages")
    func parses() {
        #expect(VASTOffset(vast: "00:00:05") == .time(.seconds(5)))
        #expect(VASTOffset(vast: " 01:02:03.250 ") == .time(.seconds(3723) + .milliseconds(250)))
        #expect(VASTOffset(vast: "00:00:07.5") == .time(.milliseconds(7500)))
        #expect(VASTOffset(vast: "00:00:00.1234") == .time(.milliseconds(123)))
        #expect(VASTOffset(vast: "25%") == .percent(25))
        #expect(VASTOffset(vast: "12.5%") == .percent(12.5))
        for bad in ["", "5", "00:05", "00:60:00", "00:00:61", "aa:bb:cc", "101%", "-1%", "%", "00:00:05.", "0:0:5"] {
            #expect(VASTOffset(vast: bad) == nil, "\(bad)")
        }
    }

    @Test("the duration an offset names for an ad's duration")
    func durations() {
        #expect(VASTOffset.time(.seconds(5)).duration(in: .seconds(30)) == .seconds(5))
        #expect(VASTOffset.percent(25).duration(in: .seconds(30)) == .milliseconds(7500))
        #expect(VASTOffset.percent(100).duration(in: .seconds(16)) == .seconds(16))
        #expect(VASTOffset.time(.milliseconds(61_001)).description == "00:01:01.001")
    }

    @Test("a resolved ad's skip time: a time offset as is, a percentage of its duration, none without")
    func skipTime() {
        #expect(ResolvedAd(duration: .seconds(20), skipOffset: .percent(25)).skipTime == .seconds(5))
        #expect(ResolvedAd(duration: nil, skipOffset: .percent(25)).skipTime == nil)
        #expect(ResolvedAd(duration: nil, skipOffset: .time(.seconds(6))).skipTime == .seconds(6))
        #expect(ResolvedAd(duration: .seconds(20)).skipTime == nil)
    }
}
