/// What network sources add: the servers' answers, and credentials asked for by a challenge.
extension PlayerMachine {
    /// Whether the movie is read over a network (any scheme but `file:`), so its load state
    /// follows buffering.
    var isNetworkSource: Bool {
        !source.uri.lowercased().hasPrefix("file:")
    }

    /// An HTTP source element reported a server's answer (or that none came): kept to explain a
    /// failure that follows.
    mutating func httpResponseArrived(session: Int, _ response: HTTPResponse) {
        guard accepts(session) else { return }
        errorContext.lastHTTPResponse = response
    }

    /// The server refused the movie with a challenge while it prepared: the source may answer it
    /// once with a credential (``MediaSource/answering(_:)``); the movie is then loaded again in
    /// the same pipeline, with no event (the app sees one preparation). Returns whether it was.
    mutating func answerChallenge(session: Int) -> Bool {
        guard phase == .preparing, !authenticationAnswered, let response = errorContext.lastHTTPResponse,
            let challenge = AuthenticationChallenge(response), let answer = source.answering(challenge)
        else { return false }
        authenticationAnswered = true
        source = answer
        errorContext = PipelineErrorTranslator()
        epoch += 1
        perform(.reload(session: session, source: answer, epoch: epoch, holdFirstFrame: needsPreparationSeek))
        perform(.scheduleTimeout(session: session, epoch: epoch))
        return true
    }
}
