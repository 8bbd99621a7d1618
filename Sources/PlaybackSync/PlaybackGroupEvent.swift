import MediaEngineCore

/// Something that happened in a playback group, as this member sees it (``PlaybackGroup/events``).
/// Each player of the group announces its own side too (`PlayerEvent`'s
/// `groupTimeSourceLost`, `groupTimeSourceRestored`, `groupMemberTooSlow`).
public enum PlaybackGroupEvent: Sendable, Hashable, CustomStringConvertible {
    /// The group's command number `sequence` was applied here (each player follows it at its time).
    case commandApplied(sequence: Int, PlaybackGroupCommand)
    /// A member said hello (seen by the leader): it joined, or came back.
    case memberJoined(String)
    /// A member's news (seen by the leader): too slow, its time source lost or back.
    case memberReported(String, PlaybackGroupReport)
    /// The group's time source stopped answering this member; its players play on, on the group
    /// clock's last calibration.
    case timeSourceLost
    /// The time source answers this member again.
    case timeSourceRestored
    /// A message from another member was refused: it could not be read
    /// (`MediaError.Code.invalidGroupMessage`), or is of a version or kind this
    /// engine does not know (`MediaError.Code.unsupportedGroupMessage`). The
    /// group goes on.
    case messageRefused(MediaError)
    /// A message could not be sent (a follower not connected to its leader, say); the group goes
    /// on, and the leader's state makes up for it when it can be heard again.
    case sendFailed(MediaError)

    /// The event in a form for logs.
    public var description: String {
        switch self {
        case .commandApplied(let sequence, let command): "commandApplied(#\(sequence) \(command))"
        case .memberJoined(let member): "memberJoined(\(member))"
        case .memberReported(let member, let report): "memberReported(\(member), \(report))"
        case .timeSourceLost: "timeSourceLost"
        case .timeSourceRestored: "timeSourceRestored"
        case .messageRefused(let error): "messageRefused(\(error.code))"
        case .sendFailed(let error): "sendFailed(\(error.code))"
        }
    }
}
