import Foundation

/// A linear ad ready to play: the inline ad at the end of its wrapper chain, with every
/// wrapper's impression, error, tracking and click-tracking URI templates merged in (the
/// wrappers' first, outermost first, then the inline ad's own), so that calling them reaches
/// every ad server on the way.
public struct ResolvedAd: Sendable, Hashable {
    /// The inline ad's `id`.
    public var id: String?
    /// The ad's place in its ad pod: the `sequence` of the ad in the first document (the one
    /// that made the pod), else the inline ad's; nil for a stand-alone ad.
    public var sequence: Int?
    /// The inline ad's `<AdSystem>`.
    public var adSystem: String?
    /// The inline ad's `<AdTitle>`.
    public var title: String?
    /// The linear creative's `id`.
    public var creativeID: String?
    /// The ad's length as the document says (`<Duration>`); nil when missing or unreadable.
    public var duration: Duration?
    /// When the ad may be skipped; nil when it may not (see ``skipTime``).
    public var skipOffset: VASTOffset?
    /// The linear creative's media files, in the document's order (see ``mediaFile(supportedTypes:preferredSize:preferredBitrate:)``).
    public var mediaFiles: [VASTMediaFile]
    /// Where a click on the ad leads: the inline ad's `<ClickThrough>` URI template (its
    /// macros, such as `[CACHEBUSTING]`, are replaced at the click: `AdTracker.clickThrough()`).
    public var clickThrough: String?
    /// The `<Impression>` URI templates, merged.
    public var impressions: [String]
    /// The `<Error>` URI templates, merged.
    public var errors: [String]
    /// The `<Tracking>` events, merged.
    public var tracking: [VASTTrackingEvent]
    /// The `<ClickTracking>` URI templates, merged.
    public var clickTracking: [String]
    /// The URLs of the documents read to reach the ad, first (the ad tag) to last (the inline
    /// ad's); empty for a document given as data with no base URL and no wrapper.
    public var documentURLs: [URL]

    /// A resolved ad.
    /// - Parameters:
    ///   - id: The inline ad's `id`.
    ///   - sequence: Its place in the ad pod.
    ///   - adSystem: `<AdSystem>`.
    ///   - title: `<AdTitle>`.
    ///   - creativeID: The linear creative's `id`.
    ///   - duration: The ad's length.
    ///   - skipOffset: When the ad may be skipped.
    ///   - mediaFiles: The media files.
    ///   - clickThrough: Where a click leads (a URI template).
    ///   - impressions: The impression URI templates.
    ///   - errors: The error URI templates.
    ///   - tracking: The tracking events.
    ///   - clickTracking: The click-tracking URI templates.
    ///   - documentURLs: The documents read to reach the ad.
    public init(
        id: String? = nil, sequence: Int? = nil, adSystem: String? = nil, title: String? = nil,
        creativeID: String? = nil, duration: Duration? = nil, skipOffset: VASTOffset? = nil,
        mediaFiles: [VASTMediaFile] = [], clickThrough: String? = nil, impressions: [String] = [],
        errors: [String] = [],
        tracking: [VASTTrackingEvent] = [], clickTracking: [String] = [], documentURLs: [URL] = []
    ) {
        self.id = id
        self.sequence = sequence
        self.adSystem = adSystem
        self.title = title
        self.creativeID = creativeID
        self.duration = duration
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.clickThrough = clickThrough
        self.impressions = impressions
        self.errors = errors
        self.tracking = tracking
        self.clickTracking = clickTracking
        self.documentURLs = documentURLs
    }

    /// The URI templates of one tracking event, in order.
    /// - Parameter event: The event.
    /// - Returns: The templates (for ``VASTEvent/progress``, every offset's).
    public func trackingURIs(for event: VASTEvent) -> [String] {
        tracking.filter { $0.event == event }.map(\.uri)
    }

    /// When the ad may be skipped, from its start: ``skipOffset`` for an ad of ``duration``;
    /// nil when it may not be skipped, or when the offset is a percentage and the duration
    /// unknown.
    public var skipTime: Duration? {
        switch skipOffset {
        case .time(let time)?: time
        case .percent?: duration.flatMap { skipOffset?.duration(in: $0) }
        case nil: nil
        }
    }
}
