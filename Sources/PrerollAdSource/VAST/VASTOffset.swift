import Foundation

/// A point in a linear ad: a `skipoffset`, or the `offset` of a `progress` tracking event.
/// VAST writes it as a clock time (`00:00:05`, `00:00:05.250`) or as a share of the ad's
/// duration (`25%`).
public enum VASTOffset: Sendable, Hashable, CustomStringConvertible {
    /// A time from the ad's start.
    case time(Duration)
    /// A percentage of the ad's duration, 0 to 100.
    case percent(Double)

    /// Reads VAST's text form: `HH:MM:SS`, `HH:MM:SS.mmm` or `n%` (`n` from 0 to 100, decimals
    /// allowed); surrounding whitespace is ignored.
    /// - Parameter text: The attribute's value.
    /// - Returns: nil when the text is neither form (VAST players ignore such an offset).
    public init?(vast text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasSuffix("%") {
            guard let value = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)), value.isFinite,
                (0...100).contains(value)
            else { return nil }
            self = .percent(value)
        } else if let time = VASTTimecode.parse(trimmed) {
            self = .time(time)
        } else {
            return nil
        }
    }

    /// The time from the ad's start this offset names, for an ad of `adDuration`.
    /// - Parameter adDuration: How long the ad is.
    /// - Returns: The time for ``time(_:)``, or `adDuration` times the percentage for
    ///   ``percent(_:)``.
    public func duration(in adDuration: Duration) -> Duration {
        switch self {
        case .time(let time): time
        case .percent(let percent): adDuration * (percent / 100)
        }
    }

    /// VAST's text form: `HH:MM:SS.mmm` or `n%`.
    public var description: String {
        switch self {
        case .time(let time): VASTTimecode.format(time)
        case .percent(let percent): "\(percent)%"
        }
    }
}
