internal import CMediaEngineCGStreamer

/// Conversions between `Duration`, GStreamer clock times and seconds as numbers. Every one of
/// them saturates or fails instead of trapping: times come from files, servers and strings.
extension Duration {
    /// The latest time the engine hands GStreamer as a clock time: 2^63 - 1 nanoseconds, about
    /// 292 years (a `Duration` of nanoseconds counts in a signed 64-bit integer).
    static let latestClockTime: Duration = .nanoseconds(Int64.max)

    /// A GStreamer clock time (nanoseconds) as a `Duration`; nil for `GST_CLOCK_TIME_NONE`.
    init?(clockTime: GstClockTime) {
        guard clockTime != clockTimeNone else { return nil }
        self = .nanoseconds(Int64(clamping: clockTime))
    }

    /// Seconds as a `Duration`, rounded to the nanosecond; nil for NaN, infinities and values a
    /// 64-bit count of nanoseconds cannot hold (about ±292 years).
    init?(checkedSeconds seconds: Double) {
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds.isFinite, let exact = Int64(exactly: nanoseconds) else { return nil }
        self = .nanoseconds(exact)
    }

    /// The duration in seconds, as a `Double` (`Duration.milliseconds(1500).inSeconds` is 1.5):
    /// for arithmetic, timers and printing. Within a nanosecond for anything under about 104 days
    /// (2^53 nanoseconds); longer durations round to `Double`'s precision.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in nanoseconds, clamped to GStreamer's clock-time range.
    var clockTime: GstClockTime {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if seconds < 0 { return 0 }
        if nanoseconds.overflow { return clockTimeNone - 1 }
        let (sum, overflow) = GstClockTime(nanoseconds.partialValue).addingReportingOverflow(
            GstClockTime(attoseconds / 1_000_000_000))
        return overflow || sum == clockTimeNone ? clockTimeNone - 1 : sum
    }

    /// Seconds with three decimals, for messages: `1.234 s`. Durations too long for a count of
    /// milliseconds in 64 bits print their whole seconds only.
    var formattedSeconds: String {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (milliseconds, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        guard !overflow, !sumOverflow, milliseconds != .min else { return "\(seconds) s" }
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = abs(milliseconds)
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }

    /// The duration in seconds, exact to the nanosecond, as Swift writes durations:
    /// `10.000333333 seconds` where `Duration`'s own description, going through a `Double`,
    /// writes `10.000333332999999 seconds`.
    var exactDescription: String {
        let (seconds, attoseconds) = components
        let negative = seconds < 0 || attoseconds < 0
        let wholeSeconds = seconds.magnitude
        let nanoseconds = (attoseconds / 1_000_000_000).magnitude
        var fraction = String(nanoseconds)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(negative ? "-" : "")\(wholeSeconds).\(fraction) seconds"
    }
}
