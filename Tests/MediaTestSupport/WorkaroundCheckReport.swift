import Foundation

/// What `engine-workaround-check` (Tests/WorkaroundCheck) measured in one run of a scenario: one
/// JSON line on its standard output, written by the child and read by WorkaroundReproductionTests.
public struct WorkaroundCheckReport: Codable, Sendable, CustomStringConvertible {
    /// One measurement: a number, a flag, a text or a list of numbers.
    public enum Value: Codable, Sendable, Equatable, CustomStringConvertible {
        /// A yes or no: whether a frame came, say. JSON `true` or `false`.
        case flag(Bool)
        /// A count or a time in seconds. A JSON number.
        case number(Double)
        /// A state's or an error's name. A JSON string.
        case text(String)
        /// Times or positions, in order. A JSON array of numbers.
        case numbers([Double])

        /// The value in the JSON a report was written with: a boolean, number, array of numbers or
        /// string, tried in that order.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let numbers = try? container.decode([Double].self) {
                self = .numbers(numbers)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        /// The value as bare JSON (`true`, `1.5`, `"text"`, `[1, 2]`), with no case name around it.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .flag(let flag): try container.encode(flag)
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            case .numbers(let numbers): try container.encode(numbers)
            }
        }

        /// The value as the failure messages show it: the number or flag as it is, text quoted.
        public var description: String {
            switch self {
            case .flag(let flag): "\(flag)"
            case .number(let number): "\(number)"
            case .text(let text): text.debugDescription
            case .numbers(let numbers): "\(numbers)"
            }
        }
    }

    /// The scenario, named after its workaround (`gapless-eos`).
    public var scenario: String
    /// Whether the registry said the workaround was on in the child (`MEDIA_ENGINE_WORKAROUNDS`).
    public var active: Bool
    /// The scenario did not finish within its own limit: the child's watchdog wrote what had
    /// been measured so far and ended the process (a deadlock, say).
    public var hung: Bool
    /// Seconds from the scenario's start to this report.
    public var seconds: Double
    /// What the scenario measured, by name.
    public var values: [String: Value]

    /// A report with nothing measured yet.
    public init(scenario: String, active: Bool) {
        self.scenario = scenario
        self.active = active
        hung = false
        seconds = 0
        values = [:]
    }

    /// The number measured as `name`; nil when there is none.
    public func number(_ name: String) -> Double? {
        if case .number(let number) = values[name] { return number }
        return nil
    }

    /// The flag measured as `name`; nil when there is none.
    public func flag(_ name: String) -> Bool? {
        if case .flag(let flag) = values[name] { return flag }
        return nil
    }

    /// The text measured as `name`; nil when there is none.
    public func text(_ name: String) -> String? {
        if case .text(let text) = values[name] { return text }
        return nil
    }

    /// The numbers measured as `name`; nil when there are none.
    public func numbers(_ name: String) -> [Double]? {
        if case .numbers(let numbers) = values[name] { return numbers }
        return nil
    }

    /// The report as its JSON line (keys sorted), without the line's end.
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The report in the last line of `output` that holds one; nil when no line does.
    public static func parse(_ output: String) -> WorkaroundCheckReport? {
        output.split(separator: "\n").reversed().lazy.compactMap { line in
            try? JSONDecoder().decode(WorkaroundCheckReport.self, from: Data(line.utf8))
        }.first
    }

    /// One line for a test's failure message: `gapless-eos off HUNG after 5.0 s: frames=12.0 ...`,
    /// the values in name order.
    public var description: String {
        let measured = values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " ")
        return "\(scenario) \(active ? "on" : "off")\(hung ? " HUNG" : "") after \(seconds) s: \(measured)"
    }
}
