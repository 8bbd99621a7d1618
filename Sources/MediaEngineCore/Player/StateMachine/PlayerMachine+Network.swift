/// What network sources add: the servers' answers, and credentials asked for by a challenge.
extension PlayerMachine.State {
    /// Whether the movie is read over a network (any scheme but `file:`), so its load state
    /// follows buffering.
    var isNetworkSource: Bool {
        source.isNetworkSource
    }

    /// Whether a network movie has less buffered than the policy asks for: playback waits
    /// (`interrupted`) until it has.
    var isStarved: Bool {
        isNetworkSource && !downloadComplete && (buffering.map { $0.percent < 100 } ?? false)
    }

    /// Whether the whole network movie has arrived: its source's stream ended, or the download
    /// to a cache file is complete.
    var wholeMovieArrived: Bool {
        downloadComplete || buffering.map { $0.stats.mode == .download && $0.stats.remaining == .zero } == true
    }

    /// The load state of a network movie with enough buffered: `playthroughOK` when the whole
    /// movie has arrived, or when it arrives at least as fast as it plays; else `playable`.
    func loadStateWhenBuffered(_ stats: BufferingStats) -> LoadState {
        if downloadComplete || stats.mode == .download && stats.remaining == .zero {
            return [.playable, .playthroughOK]
        }
        if stats.averageOut > 0 && stats.averageIn >= stats.averageOut { return [.playable, .playthroughOK] }
        return .playable
    }

    /// The network source delivered its whole stream (a progressive download ended, or a
    /// stream's last segment arrived): the movie can play through.
    mutating func downloadCompleted(session: Int) {
        // A manifest's download says nothing about its segments'.
        guard accepts(session), sourceType != .streaming else { return }
        downloadComplete = true
        if phase == .prepared { setLoadState([.playable, .playthroughOK]) }
    }

    /// The load state a movie has when it is prepared.
    var loadStateWhenPrepared: LoadState {
        guard isNetworkSource, !downloadComplete else { return [.playable, .playthroughOK] }
        guard let buffering else { return .playable }
        return buffering.percent < 100 ? [.playable, .stalled] : loadStateWhenBuffered(buffering.stats)
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
        guard phase == .preparing, !movie.authenticationAnswered, let response = errorContext.lastHTTPResponse,
            let challenge = AuthenticationChallenge(response), let answer = source.answering(challenge)
        else { return false }
        withMovie { movie in
            movie.authenticationAnswered = true
            movie.errorContext = PipelineErrorTranslator()
        }
        settings.source = answer
        load(answer, holdFirstFrame: needsPreparationSeek)
        perform(.startTimer(.preparation(session: session, epoch: epoch), after: preparationTimeout))
        return true
    }
}
