internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline
internal import CMediaEngineWorkarounds

/// What a playbin's playsink lets through around a gapless hand-over: the end-of-stream gate that
/// lets the hand-over happen after a movie with sound (workaround "gapless-eos", gaplesseos.c:
/// playbin deadlocks at the switch when the stream that ended first waits in its stream
/// synchronizer, so the gate drops that end while a next movie may follow, and sends it again if
/// none does), and the withdrawal of a movie the queue no longer has (groupwithdrawal.c).
///
/// `@unchecked Sendable`: each C part guards its state with its own mutex, and lives as long as
/// the playbin it is installed on, which the owner of this value keeps alive.
struct GaplessGate: @unchecked Sendable {
    /// `me_gapless_gate_install`'s, nil when the workaround is off (or there is no playsink).
    private let gate: OpaquePointer?
    /// `me_group_withdrawal_install`'s, nil when there is no playsink.
    private let withdrawal: OpaquePointer?

    /// Installs both on `playbin`'s playsink; without one (no playsink, or the workaround off),
    /// hand-overs are never refused, and without the other nothing is dropped.
    init(playbin: Element) {
        gate = GStreamerWorkaround.gaplessEOS.isActive ? me_gapless_gate_install(playbin.pointer) : nil
        withdrawal = me_group_withdrawal_install(playbin.pointer)
    }

    /// Whether a next movie is queued: only then may an end of stream be dropped.
    func setNextQueued(_ queued: Bool) {
        me_gapless_gate_set_next_queued(gate, queued ? 1 : 0)
    }

    /// At about-to-finish: whether the next movie may be handed over (not when a stream's end
    /// already went on to wait for the others in this movie). If so, ends keep being dropped
    /// until the switch, or until ``cancelHandOver()``.
    func beginHandOver() -> Bool {
        me_gapless_gate_begin_hand_over(gate) != 0
    }

    /// A movie handed to playbin was withdrawn (the queue changed): from stream group number
    /// `group` (counted from 1, the first movie's, since the pipeline was built or
    /// ``restart()``ed) on, pictures and sound are dropped at playsink (its events go on), at
    /// once if that group has already started.
    func withdraw(fromGroup group: Int) {
        me_group_withdrawal_withdraw(withdrawal, guint(clamping: max(group, 1)))
    }

    /// The pipeline's streams were stopped for another movie (a reload, in `READY`): nothing is
    /// withdrawn, and the groups are counted again from that movie's.
    func restart() {
        me_group_withdrawal_restart(withdrawal)
    }

    /// At about-to-finish, when nothing is handed over: the dropped ends are sent again, so the
    /// movie ends.
    func cancelHandOver() {
        me_gapless_gate_cancel_hand_over(gate)
    }
}
