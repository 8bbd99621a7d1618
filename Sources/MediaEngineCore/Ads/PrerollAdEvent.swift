import Foundation

/// Something that happened to a pre-roll ad (``PlayerEvent/prerollAd(_:)``), in order: it
/// started, passed its quartiles, was paused, resumed, became skippable, was skipped or clicked,
/// and finished. Ad time is never the content's: these events carry the ad's own times.
public enum PrerollAdEvent: Sendable, Hashable, CustomStringConvertible {
    /// The ad's first frame is showing; what the ad server said about it.
    case started(PrerollAdInfo)
    /// The ad passed a quarter, half or three quarters of its duration.
    case progressed(AdQuartile)
    /// `pause()` paused the ad.
    case paused
    /// `resumeAd()` resumed it.
    case resumed
    /// The ad's skip offset passed: `skipAd()` may end it now.
    case skippable
    /// `skipAd()` ended it.
    case skipped
    /// The viewer asked for the advertiser's page (`requestAdClickThrough()`): the app opens it.
    case clickThroughRequested(URL)
    /// The ad finished: how, and the error when it failed. The content follows (or waits for
    /// `play()`, after a failure or when the request said so).
    case finished(PrerollAdFinishReason, PrerollAdError?)

    /// The event in a form for logs, for example `started(ad 1 of 2, 10.000s)`.
    public var description: String {
        switch self {
        case .started(let info): "started(\(info))"
        case .progressed(let quartile): "progressed(\(quartile))"
        case .paused: "paused"
        case .resumed: "resumed"
        case .skippable: "skippable"
        case .skipped: "skipped"
        case .clickThroughRequested(let url): "clickThroughRequested(\(url.absoluteString))"
        case .finished(let reason, let error):
            error.map { "finished(\(reason), \($0.code.rawValue))" } ?? "finished(\(reason))"
        }
    }
}

/// A quarter of an ad's duration passed (VAST's firstQuartile, midpoint and thirdQuartile);
/// earlier quartiles sort first.
public enum AdQuartile: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A quarter of the duration played (VAST `firstQuartile`, ``fraction`` 0.25).
    case firstQuartile
    /// Half of the duration played (VAST `midpoint`, ``fraction`` 0.5).
    case midpoint
    /// Three quarters of the duration played (VAST `thirdQuartile`, ``fraction`` 0.75).
    case thirdQuartile

    /// Earlier quartiles first.
    public static func < (left: AdQuartile, right: AdQuartile) -> Bool {
        left.fraction < right.fraction
    }

    /// The share of the ad's duration: 0.25, 0.5 or 0.75.
    public var fraction: Double {
        switch self {
        case .firstQuartile: 0.25
        case .midpoint: 0.5
        case .thirdQuartile: 0.75
        }
    }
}

/// Why a pre-roll ad finished.
public enum PrerollAdFinishReason: String, Sendable, Hashable {
    /// It played to its end.
    case completed
    /// `skipAd()` ended it after its skip offset.
    case skipped
    /// The app started the content (`play()`) during the ad, which stops the ad at once
    /// (MPMoviePlayerController's rule); no complete beacon is sent.
    case userStartedContent
    /// `stop()`, a new source or the player's release ended it.
    case stopped
    /// It could not be fetched, chosen or played (the error says why).
    case failed
}

/// What the ad server said about an ad that started.
public struct PrerollAdInfo: Sendable, Hashable, CustomStringConvertible {
    /// The ad's id in its VAST document.
    public var id: String?
    /// The ad's title.
    public var title: String?
    /// Its duration: the media's own, or the VAST `Duration` when the media does not say.
    public var duration: Duration?
    /// When `skipAd()` may end it; nil for an ad that cannot be skipped.
    public var skipOffset: Duration?
    /// The advertiser's page, its macros replaced as at the ad's start (a click asks
    /// `requestAdClickThrough()` for the page with the values of that moment).
    public var clickThrough: URL?
    /// The media file played.
    public var mediaURL: URL
    /// Its place in an ad pod: 1 for the first (or only) ad.
    public var position: Int
    /// How many ads the pod plays (1 for a single ad).
    public var count: Int

    /// Creates the description of an ad (the pre-roll source makes these from the VAST document;
    /// tests and apps that play ads of their own may too).
    /// - Parameters:
    ///   - id: The ad's `id` attribute, if it has one.
    ///   - title: The `AdTitle`, if any.
    ///   - duration: The ad's length, if known.
    ///   - skipOffset: How far into the ad `skipAd()` may end it; nil when it cannot be skipped.
    ///   - clickThrough: The advertiser's page, if any.
    ///   - mediaURL: The media file that plays.
    ///   - position: Its place in its pod, from 1.
    ///   - count: How many ads the pod has, 1 or more.
    public init(
        id: String?, title: String?, duration: Duration?, skipOffset: Duration?, clickThrough: URL?, mediaURL: URL,
        position: Int = 1, count: Int = 1
    ) {
        self.id = id
        self.title = title
        self.duration = duration
        self.skipOffset = skipOffset
        self.clickThrough = clickThrough
        self.mediaURL = mediaURL
        self.position = position
        self.count = count
    }

    /// `ad 1 of 2, 10.000s`, with the title when there is one.
    public var description: String {
        var text = "ad \(position) of \(count)"
        if let title { text += " \"\(title)\"" }
        if let duration { text += ", \(duration.formattedSeconds)" }
        return text
    }
}
