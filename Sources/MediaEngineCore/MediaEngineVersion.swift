/// A version of swift-media-engine, as its tags and CHANGELOG.md number them (semantic versioning:
/// until 1.0.0, a minor version may change the public API; the changelog says how).
///
/// ```swift
/// print("swift-media-engine \(MediaEngineVersion.current)")   // swift-media-engine 0.1.0
/// if MediaEngineVersion.current < MediaEngineVersion(0, 2, 0) { ... }
/// ```
public struct MediaEngineVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version of the engine this program was built with: the newest release in CHANGELOG.md.
    public static let current = MediaEngineVersion(0, 1, 0)

    /// Incremented for changes of the public API that break code written for the previous one.
    public let major: Int
    /// Incremented for additions to the public API (and, before 1.0.0, for changes that break it).
    public let minor: Int
    /// Incremented for fixes that leave the public API as it was.
    public let patch: Int

    /// Creates a version.
    /// - Parameters:
    ///   - major: The major version.
    ///   - minor: The minor version.
    ///   - patch: The patch version.
    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// `MAJOR.MINOR.PATCH`, as in the package's tags (`0.1.0`).
    public var description: String { "\(major).\(minor).\(patch)" }

    /// Whether `lhs` comes before `rhs`: by major, then minor, then patch version.
    /// - Parameters:
    ///   - lhs: A version.
    ///   - rhs: Another version.
    /// - Returns: True when `lhs` is the older.
    public static func < (lhs: MediaEngineVersion, rhs: MediaEngineVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}
