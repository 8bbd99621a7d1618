import Foundation
import MediaEngineCore

/// Players on several machines (or in several processes) that show the same frame at the same
/// time: a video wall, a row of kiosk screens, a watch-together session.
///
/// A group has one time source, the leader (``lead(port:address:options:transport:)``): it
/// publishes a clock of its own on a UDP port with GStreamer's network time provider. The other
/// members follow it (``follow(host:port:options:transport:)``) with GStreamer's network client
/// clock. Every player of every member (``add(_:)``) runs its pipeline on that one clock, with a
/// base time and latency the group sets, so that "play from position P at group time T" shows
/// the same frame everywhere at T.
///
/// Commands (``play()``, ``pause()``, ``seek(to:option:)``, ``setRate(_:)``, ``stop()``) may be
/// given on any member. Each becomes a ``PlaybackGroupCommand``, a small value stating the
/// group's whole timeline from a time ``Options/leadTime`` ahead of the clock; the leader numbers
/// it and sends it to every member, and each member's players reach that timeline at that time:
/// all pause on the same frame, all resume together. The decisions a player makes to follow are
/// its own state machine's (`PlayerMachine+Coordination` in the core).
///
/// Members talk over a ``PlaybackGroupTransport``: the app's own channel, or by default
/// ``PlaybackGroupTCPTransport`` (the leader listens on TCP on the same port number as its time
/// source). A member that joins while the group plays prerolls at the group's position and shows
/// frames in step within about a second; one whose time source stops answering plays on and says
/// so (``PlaybackGroupEvent/timeSourceLost``, and its players' `groupTimeSourceLost`), and is
/// back in step when it answers again; one that cannot keep up reports it
/// (`groupMemberTooSlow`, and ``PlaybackGroupEvent/memberReported(_:_:)`` on the leader).
///
/// A player in a group refuses its own `play()`, `pause()`, `seek(to:option:)` and `setRate(_:)`
/// (`unsupportedOperation`): the group's commands drive it. ``remove(_:)`` gives it back.
public final class PlaybackGroup: Sendable {
    /// How a group times its commands and watches its clock.
    public struct Options: Sendable, Hashable {
        /// How far ahead of the clock a command is timed: every member must get it and seek
        /// before then (a member that cannot catches up, ``joinLead``). Default 300 ms.
        public var leadTime: Duration
        /// How far ahead of the clock a member plans a start it could not make on time (a late
        /// join), doubled when even that is missed. Default 500 ms.
        public var joinLead: Duration
        /// The pipeline latency of every member (the leader's is the group's). Default 0: files
        /// and HTTP movies are not live, and the sinks' own delays are theirs to make up.
        public var latency: Duration
        /// How long a follower waits for the time source's clock and for the leader's state.
        /// Default 5 s.
        public var syncTimeout: Duration
        /// How long the time source may be silent before it counts as lost. Default 2.5 s.
        public var timeSourceLossTimeout: Duration
        /// How often a follower's clock asks the time source (GStreamer's network client clock
        /// asks sooner while its estimate is poor). Default 500 ms.
        public var pollInterval: Duration
        /// How often the leader sends its state to every member. Default 2 s.
        public var stateInterval: Duration

        /// Options, each with its default unless given.
        /// - Parameters:
        ///   - leadTime: How far ahead a command is timed.
        ///   - joinLead: How far ahead a member plans a start it could not make on time.
        ///   - latency: The pipeline latency of every member.
        ///   - syncTimeout: How long a follower waits for the clock and the leader's state.
        ///   - timeSourceLossTimeout: How long the time source may be silent.
        ///   - pollInterval: How often a follower's clock asks the time source.
        ///   - stateInterval: How often the leader sends its state.
        public init(
            leadTime: Duration = .milliseconds(300), joinLead: Duration = .milliseconds(500), latency: Duration = .zero,
            syncTimeout: Duration = .seconds(5), timeSourceLossTimeout: Duration = .milliseconds(2500),
            pollInterval: Duration = .milliseconds(500), stateInterval: Duration = .seconds(2)
        ) {
            self.leadTime = leadTime
            self.joinLead = joinLead
            self.latency = latency
            self.syncTimeout = syncTimeout
            self.timeSourceLossTimeout = timeSourceLossTimeout
            self.pollInterval = pollInterval
            self.stateInterval = stateInterval
        }
    }

    /// A member's part in the group.
    public enum Role: Sendable, Hashable {
        /// The time source, which numbers the group's commands.
        case leader
        /// A member that follows the leader's clock and commands.
        case follower
    }

    private struct State: Sendable {
        var ledger: GroupLedger
        var players: [ObjectIdentifier: (player: MoviePlayer, watch: Task<Void, Never>)] = [:]
        var tasks: [Task<Void, Never>] = []
        var published: PublishedClock?
        var closed = false
        var firstState: CheckedContinuation<Void, Never>?
        var timeSourceReachable = true
    }

    /// This member's part.
    public let role: Role
    /// This member's name in the group's messages (random, 8 characters).
    public let memberID: String
    /// The time source's UDP port (the leader's own; the one a follower follows).
    public let port: Int
    /// The options the group was made with.
    public let options: Options
    /// The group's clock.
    package let clock: PlaybackClock
    private let followed: FollowedClock?
    private let transport: any PlaybackGroupTransport
    /// The default transport, when the group made it (it closes it).
    private let ownTransport: PlaybackGroupTCPTransport?
    private let state: Locked<State>
    private let hub = EventHub<PlaybackGroupEvent>(bufferLimit: 256)

    private init(
        role: Role, port: Int, options: Options, clock: PlaybackClock, published: PublishedClock?,
        followed: FollowedClock?, transport: any PlaybackGroupTransport, ownTransport: PlaybackGroupTCPTransport?
    ) {
        self.role = role
        self.port = port
        self.options = options
        self.clock = clock
        self.followed = followed
        self.transport = transport
        self.ownTransport = ownTransport
        memberID = String(UUID().uuidString.prefix(8)).lowercased()
        state = Locked(
            State(ledger: GroupLedger(isLeader: role == .leader, latency: options.latency), published: published))
    }

    // MARK: Making a group

    /// Starts a group with this process as its time source (the leader): a clock of the group's
    /// own is published on UDP `port`, and, without a `transport`, followers are taken on TCP
    /// `port` (the same number).
    /// - Parameters:
    ///   - port: The UDP port of the time source (and the TCP port of the default transport);
    ///     0 picks a free one (see ``port``).
    ///   - address: The IPv4 address to publish on; nil for every one.
    ///   - options: How the group times its commands.
    ///   - transport: The app's channel to the other members; nil for the default transport.
    /// - Returns: The group, with no player yet.
    /// - Throws: `MediaError.Code.addressInUse` when the port is taken (another
    ///   group's time source on it, say).
    public static func lead(
        port: Int = 0, address: String? = nil, options: Options = Options(),
        transport: (any PlaybackGroupTransport)? = nil
    ) throws(MediaError) -> PlaybackGroup {
        let published = try PublishedClock(address: address, port: port)
        var own: PlaybackGroupTCPTransport?
        if transport == nil { own = try PlaybackGroupTCPTransport.listening(port: published.port, address: address) }
        guard let channel: any PlaybackGroupTransport = transport ?? own else {
            throw MediaError(.invalidArgument, "no transport")
        }
        let group = PlaybackGroup(
            role: .leader, port: published.port, options: options, clock: published.clock, published: published,
            followed: nil, transport: channel, ownTransport: own)
        group.startReceiving()
        group.startSendingState()
        return group
    }

    /// Joins the group whose time source is at `host`:`port`: waits until the clock follows it
    /// and the leader has said where the group is.
    /// - Parameters:
    ///   - host: The leader's host name or IPv4 address.
    ///   - port: The leader's time source port (and, for the default transport, its TCP port).
    ///   - options: How the group times its commands and watches its clock (the leader's latency
    ///     replaces this one's).
    ///   - transport: The app's channel to the other members; nil for the default transport.
    /// - Returns: The group, with no player yet.
    /// - Throws: `MediaError.Code.timeSourceUnreachable` when the time source
    ///   does not answer within ``Options/syncTimeout``; the default transport's connection
    ///   errors (`MediaError.Code.connectionRefused`, ...);
    ///   `MediaError.Code.timedOut` when the leader's state does not come.
    public static func follow(
        host: String, port: Int, options: Options = Options(), transport: (any PlaybackGroupTransport)? = nil
    ) async throws(MediaError) -> PlaybackGroup {
        let followed = try FollowedClock(host: host, port: port, pollInterval: options.pollInterval)
        do throws(MediaError) {
            try await followed.waitForSync(within: options.syncTimeout, source: "\(host):\(port)")
        } catch {
            followed.stop()
            throw error
        }
        var own: PlaybackGroupTCPTransport?
        if transport == nil {
            do throws(MediaError) {
                own = try await PlaybackGroupTCPTransport.connecting(host: host, port: port)
            } catch {
                followed.stop()
                throw error
            }
        }
        guard let channel: any PlaybackGroupTransport = transport ?? own else {
            throw MediaError(.invalidArgument, "no transport")
        }
        let group = PlaybackGroup(
            role: .follower, port: port, options: options, clock: followed.clock, published: nil, followed: followed,
            transport: channel, ownTransport: own)
        group.startReceiving()
        followed.watch(lossAfter: options.timeSourceLossTimeout) { [weak group] reachable in
            group?.timeSourceChanged(reachable: reachable)
        }
        do throws(MediaError) {
            try await group.waitForLeader()
        } catch {
            await group.close()
            throw error
        }
        return group
    }

    // MARK: Players

    /// Adds a player: it runs on the group's clock and follows the group from now on (its own
    /// play, pause, seek and rate are refused), and is prepared (paused, on the group's position
    /// when the group has one).
    /// - Parameter player: The player.
    /// - Throws: What preparing the movie throws.
    public func add(_ player: MoviePlayer) async throws(MediaError) {
        let stream = player.events
        let watch = Task { [weak self] in
            for await event in stream {
                guard case .groupMemberTooSlow(let dropped, let within) = event, let self else { continue }
                await self.report(.tooSlow(framesDropped: dropped, within: within))
            }
        }
        let (latency, current, closed) = state.withLock { state in
            guard !state.closed else { return (Duration.zero, PlaybackGroupCommand?.none, true) }
            state.players[ObjectIdentifier(player)] = (player, watch)
            return (state.ledger.latency, state.ledger.current, false)
        }
        guard !closed else {
            watch.cancel()
            throw MediaError(.cancelled, "the playback group is closed")
        }
        player.joinGroup(clock: clock, latency: latency, joinLead: options.joinLead)
        if let current { Self.apply(current, to: player) }
        try await player.prepareToPlay()
    }

    /// Takes a player out of the group: it keeps what it shows, and takes its own commands again.
    /// - Parameter player: A player of the group.
    public func remove(_ player: MoviePlayer) {
        let entry = state.withLock { $0.players.removeValue(forKey: ObjectIdentifier(player)) }
        entry?.watch.cancel()
        if entry != nil { player.leaveGroup() }
    }

    // MARK: Commands

    /// Plays the group from where it is paused, at its rate (1 at first), from
    /// ``Options/leadTime`` ahead of the clock. Nothing when it plays already.
    /// - Throws: `MediaError.Code.connectionLost` when a follower cannot reach
    ///   the leader.
    public func play() async throws(MediaError) { try await issue(.play) }

    /// Pauses the group, every member on the same frame. Nothing when it is paused.
    /// - Throws: `MediaError.Code.connectionLost` when a follower cannot reach
    ///   the leader.
    public func pause() async throws(MediaError) { try await issue(.pause) }

    /// Moves the group to `position`, playing on if it played.
    /// - Parameters:
    ///   - position: Where to go in the movie.
    ///   - option: `.exact` lands every member on the frame at `position`; `.nearestKeyFrame` on
    ///     the keyframe before it (the same one everywhere), faster.
    /// - Throws: `MediaError.Code.invalidArgument` for a negative position;
    ///   `MediaError.Code.connectionLost` when a follower cannot reach the leader.
    public func seek(to position: Duration, option: SeekOption = .exact) async throws(MediaError) {
        try await issue(.seek(position, option))
    }

    /// Plays the group at `rate` from where it is (a paused group starts playing, as AVPlayer's
    /// rate does).
    /// - Parameter rate: 0.25 to 8, or -8 to -0.25 backwards.
    /// - Throws: `MediaError.Code.invalidArgument` for another rate;
    ///   `MediaError.Code.connectionLost` when a follower cannot reach the leader.
    public func setRate(_ rate: Double) async throws(MediaError) { try await issue(.rate(rate)) }

    /// Stops every member's players at the same time; a later ``play()`` (or any command)
    /// prepares them again.
    /// - Throws: `MediaError.Code.connectionLost` when a follower cannot reach
    ///   the leader.
    public func stop() async throws(MediaError) { try await issue(.stop) }

    /// The group's clock now (GStreamer clock time of the group's clock).
    public var clockTime: Duration { clock.now }

    /// The group's latest command, as this member applied it, and its number (0: none yet).
    public var latestCommand: (sequence: Int, command: PlaybackGroupCommand?) {
        state.withLock { ($0.ledger.sequence, $0.ledger.current) }
    }

    /// A new subscription to the group's events, from now on (at most 256 unread are kept, the
    /// newest).
    public var events: AsyncStream<PlaybackGroupEvent> { hub.subscribe() }

    /// Leaves the group: its players leave it (they keep what they show), the clock and the
    /// connections are let go. A leader stops being the time source; its followers play on,
    /// on their clocks' last calibration.
    public func close() async {
        let (players, tasks, published) = state.withLock { state in
            state.closed = true
            defer {
                state.players = [:]
                state.tasks = []
                state.published = nil
            }
            return (Array(state.players.values), state.tasks, state.published)
        }
        for task in tasks { task.cancel() }
        for (player, watch) in players {
            watch.cancel()
            player.leaveGroup()
        }
        followed?.stop()
        ownTransport?.close()
        published?.setAnswering(false)
        hub.finish()
    }

    /// Stops (false) or resumes (true) the leader's answers to the members' clocks, as if the
    /// time source had gone away: for tests and the benchmark. Nothing on a follower.
    package func setTimeSourceAnswering(_ answering: Bool) {
        state.withLock { $0.published }?.setAnswering(answering)
    }

    // MARK: Inside

    /// An app's intent becomes a command: the leader numbers, sends and applies it; a follower
    /// asks the leader, and applies it when the leader's command comes back (so every member
    /// applies the group's commands in the leader's order).
    private func issue(_ intent: GroupLedger.Intent) async throws(MediaError) {
        let time = clock.now + options.leadTime
        let (command, sequence) = try state.withLock { state throws(MediaError) -> (PlaybackGroupCommand?, Int) in
            guard !state.closed else { throw MediaError(.cancelled, "the playback group is closed") }
            guard let command = try state.ledger.command(for: intent, at: time) else { return (nil, 0) }
            return (command, role == .leader ? state.ledger.issue(command) : 0)
        }
        guard let command else { return }
        if role == .leader {
            applyHere(command, sequence: sequence)
            await broadcast(.command(sequence: sequence, command))
        } else {
            try await transport.send(.request(member: memberID, command))
        }
    }

    /// Applies a command to this member's players and says so.
    private func applyHere(_ command: PlaybackGroupCommand, sequence: Int) {
        let players = state.withLock { state in state.players.values.map(\.player) }
        for player in players { Self.apply(command, to: player) }
        hub.publish(.commandApplied(sequence: sequence, command))
    }

    private static func apply(_ command: PlaybackGroupCommand, to player: MoviePlayer) {
        if command.action == .stop {
            player.stopWithGroup(at: command.timeline.time)
        } else {
            player.followGroup(command.timeline, option: command.seekOption)
        }
    }

    /// Sends to the other members; a failure is an event (the state sent every few seconds
    /// makes up for a lost message).
    private func broadcast(_ message: PlaybackGroupMessage) async {
        do throws(MediaError) {
            try await transport.send(message)
        } catch {
            hub.publish(.sendFailed(error))
        }
    }

    /// The loop that reads the other members' messages.
    private func startReceiving() {
        let task = Task { [weak self, transport] in
            while !Task.isCancelled {
                do throws(MediaError) {
                    guard let message = try await transport.receive() else { return }
                    await self?.handle(message)
                } catch {
                    self?.hub.publish(.messageRefused(error))
                }
            }
        }
        state.withLock { $0.tasks.append(task) }
    }

    /// The leader sends its state every ``Options/stateInterval``: members that missed a command
    /// (or joined) catch up. A keyframe seek's timeline is the one the leader's player landed.
    private func startSendingState() {
        let interval = options.stateInterval
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                await self.broadcast(.state(self.refinedState()))
            }
        }
        state.withLock { $0.tasks.append(task) }
    }

    /// The ledger's state, with the timeline of the leader's own first player (which knows the
    /// keyframe a keyframe seek landed on).
    private func refinedState() -> PlaybackGroupState {
        let landed = state.withLock { $0.players.values.first?.player }?.groupTimeline
        return state.withLock { state in
            if let landed { state.ledger.refine(landed) }
            return state.ledger.state
        }
    }

    private func handle(_ message: PlaybackGroupMessage) async {
        switch (role, message) {
        case (.leader, .hello(let member)):
            hub.publish(.memberJoined(member))
            await broadcast(.state(refinedState()))
        case (.leader, .request(_, let command)):
            let sequence = state.withLock { state -> Int? in
                state.closed ? nil : state.ledger.issue(command)
            }
            guard let sequence else { return }
            applyHere(command, sequence: sequence)
            await broadcast(.command(sequence: sequence, command))
        case (.leader, .report(let member, let report)):
            hub.publish(.memberReported(member, report))
        case (.follower, .command(let sequence, let command)):
            let newer = state.withLock { $0.ledger.accept(command, sequence: sequence) }
            if newer { applyHere(command, sequence: sequence) }
        case (.follower, .state(let groupState)):
            let (apply, waiter) = state.withLock { state in
                let accepted = state.ledger.accept(groupState)
                defer { state.firstState = nil }
                return (accepted.apply, state.firstState)
            }
            if let apply { applyHere(apply, sequence: groupState.sequence) }
            waiter?.resume()
        default:
            break  // Not for this member (a channel where everyone hears everything).
        }
    }

    /// Waits for the leader's first state (a hello asks for it).
    private func waitForLeader() async throws(MediaError) {
        await broadcast(.hello(member: memberID))
        let limit = options.syncTimeout
        let heard = await withTaskGroup(of: Bool.self) { tasks in
            tasks.addTask { [weak self] in
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    guard let self else { return continuation.resume() }
                    let synchronized = self.state.withLock { state -> Bool in
                        if state.ledger.synchronized { return true }
                        state.firstState = continuation
                        return false
                    }
                    if synchronized { continuation.resume() }
                }
                return true
            }
            tasks.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await tasks.next() ?? false
            if !first {
                // The waiter is resumed so its task ends.
                let waiter = state.withLock { state in
                    defer { state.firstState = nil }
                    return state.firstState
                }
                waiter?.resume()
            }
            tasks.cancelAll()
            return first
        }
        let synchronized = state.withLock { $0.ledger.synchronized }
        guard heard && synchronized else {
            throw MediaError(.timedOut, "the group's leader did not say where the group is within \(limit.inSeconds) s")
        }
    }

    /// The time source stopped answering or answers again (the clock watch's thread).
    private func timeSourceChanged(reachable: Bool) {
        let players = state.withLock { state -> [MoviePlayer] in
            state.timeSourceReachable = reachable
            return state.players.values.map(\.player)
        }
        for player in players { player.groupTimeSourceChanged(reachable: reachable) }
        hub.publish(reachable ? .timeSourceRestored : .timeSourceLost)
        Task { [weak self] in
            guard let self else { return }
            await self.report(reachable ? .timeSourceRestored : .timeSourceLost)
            // Back: the leader's state, in case a command was missed meanwhile.
            if reachable { await self.broadcast(.hello(member: self.memberID)) }
        }
    }

    /// This member's news: to the leader, or (on the leader) as its own event.
    private func report(_ report: PlaybackGroupReport) async {
        if role == .leader {
            hub.publish(.memberReported(memberID, report))
        } else {
            await broadcast(.report(member: memberID, report))
        }
    }
}
