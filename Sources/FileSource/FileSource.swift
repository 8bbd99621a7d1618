import Foundation
import MediaEngineCore

#if canImport(Glibc)
    import Glibc
#endif

/// A movie in a local file, checked before any pipeline is built.
///
/// ``validate()`` tells apart what GStreamer would report alike or not at all: a missing file,
/// one this process may not read, a directory, a FIFO or device (which would block GStreamer
/// forever), an empty file. After a failure, ``interpret(_:)`` looks at the file's container
/// structure to tell a truncated movie from a corrupt one. Content is judged by its bytes,
/// never by the file's extension.
public struct FileSource: MediaSource {
    /// The file's absolute path.
    public let path: String

    /// A file at a path (relative paths are resolved against the current directory).
    /// - Parameter path: The file's path.
    public init(path: String) {
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A file at a `file:` URL.
    /// - Parameter url: The file's URL; other schemes fail ``validate()`` with `MediaError.Code.invalidArgument`.
    public init(url: URL) {
        self.path = url.isFileURL ? url.standardizedFileURL.path : url.absoluteString
        self.isFileURL = url.isFileURL
    }

    private var isFileURL = true

    /// `file://` followed by the path with every byte outside RFC 3986's unreserved set
    /// (and `/`) percent-encoded, so spaces, `%`, `#`, `?` and non-ASCII names survive.
    public var uri: String { FileURI.make(path: path) }

    /// `MovieSourceType.file`.
    public var sourceType: MovieSourceType { .file }

    /// Refuses what cannot be a playable file.
    /// - Throws: `MediaError` with code `MediaError.Code.fileNotFound`, `MediaError.Code.permissionDenied`,
    ///   `MediaError.Code.isDirectory`, `MediaError.Code.notRegularFile`, `MediaError.Code.emptyFile`
    ///   or `MediaError.Code.invalidArgument` (a URL that is not a file URL).
    public func validate() throws(MediaError) {
        guard isFileURL else {
            throw MediaError(.invalidArgument, "'\(path)' is not a file URL")
        }
        _ = try LocalFile.check(path, kind: "movie file")
    }

    /// Turns a container error into `MediaError.Code.truncatedMovie` when the file's own
    /// structure says it is cut short (an MP4 box or Matroska segment running past the end, or a
    /// sample or cluster the tables place past it), and names how much is present when the
    /// tables tell.
    /// - Parameter error: The error the engine reported.
    /// - Returns: The more precise error, or `error` unchanged.
    public func interpret(_ error: MediaError) -> MediaError {
        guard
            error.code == .corruptContainer || error.code == .streamFailure || error.code == .notAMovie
                || error.code == .truncatedMovie
        else { return error }
        if let truncation = truncation() {
            return MediaError(
                .truncatedMovie, "\(path) is cut short: \(truncation)", debugDetail: error.debugDetail ?? error.message,
                element: error.element)
        }
        guard error.code != .truncatedMovie, ContainerInspector.isTruncated(path: path) else { return error }
        return MediaError(
            .truncatedMovie, "\(path) is cut short: its container runs past the end of the file",
            debugDetail: error.description, element: error.element)
    }

    /// How much of the movie the file holds, from its MP4 sample tables or Matroska clusters;
    /// nil when every frame is present or the container cannot tell.
    /// - Returns: The playable time and the header's duration, or nil.
    public func truncation() -> MovieTruncation? {
        ContainerInspector.truncation(path: path)
    }

    /// The video keyframes of an MP4 or MOV file, from its sample tables (`MP4KeyframeIndex`);
    /// nil for other containers (matroskademux already seeks on its video track's cues).
    /// - Returns: The times, or nil.
    public func videoKeyframeTimes() -> [Duration]? {
        MP4KeyframeIndex.keyframeTimes(path: path)?.map { .nanoseconds($0) }
    }
}
