extension PlayerMachine {
    /// The bound on getting a network movie going (``RetryPolicy/deadline``), while it runs: from
    /// the start of the movie's load, or, for a movie that was playing, from the failure that
    /// stopped it, until the movie is prepared (again).
    struct ConnectionDeadline: Equatable {
        /// The epoch the deadline started in: its timer's identity.
        let epoch: Int
        /// How long it is.
        let limit: Duration
        /// It is over: no further try starts.
        var passed = false
    }
}

extension Duration {
    /// `20 s`, or `2.500 s` for a duration that is not whole seconds: for messages.
    fileprivate var inMessage: String {
        components.attoseconds == 0 ? "\(components.seconds) s" : formattedSeconds
    }
}

/// A network movie is going, or fails, within its source's deadline (``RetryPolicy/deadline``),
/// however its tries, their timeouts and the waits between them add up. The deadline is a timer
/// of the machine's; when it fires before the movie is going:
/// - a wait for the next try ends the movie at once, with the failure that started the wait;
/// - a try that has had no answer from the server yet ends the movie with
///   ``MediaError/Code/timedOut`` (a server that says nothing, a host that never accepts);
/// - a failure the source is being asked about ends the movie when the answer comes;
/// - a try that is being answered (the movie downloads, slowly) goes on, but no try starts after it.
extension PlayerMachine.State {
    /// Starts the deadline of the movie loading now (a preparation begins), or of the reconnection
    /// of a movie that was playing, when the source's policy has one. Not for a pre-roll's items.
    mutating func startConnectionDeadline() {
        guard hasSession, isNetworkSource, preroll == nil, let limit = source.retryPolicy.deadline else { return }
        if let running = movie.connectionDeadline {
            perform(.cancelTimer(.connectionDeadline(session: sessionID, epoch: running.epoch)))
        }
        let started = epoch
        withMovie { $0.connectionDeadline = PlayerMachine.ConnectionDeadline(epoch: started, limit: limit) }
        perform(.startTimer(.connectionDeadline(session: sessionID, epoch: started), after: limit))
    }

    /// The movie is going (prepared, or back after a reconnection): its deadline is met.
    mutating func connectionDeadlineMet() {
        guard let deadline = movie.connectionDeadline else { return }
        withMovie { $0.connectionDeadline = nil }
        perform(.cancelTimer(.connectionDeadline(session: sessionID, epoch: deadline.epoch)))
    }

    /// Whether the movie's deadline is over: a failure now ends it, with no retry.
    var connectionDeadlinePassed: Bool {
        movie.connectionDeadline?.passed ?? false
    }

    /// The deadline's timer fired (``PlayerMachine/Timer/connectionDeadline(session:epoch:)``).
    mutating func connectionDeadlinePassed(session: Int, epoch: Int) {
        guard isCurrent(session), preroll == nil, var deadline = movie.connectionDeadline, deadline.epoch == epoch
        else { return }
        deadline.passed = true
        withMovie { $0.connectionDeadline = deadline }
        // The source is making a failure more precise: its answer ends the movie, as no retry
        // starts any more (``reconnect(session:after:position:)``).
        guard movie.interpreting == nil else { return }
        let retries = reconnection?.attempt ?? 0
        let after = retries == 0 ? "" : retries == 1 ? " (after 1 retry)" : " (after \(retries) retries)"
        if isReconnecting, reconnection?.reloading == false, var error = reconnection?.lastError {
            // Waiting for the next try, which would start after the deadline: the failure that
            // started the wait ends the movie.
            error.debugDetail = [
                error.debugDetail, "no further try: the \(deadline.limit.inMessage) connection deadline passed\(after)",
            ].compactMap { $0 }.joined(separator: "\n")
            return pipelineFailed(session: session, error: error)
        }
        // A try under way that the server has not answered yet.
        guard phase == .preparing, errorContext.lastHTTPResponse?.isAnswered != true else { return }
        pipelineFailed(
            session: session,
            error: MediaError(
                .timedOut,
                "\(URIRedaction.redacting(source.uri)) did not answer within the "
                    + "\(deadline.limit.inMessage) connection deadline\(after)"))
    }
}
