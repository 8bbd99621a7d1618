import MediaEngineCore

/// What a broken HLS playlist or DASH manifest becomes: `MediaError.Code.invalidPlaylist`.
///
/// GStreamer reports a playlist it cannot parse as a damaged stream (`hlsdemux`: "Invalid
/// playlist", `dashdemux`: "Invalid manifest"), segments that are not media as a stream of unknown
/// type, and an empty or HTML answer at a manifest's URL as content that is not a movie. For a
/// stream these all mean the same to the app: the playlist does not lead to a movie. HTTP
/// failures (a missing playlist or segment: `MediaError.Code.fileNotFound` with its status)
/// are left as they are.
enum PlaylistErrors {
    /// The demuxers whose content errors are about the playlist and its segments.
    private static let adaptiveDemuxers = ["hlsdemux", "dashdemux", "mssdemux"]

    /// The playlist error for `error`, or nil when it is not one.
    /// - Parameters:
    ///   - error: The error the engine reported.
    ///   - manifestURL: Whether the source's URL names a manifest (`.m3u8`, `.mpd`, or the app's hint).
    static func interpret(_ error: MediaError, manifestURL: Bool) -> MediaError? {
        let contentCodes: [MediaError.Code] = [.notAMovie, .corruptContainer, .emptyFile, .truncatedMovie]
        guard error.httpStatusCode == nil, contentCodes.contains(error.code) else { return nil }
        let fromDemuxer = error.element.map { name in adaptiveDemuxers.contains { name.hasPrefix($0) } } ?? false
        guard fromDemuxer || manifestURL else { return nil }
        let reason =
            switch error.code {
            case .notAMovie where fromDemuxer: "its segments are not media GStreamer recognises"
            case .notAMovie, .emptyFile: "the server's answer is not a playlist"
            default: "it cannot be read"
            }
        var playlist = error
        playlist.code = .invalidPlaylist
        playlist.message = "the playlist is invalid: \(reason) (\(error.message))"
        return playlist
    }
}
