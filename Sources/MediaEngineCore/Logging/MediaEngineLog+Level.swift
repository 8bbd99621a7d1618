internal import CMediaEngineCGStreamer

extension MediaEngineLog {
    /// How severe a record is: swift-log's levels, with the same names and raw values, so that
    /// `Logger.Level(rawValue: level.rawValue)` converts one into the other.
    ///
    /// GStreamer's levels arrive as: ERROR `error`, WARNING `warning`, FIXME `notice`, INFO
    /// `info`, DEBUG `debug`, LOG, TRACE and MEMDUMP `trace` (the record's `gst.level` metadata
    /// keeps GStreamer's own name).
    public enum Level: String, Sendable, Hashable, CaseIterable, Comparable {
        /// The finest detail: every bus message a player handles, GStreamer's LOG and TRACE.
        case trace
        /// What a developer follows a decision with: each decision's events and actions.
        case debug
        /// Something that happened as expected: a workaround switched on or off.
        case info
        /// A normal but significant condition (GStreamer's FIXME messages).
        case notice
        /// Something went wrong that the engine or the app can live with.
        case warning
        /// An error.
        case error
        /// An error the process may not survive.
        case critical

        /// Its rank: `trace` 0 to `critical` 6.
        var rank: Int {
            switch self {
            case .trace: 0
            case .debug: 1
            case .info: 2
            case .notice: 3
            case .warning: 4
            case .error: 5
            case .critical: 6
            }
        }

        /// The level of rank `rank` (clamped).
        init(rank: Int) {
            self = Self.allCases[min(max(rank, 0), Self.allCases.count - 1)]
        }

        /// Orders by severity: `trace` < `debug` < ... < `critical`.
        /// - Parameters:
        ///   - lhs: A level.
        ///   - rhs: Another.
        /// - Returns: Whether `lhs` is less severe.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }

        /// The level of a GStreamer debug message.
        init(gstreamer level: Int32) {
            switch GstDebugLevel(rawValue: UInt32(clamping: max(level, 0))) {
            case GST_LEVEL_ERROR: self = .error
            case GST_LEVEL_WARNING: self = .warning
            case GST_LEVEL_FIXME: self = .notice
            case GST_LEVEL_INFO: self = .info
            case GST_LEVEL_DEBUG: self = .debug
            default: self = level <= 0 ? .error : .trace
            }
        }

        /// The GStreamer threshold that lets messages of this level and more severe through.
        var gstreamerThreshold: GstDebugLevel {
            switch self {
            case .trace: GST_LEVEL_TRACE
            case .debug: GST_LEVEL_DEBUG
            case .info: GST_LEVEL_INFO
            case .notice: GST_LEVEL_FIXME
            case .warning: GST_LEVEL_WARNING
            case .error, .critical: GST_LEVEL_ERROR
            }
        }
    }
}
