/// A `<Creative>` with a `<Linear>`: the video ad itself in an `<InLine>`, or, in a
/// `<Wrapper>`, the tracking and click-tracking URIs the wrapper adds to the ad it leads to.
public struct VASTLinearCreative: Sendable, Hashable {
    /// The creative's `id` attribute.
    public var id: String?
    /// The creative's `sequence` attribute: its order among the ad's creatives.
    public var sequence: Int?
    /// The creative's `adId` attribute (the ad-ID registry's identifier, VAST 3).
    public var adID: String?
    /// The ad's length (`<Duration>`); nil when missing or unreadable (always so in a wrapper).
    public var duration: Duration?
    /// When the ad may be skipped (`skipoffset`); nil when it may not.
    public var skipOffset: VASTOffset?
    /// The renditions (`<MediaFiles><MediaFile>`), in the document's order.
    public var mediaFiles: [VASTMediaFile]
    /// The `<TrackingEvents>`, in the document's order.
    public var tracking: [VASTTrackingEvent]
    /// The `<VideoClicks><ClickThrough>` URI, trimmed.
    public var clickThrough: String?
    /// The `<VideoClicks><ClickTracking>` URI templates, trimmed.
    public var clickTracking: [String]

    /// A linear creative.
    /// - Parameters:
    ///   - id: The creative's `id`.
    ///   - sequence: Its `sequence`.
    ///   - adID: Its `adId`.
    ///   - duration: The ad's length.
    ///   - skipOffset: When the ad may be skipped.
    ///   - mediaFiles: The renditions.
    ///   - tracking: The tracking events.
    ///   - clickThrough: The click-through URI.
    ///   - clickTracking: The click-tracking URI templates.
    public init(
        id: String? = nil, sequence: Int? = nil, adID: String? = nil, duration: Duration? = nil,
        skipOffset: VASTOffset? = nil, mediaFiles: [VASTMediaFile] = [], tracking: [VASTTrackingEvent] = [],
        clickThrough: String? = nil, clickTracking: [String] = []
    ) {
        self.id = id
        self.sequence = sequence
        self.adID = adID
        self.duration = duration
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.tracking = tracking
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
    }
}
