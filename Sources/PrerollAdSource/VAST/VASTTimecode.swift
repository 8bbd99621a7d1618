import Foundation

/// VAST's clock times, `HH:MM:SS` or `HH:MM:SS.mmm` (Duration, skipoffset, progress offsets,
/// and the playhead macros).
enum VASTTimecode {
    /// The duration `text` names, or nil when it is not `HH:MM:SS(.fraction)` (hours may have
    /// any number of digits; minutes and seconds are below 60; surrounding whitespace is ignored).
    static func parse(_ text: String) -> Duration? {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), hours >= 0,
            (0..<60).contains(minutes)
        else { return nil }
        let secondsParts = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(secondsParts.count), secondsParts[0].count == 2,
            secondsParts[0].allSatisfy(\.isASCII), let seconds = Int(secondsParts[0]), (0..<60).contains(seconds)
        else { return nil }
        var milliseconds = 0
        if secondsParts.count == 2 {
            // Any number of fraction digits; the first three are milliseconds.
            let fraction = secondsParts[1]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            milliseconds = Int(String(fraction.prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
        }
        // Hours of any number of digits: a time past Int.max seconds is not a time.
        let (hourSeconds, overflow) = hours.multipliedReportingOverflow(by: 3600)
        guard !overflow, hourSeconds <= Int.max - 3599 else { return nil }
        return .seconds(hourSeconds + minutes * 60 + seconds) + .milliseconds(milliseconds)
    }

    /// `HH:MM:SS.mmm` for a playhead (negative durations are written as zero, durations past
    /// Int64.max milliseconds as that many).
    static func format(_ duration: Duration) -> String {
        // Whole milliseconds, clamped: a duration of more than Int64.max milliseconds (a
        // document may say so) is written as that many.
        let (scaled, overflowed) = duration.components.seconds.multipliedReportingOverflow(by: 1000)
        let (sum, summedOver) = scaled.addingReportingOverflow(
            duration.components.attoseconds / 1_000_000_000_000_000)
        let totalMilliseconds = overflowed || summedOver ? (duration < .zero ? 0 : Int64.max) : max(0, sum)
        let milliseconds = totalMilliseconds % 1000
        let totalSeconds = totalMilliseconds / 1000
        let text = [totalSeconds / 3600, totalSeconds / 60 % 60, totalSeconds % 60].map {
            $0 < 10 ? "0\($0)" : "\($0)"
        }.joined(separator: ":")
        let fraction = String(milliseconds)
        return text + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
