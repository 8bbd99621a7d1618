/// The kinds of streams a movie has; MPMovieMediaTypeMask's equivalent.
public struct MovieMediaTypes: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The set's bits: ``video`` is 1, ``audio`` 2.
    public let rawValue: Int
    /// Creates media types from their raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// At least one video stream.
    public static let video = MovieMediaTypes(rawValue: 1 << 0)
    /// At least one audio stream.
    public static let audio = MovieMediaTypes(rawValue: 1 << 1)

    /// The names of the members, for example `["video", "audio"]`.
    public var names: [String] {
        [(MovieMediaTypes.video, "video"), (.audio, "audio")].filter { contains($0.0) }.map(\.1)
    }

    /// The names joined, for example `[video, audio]`.
    public var description: String { "[" + names.joined(separator: ", ") + "]" }
}
