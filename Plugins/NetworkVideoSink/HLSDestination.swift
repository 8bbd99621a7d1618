import Foundation
import MediaEngineCore

/// HTTP Live Streaming written into a folder: MPEG-TS segments and a playlist that any HTTP
/// server can serve (hlssink2). The playlist lists the latest ``playlistLength`` segments as they
/// are written, and is closed with `#EXT-X-ENDLIST` when the movie ends.
///
/// A segment is listed once the one after it is whole (hlssink2's splitmuxsink reads a keyframe
/// interval ahead), so a live playlist trails playback by one to two target durations. When the
/// player moves its video elsewhere, the output is shut down without an end of stream: the
/// playlist is closed, but the segments not listed yet stay out of it. Each output made numbers
/// its segments from `segment00000.ts` again, so give each session a folder of its own.
public struct HLSDestination: Sendable, Hashable {
    /// The folder the playlist and segments go into; it must exist and be writable.
    public var folder: URL
    /// The segments' length in seconds (1-60): each segment starts with a keyframe, which the
    /// encoder is asked for when a segment is due.
    public var targetDuration: Int
    /// How many segments the playlist lists (a live window); 0 lists them all, as a whole movie
    /// (video on demand) would.
    public var playlistLength: Int
    /// How many segment files to keep on disk, older ones being deleted; 0 keeps them all. nil:
    /// all of them when the playlist lists all, otherwise the playlist's length plus 3, so a
    /// client that read the playlist a little earlier still finds its segments.
    public var maximumFiles: Int?
    /// The playlist's file name in the folder (letters, digits, `.`, `-`, `_`).
    public var playlistName: String
    /// Whether frames are written at playback speed (true, the default: a live stream of what
    /// plays) or as fast as they are encoded (false: the movie is converted as fast as the
    /// machine can; the player then leaves the sound out, as with any output not paced by the clock).
    public var synchronized: Bool

    /// Creates a destination.
    /// - Parameters:
    ///   - folder: An existing, writable folder.
    ///   - targetDuration: Segment length in seconds.
    ///   - playlistLength: Segments in the playlist; 0 for all.
    ///   - maximumFiles: Segment files kept; 0 for all, nil for the default.
    ///   - playlistName: The playlist's file name.
    ///   - synchronized: Whether to write at playback speed.
    public init(
        folder: URL, targetDuration: Int = 2, playlistLength: Int = 5, maximumFiles: Int? = nil,
        playlistName: String = "playlist.m3u8", synchronized: Bool = true
    ) {
        self.folder = folder
        self.targetDuration = targetDuration
        self.playlistLength = playlistLength
        self.maximumFiles = maximumFiles
        self.playlistName = playlistName
        self.synchronized = synchronized
    }

    /// The playlist's URL.
    public var playlist: URL { folder.appendingPathComponent(playlistName) }

    /// The segment files' names: `segment00000.ts`, `segment00001.ts`, ...
    public static let segmentPattern = "segment%05d.ts"

    /// The checked folder's absolute path.
    func checkedFolder() throws(MediaError) -> String {
        try LaunchSyntax.checkedPath(folder.path, option: "folder")
    }

    /// The element factories of ``launchLine(encoder:)``, in its order, around the encoder's.
    static func elements(encoder: [String]) -> [String] {
        ["tee", "queue"] + encoder + ["h264parse", "hlssink2", "fakesink", "fakesrc"]
    }

    /// `tee ! queue ! h264 encoding ! h264parse ! hlssink2` with, for playback speed, a
    /// `fakesink sync=true` on the tee's other branch, and an idle `fakesrc`; checked.
    /// hlssink2's own file sinks do not wait for the clock, and the elements that could make a
    /// chain wait for it (identity or clocksync with sync=true) tell the pipeline it is live, which
    /// a player's pipeline must not be; a synchronized fakesink holds the tee to the clock as any
    /// video sink would, and the queue lets the encoder work beside it.
    /// - Parameter encoder: `videoconvert ! x264enc ...`.
    func launchLine(encoder: String) throws(MediaError) -> String {
        let folder = try checkedFolder()
        guard (1...60).contains(targetDuration) else {
            throw MediaError(.invalidArgument, "target-duration=\(targetDuration): from 1 to 60 seconds")
        }
        guard (0...100_000).contains(playlistLength) else {
            throw MediaError(.invalidArgument, "playlist-length=\(playlistLength): from 0 (all) to 100000")
        }
        let files = maximumFiles ?? (playlistLength == 0 ? 0 : playlistLength + 3)
        guard (0...1_000_000).contains(files) else {
            throw MediaError(.invalidArgument, "max-files=\(files): from 0 (all) to 1000000")
        }
        if playlistLength > 0 && files > 0 && files < playlistLength {
            throw MediaError(
                .invalidArgument,
                "max-files=\(files) would delete segments the playlist still lists (playlist-length=\(playlistLength))")
        }
        guard LaunchSyntax.isPlainFileName(playlistName) else {
            throw MediaError(
                .invalidArgument, "playlist=\(playlistName): a file name of letters, digits, '.', '-' and '_'")
        }
        // hlssink2 formats the segments' location with printf: a `%` of the folder's own is doubled.
        let segments = folder.replacingOccurrences(of: "%", with: "%%") + "/" + Self.segmentPattern
        let playlist = folder + "/" + playlistName
        return "tee name=split ! queue ! \(encoder) ! h264parse ! hlssink2 location=\(LaunchSyntax.quoted(segments)) "
            + "playlist-location=\(LaunchSyntax.quoted(playlist)) target-duration=\(targetDuration) "
            + "playlist-length=\(playlistLength) max-files=\(files) "
            + "split. ! fakesink sync=\(synchronized) qos=false "
            // A bin description's first unlinked source pad becomes the bin's output, searched
            // from the last element back and into child bins: without this idle source,
            // hlssink2's muxer (linked to its file sink only when it starts) would be taken,
            // and splitmuxsink could not link it ("Failed to link muxer and sink").
            + "fakesrc num-buffers=0"
    }

    /// Refuses a folder that is not there or not writable, before any pipeline uses it.
    func checkFolderIsWritable() throws(MediaError) {
        let path = try checkedFolder()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw MediaError(.fileNotFound, "folder=\(path) is not an existing folder")
        }
        // access(2): a read-only file system refuses root too.
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw MediaError(.permissionDenied, "folder=\(path) is not writable")
        }
    }
}
