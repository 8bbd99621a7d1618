import Foundation

/// One entry of a network movie's access log (MPMovieAccessLogEvent): one per playback session
/// (each preparation of a network movie) and per variant switch of an adaptive stream.
public struct AccessLogEvent: Sendable, Hashable {
    /// Tells the entries of one preparation from those of another.
    public var playbackSessionID: String
    /// The URI played: the end of the server's redirects, or the variant's playlist. No user
    /// information.
    public var uri: String
    /// The IP address of the server the movie came from, once resolved.
    public var serverAddress: String?
    /// When playback first started in this entry; nil if it never did.
    public var playbackStartDate: Date?
    /// How long the movie was actually playing (stalls and pauses excluded).
    public var durationWatched: Duration
    /// How many times playback stopped for want of data.
    public var numberOfStalls: Int
    /// Bytes received from the server.
    public var bytesTransferred: Int
    /// The download rate seen, in bits per second; nil before any data.
    public var observedBitrate: Double?
    /// The movie's own bitrate, in bits per second: the variant's declared bandwidth, the
    /// container's bitrate tag, or its size over its duration; nil when unknown.
    public var indicatedBitrate: Double?
    /// Video frames dropped because they came too late (the video sink's QoS reports).
    public var droppedVideoFrames: Int
    /// HTTP requests answered with content (200 or 206) for this entry.
    public var numberOfMediaRequests: Int
    /// Segments of an adaptive stream downloaded (0 for a progressive download).
    public var segmentsDownloaded: Int

    /// An entry that has just begun.
    /// - Parameters:
    ///   - playbackSessionID: The preparation's identifier.
    ///   - uri: The URI played.
    public init(playbackSessionID: String, uri: String) {
        self.playbackSessionID = playbackSessionID
        self.uri = URIRedaction.removingUserInfo(uri)
        durationWatched = .zero
        numberOfStalls = 0
        bytesTransferred = 0
        droppedVideoFrames = 0
        numberOfMediaRequests = 0
        segmentsDownloaded = 0
    }
}

/// One entry of a network movie's error log (MPMovieErrorLogEvent).
public struct ErrorLogEvent: Sendable, Hashable {
    /// When it happened.
    public var date: Date
    /// The URI that failed, without user information.
    public var uri: String
    /// The server's IP address, once resolved.
    public var serverAddress: String?
    /// The HTTP status, when the server answered; nil for a connection that failed.
    public var statusCode: Int?
    /// `HTTP` for a server's error status, else `MediaEngine`.
    public var domain: String
    /// What went wrong, in a sentence (the ``MediaError`` code and message, or the status).
    public var comment: String
    /// The preparation it happened in.
    public var playbackSessionID: String

    /// Creates an entry.
    public init(
        date: Date, uri: String, serverAddress: String? = nil, statusCode: Int?, domain: String, comment: String,
        playbackSessionID: String
    ) {
        self.date = date
        self.uri = URIRedaction.removingUserInfo(uri)
        self.serverAddress = serverAddress
        self.statusCode = statusCode
        self.domain = domain
        self.comment = URIRedaction.redacting(comment)
        self.playbackSessionID = playbackSessionID
    }
}
