import Foundation

/// Re-posts a player's events as `Notification`s on `NotificationCenter.default`, with the
/// player as the object, for code ported from MPMoviePlayerController.
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
