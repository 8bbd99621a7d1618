/// One `<Tracking>` of a linear creative: a URI template to call when ``event`` happens.
public struct VASTTrackingEvent: Sendable, Hashable {
    /// When the URI is called.
    public var event: VASTEvent
    /// For ``VASTEvent/progress``: the point of the ad it is called at; nil otherwise (and for
    /// a progress event whose offset is missing or unreadable, which is never fired).
    public var offset: VASTOffset?
    /// The URI template, trimmed, macros not yet replaced.
    public var uri: String

    /// A tracking event.
    /// - Parameters:
    ///   - event: When the URI is called.
    ///   - offset: The point of the ad, for progress events.
    ///   - uri: The URI template.
    public init(event: VASTEvent, offset: VASTOffset? = nil, uri: String) {
        self.event = event
        self.offset = offset
        self.uri = uri
    }
}
