import Foundation

/// Re-posts a player's events as `Notification`s on `NotificationCenter.default`, with the
/// player as the object, for code ported from MPMoviePlayerController.
///
/// It does not extend the player's lifetime: its task holds the player weakly while it waits for
/// events, and strongly only for the synchronous `post` itself (the notification's `object` is
/// the player, so NotificationCenter holds it then in any case). When the owner lets go during a
/// post, the player ends on this task as soon as the post returns; its `deinit` only enqueues the
/// teardown on the player's own thread, so that never blocks a cooperative thread. Tested by
/// "the NotificationCenter mirror does not keep a released player alive, ...".
final class NotificationForwarder: Sendable {
    private let task = Locked<Task<Void, Never>?>(nil)

    func start(forwarding events: PlayerEvents, from player: MoviePlayer) {
        let forwarding = Task { [weak player] in
            for await event in events {
                guard let player else { return }
                NotificationCenter.default.post(
                    name: event.notificationName, object: player, userInfo: event.notificationUserInfo)
            }
        }
        task.withLock { $0 = forwarding }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
