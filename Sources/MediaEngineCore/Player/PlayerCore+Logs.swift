import Foundation

/// The access and error logs: kept by ``NetworkLogRecorder`` from the machine's output and the
/// servers' answers, under the player's lock.
extension PlayerCore {
    /// Starts, ends and updates log entries for the machine's last output; returns the log's own
    /// events, published after the machine's. Under the lock.
    func logOutput(_ output: PlayerMachine.Output, _ owned: inout Owned) -> [PlayerEvent] {
        let now = Date()
        // The events belong to the movie loaded so far (a finish, a stall); a pipeline closed or
        // built by the same input ends that entry, or begins the next, after them.
        var events = owned.networkLog.observe(output.events, at: now)
        for action in output.actions {
            switch action {
            case .build(let build):
                endLogEntry(&owned, at: now)
                if build.source.source.isNetworkSource {
                    events += owned.networkLog.sessionBegan(
                        id: "\(logID)-\(build.session)", uri: build.source.source.uri)
                }
            case .reload(let session, let reloaded, _, _):
                let source = reloaded.source
                // Another movie in the same pipeline is another entry; the same movie loaded
                // again with a credential is not.
                let sameMovie =
                    owned.networkLog.open && owned.networkLog.requestedURI == URIRedaction.removingUserInfo(source.uri)
                guard !sameMovie else { break }
                endLogEntry(&owned, at: now)
                if source.isNetworkSource {
                    events += owned.networkLog.sessionBegan(
                        id: "\(logID)-\(session).\(owned.machine.epoch)", uri: source.uri)
                }
            case .close:
                endLogEntry(&owned, at: now)
            default:
                break
            }
        }
        return events
    }

    /// The open entry's final figures, then closed.
    private func endLogEntry(_ owned: inout Owned, at now: Date) {
        guard owned.networkLog.open else { return }
        updateLogFigures(&owned)
        owned.networkLog.sessionEnded(at: now)
        owned.droppedFrames = [:]
    }

    /// Bytes, dropped frames and bitrate of the open entry, from the pipeline as it is now.
    func updateLogFigures(_ owned: inout Owned) {
        guard owned.networkLog.open else { return }
        if let transfer = owned.session?.sourceSetup.transfer.total {
            owned.networkLog.transferred(bytes: transfer.bytes, seconds: transfer.seconds)
        }
        owned.networkLog.droppedFrames(owned.droppedFrames.values.reduce(0, +))
        owned.networkLog.movieKnown(duration: owned.machine.duration, tags: owned.machine.metadata)
    }

    /// A server's answer for session `id`: the log's URI, requests and errors; the server's
    /// address is looked up (off the player's thread) for the first answer.
    func logResponse(_ response: HTTPResponse, session id: Int) {
        let lookUp: (host: String, entry: String)? = state.withLock { owned in
            guard owned.machine.accepts(id) else { return nil }
            let entry = owned.networkLog.accessEvents.last
            let first = owned.networkLog.open && entry?.numberOfMediaRequests == 0 && entry?.serverAddress == nil
            hub.publish(owned.networkLog.responseArrived(response, at: Date()))
            guard first, let entry, let host = URLComponents(string: response.finalURI)?.host else { return nil }
            return (host, entry.playbackSessionID)
        }
        guard let lookUp else { return }
        Thread.detachNewThread { [weak self] in
            guard let address = ServerAddress.resolve(lookUp.host) else { return }
            self?.state.withLock { $0.networkLog.serverAddressResolved(address, forSession: lookUp.entry) }
        }
    }

    /// An adaptive stream's segment arrived.
    func logSegmentDownloaded(session id: Int) {
        state.withLock { owned in
            guard owned.machine.accepts(id) else { return }
            owned.networkLog.segmentDownloaded()
        }
    }

    /// A video element's QoS report: how many frames it has dropped so far.
    func logDroppedFrames(_ dropped: Int, by element: String, session id: Int) {
        state.withLock { owned in
            guard owned.machine.accepts(id) else { return }
            owned.droppedFrames[element] = dropped
        }
    }
}
