import Foundation

/// A player's access log (MPMovieAccessLog): its entries, oldest first, and the W3C Extended
/// Log File Format text MPMovieAccessLog calls `extendedLogData`.
public struct AccessLog: Sendable, Hashable {
    /// The entries, oldest first.
    public var events: [AccessLogEvent]

    /// Creates a log.
    public init(events: [AccessLogEvent] = []) { self.events = events }

    /// The log as W3C Extended Log File Format text (`#Version`, `#Fields`, one line per entry,
    /// fields separated by tabs, `-` for an unknown value, text quoted).
    public var extendedLogFileFormat: String {
        ExtendedLogFormat.text(
            software: "swift-media-engine access log",
            fields: [
                "date", "time", "s-ip", "cs-uri", "c-playback-session-id", "c-duration-watched",
                "c-stalls", "sc-bytes", "c-observed-bitrate", "sc-indicated-bitrate", "c-frames-dropped",
                "c-requests", "c-segments-downloaded",
            ],
            rows: events.map { event in
                let (date, time) = ExtendedLogFormat.dateAndTime(event.playbackStartDate)
                return [
                    date, time, event.serverAddress ?? "-", ExtendedLogFormat.quoted(event.uri),
                    ExtendedLogFormat.quoted(event.playbackSessionID),
                    String(format: "%.3f", event.durationWatched.inSeconds), "\(event.numberOfStalls)",
                    "\(event.bytesTransferred)", event.observedBitrate.map { String(format: "%.0f", $0) } ?? "-",
                    event.indicatedBitrate.map { String(format: "%.0f", $0) } ?? "-", "\(event.droppedVideoFrames)",
                    "\(event.numberOfMediaRequests)", "\(event.segmentsDownloaded)",
                ]
            })
    }
}

/// A player's error log (MPMovieErrorLog): its entries, oldest first, and the W3C Extended Log
/// File Format text.
public struct ErrorLog: Sendable, Hashable {
    /// The entries, oldest first.
    public var events: [ErrorLogEvent]

    /// Creates a log.
    public init(events: [ErrorLogEvent] = []) { self.events = events }

    /// The log as W3C Extended Log File Format text.
    public var extendedLogFileFormat: String {
        ExtendedLogFormat.text(
            software: "swift-media-engine error log",
            fields: ["date", "time", "s-ip", "cs-uri", "c-playback-session-id", "sc-status", "x-domain", "x-comment"],
            rows: events.map { event in
                let (date, time) = ExtendedLogFormat.dateAndTime(event.date)
                return [
                    date, time, event.serverAddress ?? "-", ExtendedLogFormat.quoted(event.uri),
                    ExtendedLogFormat.quoted(event.playbackSessionID), event.statusCode.map(String.init) ?? "-",
                    ExtendedLogFormat.quoted(event.domain), ExtendedLogFormat.quoted(event.comment),
                ]
            })
    }
}

/// W3C Extended Log File Format (https://www.w3.org/TR/WD-logfile.html) as the access and
/// error logs write it.
enum ExtendedLogFormat {
    static func text(software: String, fields: [String], rows: [[String]]) -> String {
        var lines = ["#Version: 1.0", "#Software: \(software)", "#Fields: " + fields.joined(separator: "\t")]
        lines += rows.map { $0.joined(separator: "\t") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `"text"`, with quotes doubled and line breaks and tabs turned into spaces.
    static func quoted(_ text: String) -> String {
        let cleaned = text.map { $0.isNewline || $0 == "\t" ? " " : String($0) }.joined()
        return "\"" + cleaned.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `yyyy-MM-dd` and `HH:mm:ss.SSS` in UTC, or `-` for both.
    static func dateAndTime(_ date: Date?) -> (String, String) {
        guard let date else { return ("-", "-") }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let day = formatter.string(from: date)
        formatter.dateFormat = "HH:mm:ss.SSS"
        return (day, formatter.string(from: date))
    }
}
