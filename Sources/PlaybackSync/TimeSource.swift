internal import CMediaEngineNetClock
import Foundation
import MediaEngineCore

/// The group's clock on the leader: a clock of its own (a GStreamer system clock, monotonic),
/// published on UDP with GStreamer's network time provider (`me_time_provider_new`).
///
/// `@unchecked Sendable`: the provider is a GObject whose `active` property GStreamer reads and
/// writes atomically, and which this object only holds and releases.
final class PublishedClock: @unchecked Sendable {
    let clock: PlaybackClock
    /// The UDP port the provider answers on.
    let port: Int
    private let provider: UnsafeMutableRawPointer

    /// Publishes a new clock on `address`:`port` (0 picks a port).
    /// - Throws: `MediaError.Code.addressInUse` when the port is taken.
    init(address: String?, port: Int) throws(MediaError) {
        try GStreamer.initialize()
        guard (0...65535).contains(port) else {
            throw MediaError(.invalidArgument, "a port is from 0 to 65535, not \(port)")
        }
        guard let raw = me_group_clock_new() else {
            throw MediaError(.pipelineFailure, "no clock could be made for the group")
        }
        let clock = PlaybackClock(adopting: raw)
        var bound: Int32 = 0
        var code: Int32 = 0
        var message: UnsafeMutablePointer<CChar>?
        guard let provider = me_time_provider_new(clock.rawPointer, address, Int32(port), &bound, &code, &message)
        else {
            let reason = message.map { String(cString: $0) } ?? "unknown"
            free(message)
            // G_IO_ERROR_ADDRESS_IN_USE is 33 in GLib's GIOErrorEnum.
            if code == 33 {
                throw MediaError(.addressInUse, "the group's time source cannot use UDP port \(port): \(reason)")
            }
            throw MediaError(.connectionFailed, "the group's time source could not start: \(reason)")
        }
        self.clock = clock
        self.provider = provider
        self.port = Int(bound)
    }

    /// Answers clients, or (false) stays silent: a time source that went away, for tests.
    func setAnswering(_ answering: Bool) {
        me_time_provider_set_active(provider, answering ? 1 : 0)
    }

    deinit {
        me_time_provider_free(provider)
    }
}

/// The group's clock on a follower: GStreamer's network client clock, following the leader's
/// provider, and a watch (a thread of its own) that tells when the source stops answering and
/// when it answers again.
final class FollowedClock: Sendable {
    let clock: PlaybackClock
    private let watch: ClockWatch

    /// Starts following the time source at `host`:`port`, polling it every `pollInterval`.
    init(host: String, port: Int, pollInterval: Duration) throws(MediaError) {
        try GStreamer.initialize()
        guard (1...65535).contains(port) else {
            throw MediaError(.invalidArgument, "a time source's port is from 1 to 65535, not \(port)")
        }
        guard let raw = me_net_client_clock_new(host, Int32(port), pollInterval.clockTimeValue) else {
            throw MediaError(.timeSourceUnreachable, "no network clock could be made for \(host):\(port)")
        }
        clock = PlaybackClock(adopting: raw)
        watch = ClockWatch(client: clock)
    }

    /// Waits (on a thread of its own) up to `limit` for the clock to follow its source.
    /// - Throws: `MediaError.Code.timeSourceUnreachable` when it does not.
    func waitForSync(within limit: Duration, source: String) async throws(MediaError) {
        let clock = clock
        let synced = try await OwnThread.run { () throws(MediaError) -> Bool in clock.waitForSync(within: limit) }
        guard synced else {
            throw MediaError(
                .timeSourceUnreachable,
                "the group's time source at \(source) did not answer within \(limit.inSeconds) s")
        }
    }

    /// Starts telling `changed` when the source stops answering for `lossAfter`, and when it
    /// answers again (on the watch's thread).
    func watch(lossAfter: Duration, _ changed: @escaping @Sendable (Bool) -> Void) {
        watch.start(lossAfter: lossAfter, changed)
    }

    /// Stops the watch.
    func stop() {
        watch.stop()
    }
}

/// Watches a network client clock's observations on a thread of its own
/// (`me_clock_watch_next`): the time source is lost when none came for a while, back at the next.
final class ClockWatch: @unchecked Sendable {
    // @unchecked: `watch` is set once in init and freed in deinit, after the thread that uses it
    // has ended (it holds this object); the C watch is thread-safe (a GstBus).
    private let watch: OpaquePointer?
    private let started = Locked(false)

    init(client: PlaybackClock) {
        watch = me_clock_watch_new(client.rawPointer)
    }

    func start(lossAfter: Duration, _ changed: @escaping @Sendable (Bool) -> Void) {
        let first = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        Thread { [self] in
            var reachable = true
            var silent = Duration.zero
            let step = Duration.milliseconds(250)
            var observation = MeClockObservation()
            while true {
                let result = me_clock_watch_next(watch, step.clockTimeValue, &observation)
                if result < 0 { break }
                if result > 0 {
                    silent = .zero
                    if !reachable {
                        reachable = true
                        changed(true)
                    }
                    continue
                }
                silent += step
                if reachable && silent >= lossAfter {
                    reachable = false
                    changed(false)
                }
            }
        }.start()
    }

    func stop() {
        me_clock_watch_stop(watch)
    }

    deinit {
        me_clock_watch_free(watch)
    }
}

extension Duration {
    /// Nanoseconds as GStreamer's clock time (never negative).
    var clockTimeValue: UInt64 { UInt64(max(0, wholeNanoseconds)) }
}
