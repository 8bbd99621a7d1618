/// A pre-roll's side of the player's thread: its commands, its ticks, and the bus messages of
/// its pipeline, which go to the machine's pre-roll inputs instead of the content's.
extension PlayerCore {
    /// Plays `items` before the content and returns how the last one ended (see
    /// ``PlayerMachine/beginPreroll(_:playsContentAfter:timeout:observer:)``).
    func playPreroll(
        _ items: [any MediaSource], playsContentAfter: Bool, timeout: Duration,
        observer: @escaping PlayerMachine.PrerollObserver
    ) async throws(MediaError) -> PrerollEnd {
        try await wait {
            $0.beginPreroll(items, playsContentAfter: playsContentAfter, timeout: timeout, observer: observer)
        }
        return read { $0.lastPrerollEnd } ?? .stopped
    }

    func skipPreroll() -> Bool {
        let position = currentPrerollPosition
        return apply { $0.skipPreroll(position: position) }
    }

    func resumePreroll() {
        apply { $0.resumePreroll() }
    }

    /// The pre-roll's pipeline position (a thread-safe query).
    private var currentPrerollPosition: Duration? {
        state.withLock { $0.machine.preroll != nil ? $0.session : nil }?.position
    }

    /// A tick of the pre-roll's position, on the player's thread.
    func prerollTick(session id: Int) {
        let position = state.withLock { $0.session?.id == id ? $0.session : nil }?.position
        apply { $0.prerollTick(session: id, position: position) }
    }

    /// Handles a message of the pre-roll's pipeline; false for messages that concern the
    /// pipeline rather than the movie in it (epoch markers, output swaps, latency), which go the
    /// usual way.
    func handlePreroll(_ message: BusMessage, session: PipelineSession) -> Bool {
        let id = session.id
        switch message {
        case .newEpoch, .outputSwapped, .latencyChanged, .clockLost, .stopBusThread:
            return false
        case .asyncDone:
            session.openFragmentGates()
            apply { $0.prerollPrerolled(session: id) }
        case .firstFrame(let frame):
            fitOwnWindow(to: frame.displaySize, session: session)
            let duration = session.duration
            apply { $0.prerollFirstFrame(session: id, duration: duration, displaySize: frame.displaySize) }
        case .streamStarted(let group):
            // The next movie's facts, if this is its start after a gapless hand-over.
            let facts =
                read { $0.prerollHandsOver(session: id, group: group) }
                ? handOverFacts(of: session, group: group) : PlayerMachine.PipelineFacts()
            apply { $0.prerollStreamStarted(session: id, group: group, facts: facts) }
        case .endOfStream:
            let position = session.position
            apply { $0.prerollReachedEnd(session: id, position: position) }
        case .error(let failure):
            apply { $0.prerollError(session: id, failure) }
        case .stateChangeFailed:
            apply {
                $0.prerollFailed(
                    session: id, error: MediaError(.pipelineFailure, "the pipeline refused to play the pre-roll"))
            }
        case .streamTypeFound(let caps):
            apply { $0.prerollStreamTypeFound(session: id, caps: caps) }
        case .missingPlugin(let description, let caps):
            apply { $0.missingPlugin(session: id, description: description, caps: caps) }
        case .buffering(let percent, _):
            apply { $0.prerollBuffering(session: id, percent: percent) }
        case .sourceSettingsFailed:
            guard let error = session.sourceSetup.failure.withLock({ $0 }) else { break }
            apply { $0.prerollFailed(session: id, error: error) }
        default:
            break  // The pre-roll's tags, sizes and states are not the content's.
        }
        return true
    }
}
