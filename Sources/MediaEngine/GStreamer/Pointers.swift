internal import CGStreamer

/// Reinterprets a pointer to one GObject/GstMiniObject struct as a pointer to another
/// (the C casts `GST_BIN (element)`, `GST_OBJECT (pad)` and friends).
@inline(__always)
func gcast<From, To>(_ pointer: UnsafeMutablePointer<From>, to: To.Type = To.self) -> UnsafeMutablePointer<To> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
}

/// Takes ownership of a C string GLib allocated (`g_free`s it) and returns it as a Swift string.
func takeGString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// `GST_CLOCK_TIME_NONE`, which does not import.
let clockTimeNone: GstClockTime = .max

extension Duration {
    /// A GStreamer clock time (nanoseconds) as a `Duration`; nil for `GST_CLOCK_TIME_NONE`.
    init?(clockTime: GstClockTime) {
        guard clockTime != clockTimeNone else { return nil }
        self = .nanoseconds(Int64(clamping: clockTime))
    }

    /// The duration in seconds.
    var secondsValue: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in nanoseconds, clamped to GStreamer's clock-time range.
    var clockTime: GstClockTime {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if seconds < 0 { return 0 }
        if nanoseconds.overflow { return clockTimeNone - 1 }
        return GstClockTime(nanoseconds.partialValue) + GstClockTime(attoseconds / 1_000_000_000)
    }
}
