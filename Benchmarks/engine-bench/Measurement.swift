import Foundation

/// One figure the benchmark reports, with the peer's figure from the same run when there is one.
struct Measurement {
    let benchmark: String
    let metric: String
    let value: Double
    let unit: String
    /// The peer's value for the same metric (gst-launch-1.0, plain playbin, ffmpeg), or nil.
    let baseline: Double?
    /// Our speed divided by the peer's: above 1 means we are faster. Nil without a baseline.
    let ratio: Double?

    init(
        _ benchmark: String, _ metric: String, _ value: Double, _ unit: String, baseline: Double? = nil,
        ratio: Double? = nil
    ) {
        self.benchmark = benchmark
        self.metric = metric
        self.value = value
        self.unit = unit
        self.baseline = baseline
        self.ratio = ratio
    }

    /// `{"benchmark": ..., "metric": ..., "value": ..., "unit": ..., "baseline": ..., "ratio": ...}`.
    var json: String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return String(format: "%.4f", value)
        }
        return """
            {"benchmark": "\(benchmark)", "metric": "\(metric)", "value": \(number(value)), "unit": "\(unit)", \
            "baseline": \(number(baseline)), "ratio": \(number(ratio))}
            """
    }

    /// One aligned line for people.
    var line: String {
        let base = baseline.map { String(format: "  peer %10.2f", $0) } ?? String(repeating: " ", count: 17)
        let ratioText = ratio.map { String(format: "  ratio %.3fx", $0) } ?? ""
        return String(format: "%-8@ %-22@ %10.2f %-6@", benchmark, metric, value, unit) + base + ratioText
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    /// The duration in milliseconds.
    var milliseconds: Double { seconds * 1000 }
}

extension Array where Element == Double {
    /// The value below which `fraction` of the values lie (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        let sorted = self.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }

    /// The middle value.
    var median: Double { percentile(0.5) }
}
