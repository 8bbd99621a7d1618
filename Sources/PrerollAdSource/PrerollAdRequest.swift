import Foundation
public import MediaEngineCore

/// What `MoviePlayer.playPrerollAd(_:)` plays: where the ad comes from, and the rules it plays by.
public struct PrerollAdRequest: Sendable {
    /// Where the VAST document comes from.
    public enum Origin: Sendable {
        /// An ad tag: the ad server's URL, fetched with the request's timeout and user agent.
        case tag(URL)
        /// A VAST document the app already has (its wrappers are still fetched).
        case document(Data)
    }

    /// Where the VAST document comes from.
    public var origin: Origin
    /// How long fetching each VAST document (the tag and every wrapper) may take (VAST 301 after).
    public var timeout: Duration = .seconds(5)
    /// How long the chosen media file may take to show its first frame (VAST 402 after).
    public var mediaTimeout: Duration = .seconds(10)
    /// The User-Agent header of the VAST requests and beacons.
    public var userAgent = "swift-media-engine"
    /// How many wrappers may lead to the inline ad (VAST 302 beyond).
    public var maximumWrapperDepth = 5
    /// Play every ad of an ad pod in sequence (true), or only the first (false, the default).
    public var playsWholePod = false
    /// The MIME types of media files the engine may choose (progressive delivery only).
    /// The default: the containers GStreamer's demuxers in the engine's Debian packages read.
    public var supportedMediaTypes: Set<String> = [
        "video/mp4", "video/webm", "video/ogg", "video/x-matroska", "video/quicktime", "video/x-flv", "video/3gpp",
        "video/mp2t",
    ]
    /// The output size media files are chosen for (closest in size); nil: the largest that fits
    /// the bitrate.
    public var preferredSize: VideoSize?
    /// The bitrate media files are chosen for (kbit/s, closest); nil: no preference.
    public var preferredBitrate: Int?
    /// The frequency cap the ad counts against; nil for none.
    public var frequencyCap: FrequencyCap?
    /// What happens after the ad: the content plays at once, through the same output (the
    /// default), or waits, prepared and paused, for the app's `play()`.
    public var playsContentAfterAd = true

    /// A request for the ad tag at `url`.
    public init(adTag url: URL) {
        origin = .tag(url)
    }

    /// A request for a VAST document the app already has.
    public init(vast document: Data) {
        origin = .document(document)
    }
}
