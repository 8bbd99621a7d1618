import Foundation
import Testing

@testable import MediaEngineCore

/// The access and error logs, replayed with made-up times: no pipeline, no clock.
@Suite("Network logs")
struct NetworkLogRecorderTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    @Test("watched time counts only playing; a stall is interrupted after playing, not waiting to start")
    func watchedAndStalls() {
        var log = NetworkLogRecorder()
        #expect(log.sessionBegan(id: "p-1", uri: "http://u:pw@h/m.mp4") == [.accessLogChanged])
        _ = log.observe([.playbackStateChanged(.interrupted)], at: at(0))  // waiting to start
        _ = log.observe([.playbackStateChanged(.playing)], at: at(1))
        _ = log.observe([.playbackStateChanged(.interrupted)], at: at(3))  // a stall
        _ = log.observe([.playbackStateChanged(.playing)], at: at(4))
        _ = log.observe([.playbackStateChanged(.paused)], at: at(5))
        _ = log.observe([.playbackStateChanged(.playing)], at: at(10))
        var entry = log.accessLog(at: at(10.5)).events[0]
        #expect(entry.uri == "http://h/m.mp4")
        #expect(entry.numberOfStalls == 1)
        #expect(entry.durationWatched == .milliseconds(3500))
        #expect(entry.playbackStartDate == at(1))
        #expect(log.observe([.playbackDidFinish(.playbackEnded, nil)], at: at(11)) == [.accessLogChanged])
        log.sessionEnded(at: at(12))
        entry = log.accessLog(at: at(20)).events[0]
        #expect(entry.durationWatched == .seconds(4))
    }

    @Test("error statuses and errors that end playback are logged once each, with no credential")
    func errors() {
        var log = NetworkLogRecorder()
        _ = log.sessionBegan(id: "p-1", uri: "http://h/m.mp4")
        let answered = log.responseArrived(
            HTTPResponse(uri: "http://u:pw@h/m.mp4", statusCode: 404), at: at(1))
        #expect(answered.count == 1)
        // The error that follows carries the status: not logged twice.
        let notFound = MediaError(.fileNotFound, "gone", httpStatusCode: 404)
        #expect(log.observe([.playbackDidFinish(.playbackError, notFound)], at: at(1)) == [.accessLogChanged])
        // A failed connection is logged by its error.
        _ = log.sessionBegan(id: "p-2", uri: "http://h/m.mp4")
        #expect(log.responseArrived(HTTPResponse(uri: "http://h/m.mp4", statusCode: 0), at: at(2)).isEmpty)
        let refused = MediaError(.connectionRefused, "h refused the connection at http://u:pw@h/")
        #expect(log.observe([.playbackDidFinish(.playbackError, refused)], at: at(2)).count == 2)
        let errors = log.errorLog.events
        #expect(errors.map(\.statusCode) == [404, nil])
        #expect(errors.map(\.domain) == ["HTTP", "MediaEngine"])
        #expect(errors.allSatisfy { !"\($0)".contains("pw") })
        let text = log.errorLog.extendedLogFileFormat
        #expect(text.hasPrefix("#Version: 1.0\n#Software: swift-media-engine error log\n#Fields: date\ttime\ts-ip"))
        #expect(text.split(separator: "\n").count == 5)
        #expect(text.contains("\t404\t\"HTTP\"\t\"HTTP 404\""))
    }

    @Test("the indicated bitrate: the container's tag, else the announced size over the duration")
    func indicatedBitrate() {
        var log = NetworkLogRecorder()
        _ = log.sessionBegan(id: "p-1", uri: "http://h/m.mp4")
        _ = log.responseArrived(
            HTTPResponse(uri: "http://h/m.mp4", statusCode: 200, headers: ["Content-Length": "250000"]), at: at(0))
        log.movieKnown(duration: .seconds(2), tags: [:])
        #expect(log.accessLog(at: at(1)).events[0].indicatedBitrate == 1_000_000)
        #expect(log.accessLog(at: at(1)).events[0].numberOfMediaRequests == 1)
        _ = log.sessionBegan(id: "p-2", uri: "http://h/m.mp4")
        log.movieKnown(duration: .seconds(2), tags: ["bitrate": "64000"])
        #expect(log.accessLog(at: at(1)).events[1].indicatedBitrate == 64000)
    }

    @Test("a variant switch ends the entry and begins the variant's, counting bytes and segments apart")
    func variantSwitches() {
        var log = NetworkLogRecorder()
        _ = log.sessionBegan(id: "p-1", uri: "http://h/master.m3u8")
        let first = VariantSwitch(uri: "http://h/low.m3u8", indicatedBitrate: 350_000)
        #expect(log.observe([.variantSwitched(first)], at: at(0)).isEmpty, "the start variant completes the entry")
        _ = log.observe([.playbackStateChanged(.playing)], at: at(1))
        log.segmentDownloaded()
        log.transferred(bytes: 100_000, seconds: 1)
        let higher = VariantSwitch(uri: "http://h/high.m3u8", indicatedBitrate: 3_300_000)
        #expect(log.observe([.variantSwitched(higher)], at: at(3)) == [.accessLogChanged])
        log.segmentDownloaded()
        log.segmentDownloaded()
        log.transferred(bytes: 900_000, seconds: 3)
        let entries = log.accessLog(at: at(4)).events
        #expect(entries.count == 2)
        #expect(entries.map(\.indicatedBitrate) == [350_000, 3_300_000])
        #expect(entries.map(\.segmentsDownloaded) == [1, 2])
        #expect(entries.map(\.bytesTransferred) == [100_000, 800_000])
        #expect(entries.map(\.durationWatched) == [.seconds(2), .seconds(1)])
        #expect(entries.allSatisfy { $0.playbackSessionID == "p-1" })
        #expect(entries[1].uri == "http://h/high.m3u8" && entries[1].playbackStartDate == at(3))
    }

    @Test("the W3C text quotes URIs and comments, doubles quotes, and writes - for the unknown")
    func extendedFormat() {
        var event = AccessLogEvent(playbackSessionID: "p-1", uri: "http://h/a \"b\".mp4")
        event.bytesTransferred = 1234
        let text = AccessLog(events: [event]).extendedLogFileFormat
        let row = text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(row.hasPrefix("-\t-\t-\t\"http://h/a \"\"b\"\".mp4\"\t\"p-1\"\t0.000\t0\t1234\t-\t-\t0\t0\t0"))
    }
}
