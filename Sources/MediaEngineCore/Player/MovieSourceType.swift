/// Where a movie comes from; MPMovieSourceType's equivalent.
public enum MovieSourceType: String, Sendable, Hashable, CustomStringConvertible {
    /// Not known yet.
    case unknown
    /// A local file.
    case file
    /// A network stream (progressive HTTP, HLS, ...).
    case streaming

    /// The type's name.
    public var description: String { rawValue }
}
