import Foundation
import MediaEngineCore

/// What travels between the members of a playback group, over the app's channel
/// (``PlaybackGroupTransport``) or the default one (``PlaybackGroupTCPTransport``).
///
/// ## Wire format, version 1
///
/// One JSON object per message (UTF-8), with `"v": 1` and a `"type"`; times and durations are
/// whole nanoseconds (the group clock's readings, the movie's positions), rates numbers. The
/// default transport sends each as one line (ended by `\n`, at most ``maximumSize`` bytes).
///
/// ```
/// {"type":"hello","member":"a1b2","v":1}
/// {"type":"request","member":"a1b2","command":{"action":"pause","position":1500000000,"time":9812300000000,"rate":0,"seek":"exact"},"v":1}
/// {"type":"command","sequence":7,"command":{"action":"play","position":0,"time":9812600000000,"rate":1,"seek":"exact"},"v":1}
/// {"type":"state","sequence":7,"latency":0,"command":{...},"v":1}
/// {"type":"report","member":"a1b2","report":"tooSlow","framesDropped":12,"within":2000000000,"v":1}
/// ```
///
/// - `hello`: a member joined (or came back): the leader answers with its `state`.
/// - `request`: a member asks the leader to issue a command.
/// - `command`: the leader's command number `sequence` (from 1, one more each time), for every
///   member; a member applies only commands newer than the last it applied.
/// - `state`: the leader's latest command and its number, and the members' pipeline `latency`;
///   sent to members that say hello, and every few seconds to all (`command` absent: none yet).
/// - `report`: a member's news: `tooSlow` (with `framesDropped` and `within`), `timeSourceLost`,
///   `timeSourceRestored`.
/// - A command's `action` is `play`, `pause`, `seek`, `rate` or `stop`; `seek` is `exact` or
///   `keyframe`.
///
/// Decoding refuses what it does not understand, typed: a version other than 1 or an unknown
/// `type`, `action`, `report` or `seek` is `MediaError.Code.unsupportedGroupMessage`
/// (a newer member's; never guessed at); bytes that are not such an object, or a field missing or
/// of the wrong type, `MediaError.Code.invalidGroupMessage`.
public enum PlaybackGroupMessage: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A member joined, or came back: the leader answers with its state.
    case hello(member: String)
    /// The leader's latest command, its number and the members' latency.
    case state(PlaybackGroupState)
    /// A member asks the leader to issue `command`.
    case request(member: String, PlaybackGroupCommand)
    /// The leader's command number `sequence`, for every member.
    case command(sequence: Int, PlaybackGroupCommand)
    /// A member's news.
    case report(member: String, PlaybackGroupReport)

    /// The version of the wire format this engine writes and reads.
    public static let wireVersion = 1
    /// The largest message, in bytes, the default transport reads.
    public static let maximumSize = 65_536

    /// `command #7 play: 1.0x from 0.000 s at 9812.600 s`, for logs.
    public var description: String {
        switch self {
        case .hello(let member): "hello from \(member)"
        case .state(let state):
            "state #\(state.sequence) \(state.command.map(\.description) ?? "(no command)")"
        case .request(let member, let command): "request from \(member): \(command)"
        case .command(let sequence, let command): "command #\(sequence) \(command)"
        case .report(let member, let report): "report from \(member): \(report)"
        }
    }

    // MARK: The wire format

    /// The message in the wire format: one JSON object, keys sorted, without a line end.
    /// - Returns: The message's bytes.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers, finite rates and the enums above: always encodable.
        return (try? Array(encoder.encode(self))) ?? []
    }

    /// Reads a message in the wire format.
    /// - Parameter bytes: One message's bytes (a line, without its end).
    /// - Throws: `MediaError.Code.unsupportedGroupMessage` for another version
    ///   or an unknown kind; `MediaError.Code.invalidGroupMessage` for anything
    ///   else it cannot read.
    public init(decoding bytes: some Collection<UInt8>) throws(MediaError) {
        guard bytes.count <= Self.maximumSize else {
            throw MediaError(
                .invalidGroupMessage, "a group message of \(bytes.count) bytes (at most \(Self.maximumSize))")
        }
        let data = Data(bytes)
        let preview = String(decoding: bytes.prefix(120), as: UTF8.self)
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw MediaError(.invalidGroupMessage, "not a group message", debugDetail: preview)
        }
        guard header.v == Self.wireVersion else {
            throw MediaError(
                .unsupportedGroupMessage,
                "a group message of wire version \(header.v); this engine reads version \(Self.wireVersion)",
                debugDetail: preview)
        }
        guard Kind(rawValue: header.type) != nil else {
            throw MediaError(
                .unsupportedGroupMessage, "a group message of an unknown type '\(header.type)'", debugDetail: preview)
        }
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch let error as UnknownValue {
            throw MediaError(.unsupportedGroupMessage, error.description, debugDetail: preview)
        } catch {
            throw MediaError(
                .invalidGroupMessage, "a '\(header.type)' message the group cannot read: \(Self.reason(error))",
                debugDetail: preview)
        }
    }

    /// What a decoding error says, in a line.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "\(error)"
        }
    }

    /// The fields every message has.
    private struct Header: Decodable {
        let v: Int
        let type: String
    }

    /// The kinds of messages, as `type` names them.
    private enum Kind: String {
        case hello, state, request, command, report
    }

    /// A value of a kind this engine does not know (an action, a report), in a message of a
    /// version it knows: refused as unsupported rather than invalid.
    private struct UnknownValue: Error, CustomStringConvertible {
        let description: String
    }

    private enum CodingKeys: String, CodingKey {
        case v, type, member, sequence, latency, command, report, framesDropped, within
    }

    /// Decodes a message of the wire format (see the type's documentation).
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for what it cannot read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .v)
        guard version == Self.wireVersion else {
            throw UnknownValue(description: "a group message of wire version \(version)")
        }
        let type = try container.decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else {
            throw UnknownValue(description: "a group message of an unknown type '\(type)'")
        }
        func command() throws -> PlaybackGroupCommand {
            let nested = try container.nestedContainer(keyedBy: CommandKeys.self, forKey: .command)
            let action = try nested.decode(String.self, forKey: .action)
            guard PlaybackGroupCommand.Action(rawValue: action) != nil else {
                throw UnknownValue(description: "a group command of an unknown action '\(action)'")
            }
            return try container.decode(PlaybackGroupCommand.self, forKey: .command)
        }
        switch kind {
        case .hello:
            self = .hello(member: try container.decode(String.self, forKey: .member))
        case .state:
            let latency = try container.decode(Int64.self, forKey: .latency)
            guard latency >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .latency, in: container, debugDescription: "a negative latency")
            }
            self = .state(
                PlaybackGroupState(
                    sequence: try container.decode(Int.self, forKey: .sequence), latency: .nanoseconds(latency),
                    command: container.contains(.command) ? try command() : nil))
        case .request:
            self = .request(member: try container.decode(String.self, forKey: .member), try command())
        case .command:
            self = .command(sequence: try container.decode(Int.self, forKey: .sequence), try command())
        case .report:
            let member = try container.decode(String.self, forKey: .member)
            let report = try container.decode(String.self, forKey: .report)
            switch report {
            case "tooSlow":
                self = .report(
                    member: member,
                    .tooSlow(
                        framesDropped: try container.decode(Int.self, forKey: .framesDropped),
                        within: .nanoseconds(try container.decode(Int64.self, forKey: .within))))
            case "timeSourceLost": self = .report(member: member, .timeSourceLost)
            case "timeSourceRestored": self = .report(member: member, .timeSourceRestored)
            default: throw UnknownValue(description: "a group report of an unknown kind '\(report)'")
            }
        }
    }

    private enum CommandKeys: String, CodingKey {
        case action
    }

    /// Encodes the message in the wire format (see the type's documentation).
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.wireVersion, forKey: .v)
        switch self {
        case .hello(let member):
            try container.encode(Kind.hello.rawValue, forKey: .type)
            try container.encode(member, forKey: .member)
        case .state(let state):
            try container.encode(Kind.state.rawValue, forKey: .type)
            try container.encode(state.sequence, forKey: .sequence)
            try container.encode(state.latency.wholeNanoseconds, forKey: .latency)
            try container.encodeIfPresent(state.command, forKey: .command)
        case .request(let member, let command):
            try container.encode(Kind.request.rawValue, forKey: .type)
            try container.encode(member, forKey: .member)
            try container.encode(command, forKey: .command)
        case .command(let sequence, let command):
            try container.encode(Kind.command.rawValue, forKey: .type)
            try container.encode(sequence, forKey: .sequence)
            try container.encode(command, forKey: .command)
        case .report(let member, let report):
            try container.encode(Kind.report.rawValue, forKey: .type)
            try container.encode(member, forKey: .member)
            switch report {
            case .tooSlow(let dropped, let within):
                try container.encode("tooSlow", forKey: .report)
                try container.encode(dropped, forKey: .framesDropped)
                try container.encode(within.wholeNanoseconds, forKey: .within)
            case .timeSourceLost: try container.encode("timeSourceLost", forKey: .report)
            case .timeSourceRestored: try container.encode("timeSourceRestored", forKey: .report)
            }
        }
    }
}
