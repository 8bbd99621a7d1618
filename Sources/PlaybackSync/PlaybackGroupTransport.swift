import MediaEngineCore

/// How a playback group's members reach each other: the app's own channel (a chat service, a
/// message bus, WebRTC data), or the default one, ``PlaybackGroupTCPTransport``. As
/// AVDelegatingPlaybackCoordinator lets an app carry SharePlay's commands itself.
///
/// Two requirements: send a message to the other members, receive the next one from them. The
/// group does the rest (who issues commands, their order, joining late). The rules an
/// implementation keeps:
/// - On the leader (the time source), ``send(_:)`` reaches every follower; on a follower it
///   reaches at least the leader. A channel where everyone sees everything is fine: a member
///   ignores what is not for it.
/// - Messages from one sender arrive in the order sent; none is delivered twice. A lost message
///   is made up for: the leader sends its state every few seconds.
/// - ``receive()`` is called by one task at a time, and returns when a message came or the
///   transport closed (nil); it honours task cancellation by returning nil. A message that could
///   not be read is thrown (`MediaError.Code.invalidGroupMessage` or
///   `MediaError.Code.unsupportedGroupMessage`, as
///   ``PlaybackGroupMessage/init(decoding:)`` throws them); the next call goes on with the next
///   message.
/// - Neither blocks a thread of Swift's cooperative pool: blocking I/O runs on threads of the
///   transport's own.
///
/// An app that carries bytes can use the messages' wire format (``PlaybackGroupMessage/encoded()``
/// and ``PlaybackGroupMessage/init(decoding:)``); one that carries values can use their `Codable`
/// conformance, which writes the same fields.
public protocol PlaybackGroupTransport: Sendable {
    /// Sends `message` to the other members.
    /// - Parameter message: The message.
    /// - Throws: A `MediaError` when it could not be sent (the channel is
    ///   closed, say).
    func send(_ message: PlaybackGroupMessage) async throws(MediaError)

    /// The next message from another member, or nil once the transport is closed (or the calling
    /// task is cancelled).
    /// - Returns: The message, or nil.
    /// - Throws: A `MediaError` for a message that could not be read; the next
    ///   call goes on.
    func receive() async throws(MediaError) -> PlaybackGroupMessage?
}
