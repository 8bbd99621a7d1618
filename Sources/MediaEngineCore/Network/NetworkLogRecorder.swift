import Foundation

/// Keeps a player's access and error logs from what happens to its network movies: the
/// player's own events, the servers' answers, the bytes that arrived. A value with no clock of
/// its own: every input says when it happened, so tests can replay a session.
///
/// Entries are kept for the most recent ``capacity`` preparations and errors.
struct NetworkLogRecorder {
    static let capacity = 100

    private(set) var accessEvents: [AccessLogEvent] = []
    private(set) var errorEvents: [ErrorLogEvent] = []
    /// Whether the last entry is the current preparation's (a network movie is loaded).
    private(set) var open = false
    /// The URI the open entry's movie was asked for (its entry may show where redirects led).
    private(set) var requestedURI: String?
    /// The transfer count when the open entry began (a variant switch), and the latest.
    private var transferBase = (bytes: 0, seconds: 0.0)
    private var lastTransfer = (bytes: 0, seconds: 0.0)
    /// The size the server announced for the open entry's movie (Content-Length of its first
    /// full answer), for its indicated bitrate.
    private var contentLength: Int?
    /// The preparation's entry still takes its URI from the first full answer (the end of the
    /// redirects); a variant's entry keeps the variant's.
    private var uriFromFirstAnswer = false
    /// Since when the movie has been playing, while it is.
    private var playingSince: Date?

    /// A preparation of a network movie began (or another movie was loaded): a new entry.
    /// - Returns: The event to publish.
    mutating func sessionBegan(id: String, uri: String) -> [PlayerEvent] {
        closeWatching(at: nil)
        accessEvents.append(AccessLogEvent(playbackSessionID: id, uri: uri))
        if accessEvents.count > Self.capacity { accessEvents.removeFirst() }
        open = true
        requestedURI = URIRedaction.removingUserInfo(uri)
        contentLength = nil
        uriFromFirstAnswer = true
        transferBase = (0, 0)
        lastTransfer = (0, 0)
        return [.accessLogChanged]
    }

    /// The movie is no longer loaded (stopped, failed, replaced by a local file): the entry is
    /// final.
    mutating func sessionEnded(at now: Date) {
        closeWatching(at: now)
        open = false
    }

    /// What the player published, at `now`: playing time, stalls, and errors that end playback.
    /// - Returns: The events to publish in turn.
    mutating func observe(_ events: [PlayerEvent], at now: Date) -> [PlayerEvent] {
        guard open else { return [] }
        var published: [PlayerEvent] = []
        for event in events {
            switch event {
            case .playbackStateChanged(.playing):
                guard playingSince == nil else { break }
                playingSince = now
                if accessEvents[accessEvents.count - 1].playbackStartDate == nil {
                    accessEvents[accessEvents.count - 1].playbackStartDate = now
                }
            case .playbackStateChanged(let state):
                let wasPlaying = playingSince != nil
                closeWatching(at: now)
                if state == .interrupted && wasPlaying { accessEvents[accessEvents.count - 1].numberOfStalls += 1 }
            case .variantSwitched(let change):
                published += variantSwitched(change, at: now)
            case .reconnecting(let attempt, let delay, let error):
                // A server's error status is already in the log, from its answer.
                guard error.httpStatusCode == nil else { break }
                published += addError(
                    ErrorLogEvent(
                        date: now, uri: current.uri, serverAddress: current.serverAddress, statusCode: nil,
                        domain: "MediaEngine",
                        comment: "\(error.code): \(error.message) (retry \(attempt) in \(delay.formattedSeconds))",
                        playbackSessionID: current.playbackSessionID))
            case .playbackDidFinish(_, let error):
                closeWatching(at: now)
                published.append(.accessLogChanged)
                // A server's error status is already in the log, from its answer.
                if let error, error.httpStatusCode == nil {
                    published += addError(
                        ErrorLogEvent(
                            date: now, uri: current.uri, serverAddress: current.serverAddress, statusCode: nil,
                            domain: "MediaEngine", comment: "\(error.code): \(error.message)",
                            playbackSessionID: current.playbackSessionID))
                }
            default:
                break
            }
        }
        return published
    }

    /// A server answered (or did not) at `now`: the entry's URI is the end of its redirects;
    /// an error status is an error-log entry.
    /// - Returns: The events to publish.
    mutating func responseArrived(_ response: HTTPResponse, at now: Date) -> [PlayerEvent] {
        guard open else { return [] }
        if response.statusCode == 200 || response.statusCode == 206 {
            if uriFromFirstAnswer {
                uriFromFirstAnswer = false
                accessEvents[accessEvents.count - 1].uri = response.finalURI
                if response.statusCode == 200 { contentLength = response.header("content-length").flatMap { Int($0) } }
            }
            accessEvents[accessEvents.count - 1].numberOfMediaRequests += 1
            return []
        }
        // No answer at all: the error that follows says why (refused, TLS, ...), and is logged.
        guard response.statusCode >= 400 else { return [] }
        return addError(
            ErrorLogEvent(
                date: now, uri: response.finalURI, serverAddress: current.serverAddress,
                statusCode: response.statusCode, domain: "HTTP", comment: "HTTP \(response.statusCode)",
                playbackSessionID: current.playbackSessionID))
    }

    /// An adaptive stream moved to another variant: the entry ends and the variant's begins (in
    /// the same preparation), as MPMovieAccessLog keeps one entry per variant. The first report
    /// names the variant the stream starts on: it completes the preparation's entry.
    private mutating func variantSwitched(_ change: VariantSwitch, at now: Date) -> [PlayerEvent] {
        var entry = accessEvents[accessEvents.count - 1]
        if entry.indicatedBitrate == nil && entry.segmentsDownloaded == 0 {
            accessEvents[accessEvents.count - 1].indicatedBitrate = Double(change.indicatedBitrate)
            return []
        }
        let wasPlaying = playingSince != nil
        closeWatching(at: now)
        entry = AccessLogEvent(playbackSessionID: entry.playbackSessionID, uri: change.uri)
        entry.serverAddress = accessEvents[accessEvents.count - 1].serverAddress
        entry.indicatedBitrate = Double(change.indicatedBitrate)
        entry.playbackStartDate = wasPlaying ? now : nil
        uriFromFirstAnswer = false
        accessEvents.append(entry)
        if accessEvents.count > Self.capacity { accessEvents.removeFirst() }
        transferBase = lastTransfer
        if wasPlaying { playingSince = now }
        return [.accessLogChanged]
    }

    /// A segment of an adaptive stream arrived.
    mutating func segmentDownloaded() {
        guard open else { return }
        accessEvents[accessEvents.count - 1].segmentsDownloaded += 1
    }

    /// The server's host resolved to `address`.
    mutating func serverAddressResolved(_ address: String, forSession id: String) {
        guard let index = accessEvents.lastIndex(where: { $0.playbackSessionID == id }) else { return }
        accessEvents[index].serverAddress = address
    }

    /// The bytes received since the preparation began, over how many seconds of downloading;
    /// an entry of a later variant counts from its switch.
    mutating func transferred(bytes: Int, seconds: Double) {
        guard open else { return }
        lastTransfer = (bytes, seconds)
        let entryBytes = max(0, bytes - transferBase.bytes)
        let entrySeconds = seconds - transferBase.seconds
        accessEvents[accessEvents.count - 1].bytesTransferred = entryBytes
        accessEvents[accessEvents.count - 1].observedBitrate =
            entrySeconds > 0 ? Double(entryBytes) * 8 / entrySeconds : nil
    }

    /// The video frames dropped so far in the open entry.
    mutating func droppedFrames(_ count: Int) {
        guard open else { return }
        accessEvents[accessEvents.count - 1].droppedVideoFrames = count
    }

    /// The movie's bitrate, once known: what the stream declares (a variant's bandwidth, given
    /// with ``indicatedBitrate(_:)``) wins; else the container's bitrate tag; else the size the
    /// server announced over the duration.
    mutating func movieKnown(duration: Duration?, tags: [String: String]) {
        guard open, current.indicatedBitrate == nil else { return }
        if let tagged = (tags["nominal-bitrate"] ?? tags["bitrate"]).flatMap(Double.init), tagged > 0 {
            accessEvents[accessEvents.count - 1].indicatedBitrate = tagged
        } else if let contentLength, let duration, duration > .zero {
            accessEvents[accessEvents.count - 1].indicatedBitrate = Double(contentLength) * 8 / duration.inSeconds
        }
    }

    /// The bitrate the stream declares for what plays now (an adaptive stream's variant).
    mutating func indicatedBitrate(_ bitsPerSecond: Double) {
        guard open, bitsPerSecond > 0 else { return }
        accessEvents[accessEvents.count - 1].indicatedBitrate = bitsPerSecond
    }

    /// The access log at `now`: the open entry's watched time includes the playing under way.
    func accessLog(at now: Date) -> AccessLog {
        var events = accessEvents
        if open, let playingSince, !events.isEmpty {
            events[events.count - 1].durationWatched += .seconds(max(0, now.timeIntervalSince(playingSince)))
        }
        return AccessLog(events: events)
    }

    var errorLog: ErrorLog { ErrorLog(events: errorEvents) }

    private var current: AccessLogEvent { accessEvents[accessEvents.count - 1] }

    private mutating func closeWatching(at now: Date?) {
        defer { playingSince = nil }
        guard open, let playingSince, let now else { return }
        accessEvents[accessEvents.count - 1].durationWatched += .seconds(max(0, now.timeIntervalSince(playingSince)))
    }

    /// A request the player made besides the movie's failed (a pre-roll ad's tracking beacon):
    /// an error entry of its own.
    /// - Returns: The event to publish.
    mutating func requestFailed(_ event: ErrorLogEvent) -> [PlayerEvent] {
        addError(event)
    }

    private mutating func addError(_ event: ErrorLogEvent) -> [PlayerEvent] {
        errorEvents.append(event)
        if errorEvents.count > Self.capacity { errorEvents.removeFirst() }
        return [.errorLogEntryAdded(event)]
    }
}
