import Foundation
public import MediaEngineCore

/// Fires one ad's beacons as the player reports what happens to it: impression, quartiles and
/// progress offsets, pause and resume, mute and unmute, skip, close, completion, clicks and
/// errors, each with its macros replaced (the ad playhead being the last time
/// ``progress(to:)`` reported).
///
/// The rules VAST sets, kept here so that the player side only reports:
/// - ``impression()`` fires the impressions, `creativeView` and `start` once.
/// - Quartiles and each `progress` offset fire once, when playback reaches them, however late
///   or far apart the reports come (a jump past several fires them all).
/// - `pause`, `resume`, `mute`, `unmute` and click tracking fire each time.
/// - After `skip`, `close` or `complete` (whichever came first) the ad has ended: no more
///   progress, and no `complete` after a skip or a close.
/// - Error URIs fire once, and only for errors VAST has a code for.
///
/// Threads: every method may be called from any thread; the state is behind a `Mutex`, and
/// the beacons go out through the ``BeaconSender`` without waiting.
public final class AdTracker: Sendable {
    /// How an ad ended.
    private enum Ending {
        case skipped, closed, completed
    }

    private struct State {
        var impressionSent = false
        var quartiles: Set<AdQuartile> = []
        /// Indexes in the ad's tracking of the progress events fired.
        var progressFired: Set<Int> = []
        var playhead: Duration = .zero
        var ending: Ending?
        var errorSent = false
    }

    /// The ad tracked.
    public let ad: ResolvedAd
    /// The media file played (`[ASSETURI]`).
    public let mediaFileURL: URL?
    /// Where the content is while the ad plays (`[CONTENTPLAYHEAD]`): zero for a pre-roll.
    public let contentPlayhead: Duration?
    /// The duration quartiles and percentage offsets are computed from.
    public let adDuration: Duration?
    private let beacons: BeaconSender
    private let state = Locked(State())

    /// A tracker for one playback of an ad.
    /// - Parameters:
    ///   - ad: The ad.
    ///   - mediaFileURL: The media file played, for `[ASSETURI]`.
    ///   - contentPlayhead: Where the content is, for `[CONTENTPLAYHEAD]` (`-1` when nil).
    ///   - adDuration: The ad's real duration when the player knows it; nil for the document's
    ///     ``ResolvedAd/duration``. With neither, no quartile fires.
    ///   - beacons: The sender.
    public init(
        ad: ResolvedAd, mediaFileURL: URL?, contentPlayhead: Duration? = .zero, adDuration: Duration? = nil,
        beacons: BeaconSender
    ) {
        self.ad = ad
        self.mediaFileURL = mediaFileURL
        self.contentPlayhead = contentPlayhead
        self.adDuration = adDuration ?? ad.duration
        self.beacons = beacons
    }

    /// The ad started showing: fires the impressions, `creativeView` and `start`, once.
    public func impression() {
        let (first, playhead) = state.withLock { state in
            defer { state.impressionSent = true }
            return (!state.impressionSent, state.playhead)
        }
        guard first else { return }
        fire(ad.impressions, "impression", at: playhead)
        fire(ad.trackingURIs(for: .creativeView), VASTEvent.creativeView.rawValue, at: playhead)
        fire(ad.trackingURIs(for: .start), VASTEvent.start.rawValue, at: playhead)
    }

    /// Playback of the ad reached `adTime`: fires every quartile and `progress` offset reached
    /// and not fired yet (nothing once the ad has ended).
    /// - Parameter adTime: Where the ad is, from its start.
    /// - Returns: The quartiles crossed by this report, earliest first, for the caller to
    ///   publish.
    @discardableResult
    public func progress(to adTime: Duration) -> [AdQuartile] {
        let (quartiles, progress) = state.withLock { state -> ([AdQuartile], [Int]) in
            guard state.ending == nil else { return ([], []) }
            state.playhead = max(state.playhead, adTime)
            var quartiles: [AdQuartile] = []
            if let adDuration, adDuration > .zero {
                for quartile in AdQuartile.allCases
                where !state.quartiles.contains(quartile) && adTime >= adDuration * quartile.fraction {
                    state.quartiles.insert(quartile)
                    quartiles.append(quartile)
                }
            }
            var progress: [Int] = []
            for (index, event) in ad.tracking.enumerated()
            where event.event == .progress && !state.progressFired.contains(index) {
                guard let offset = event.offset else { continue }
                let time: Duration
                switch offset {
                case .time(let value): time = value
                case .percent:
                    guard let adDuration else { continue }
                    time = offset.duration(in: adDuration)
                }
                if adTime >= time {
                    state.progressFired.insert(index)
                    progress.append(index)
                }
            }
            return (quartiles, progress)
        }
        for quartile in quartiles {
            fire(ad.trackingURIs(for: quartile.event), quartile.event.rawValue, at: adTime)
        }
        if !progress.isEmpty {
            fire(progress.map { ad.tracking[$0].uri }, VASTEvent.progress.rawValue, at: adTime)
        }
        return quartiles
    }

    /// The user paused the ad: fires `pause` (each time).
    public func paused() {
        fireEachTime(.pause)
    }

    /// The user resumed the ad: fires `resume` (each time).
    public func resumed() {
        fireEachTime(.resume)
    }

    /// The user muted the ad: fires `mute` (each time).
    public func muted() {
        fireEachTime(.mute)
    }

    /// The user unmuted the ad: fires `unmute` (each time).
    public func unmuted() {
        fireEachTime(.unmute)
    }

    /// The user skipped the ad: fires `skip`, unless the ad has already ended; it has then.
    public func skipped() {
        guard let playhead = end(.skipped) else { return }
        fire(ad.trackingURIs(for: .skip), VASTEvent.skip.rawValue, at: playhead)
    }

    /// The user closed the ad: fires `close` and `closeLinear`, unless the ad has already
    /// ended; it has then.
    public func closed() {
        guard let playhead = end(.closed) else { return }
        fire(ad.trackingURIs(for: .close), VASTEvent.close.rawValue, at: playhead)
        fire(ad.trackingURIs(for: .closeLinear), VASTEvent.closeLinear.rawValue, at: playhead)
    }

    /// The ad played to its end: fires the quartiles and progress offsets not fired yet (the
    /// last report may have come before them), then `complete`, once, unless the ad was
    /// skipped or closed.
    /// - Returns: The quartiles crossed now, earliest first.
    @discardableResult
    public func completed() -> [AdQuartile] {
        let end = state.withLock { state in state.ending == nil ? max(state.playhead, adDuration ?? .zero) : nil }
        guard let end else { return [] }
        let quartiles = progress(to: end)
        guard let playhead = self.end(.completed) else { return quartiles }
        fire(ad.trackingURIs(for: .complete), VASTEvent.complete.rawValue, at: playhead)
        return quartiles
    }

    /// The user clicked the ad: fires its click tracking (each time).
    /// - Returns: Where the click leads, for the app to open: ``ResolvedAd/clickThrough`` with
    ///   its macros replaced as in the beacons (the ad playhead now, a new cache-busting
    ///   number); nil when the ad has none, or it is not an `http` or `https` URL.
    public func clickThrough() -> URL? {
        let playhead = state.withLock { $0.playhead }
        fire(ad.clickTracking, "clickTracking", at: playhead)
        return ad.clickThrough.flatMap { macros(at: playhead).url($0) }
    }

    /// The ad failed: fires its Error URIs with `[ERRORCODE]` set to the error's VAST code,
    /// once; nothing for an error VAST has no code for (`PrerollAdError.vastErrorCode` nil).
    /// - Parameter error: What went wrong.
    public func failed(_ error: PrerollAdError) {
        guard let code = error.vastErrorCode else { return }
        let (first, playhead) = state.withLock { state in
            defer { state.errorSent = true }
            return (!state.errorSent, state.playhead)
        }
        guard first else { return }
        beacons.fire(templates: ad.errors, event: "error", macros: macros(at: playhead, errorCode: code))
    }

    /// Reports a failed resolution to the ad servers: fires its Error URIs, and those of the
    /// other failures it carries, each with its own error's VAST code (nothing for one without).
    /// - Parameters:
    ///   - failure: What ``VASTClient/resolveReportingErrors(tag:)`` threw, or one of a
    ///     resolution's ``VASTResolution/failures``.
    ///   - contentPlayhead: Where the content is (`[CONTENTPLAYHEAD]`).
    ///   - beacons: The sender.
    public static func fireErrors(
        of failure: VASTResolutionFailure, contentPlayhead: Duration? = .zero, using beacons: BeaconSender
    ) {
        if let code = failure.error.vastErrorCode {
            beacons.fire(
                templates: failure.errorURIs, event: "error",
                macros: VASTMacros(errorCode: code, contentPlayhead: contentPlayhead))
        }
        for other in failure.otherFailures {
            fireErrors(of: other, contentPlayhead: contentPlayhead, using: beacons)
        }
    }

    /// Marks the ad ended; nil when it already had, else the playhead.
    private func end(_ ending: Ending) -> Duration? {
        state.withLock { state in
            guard state.ending == nil else { return nil }
            state.ending = ending
            return state.playhead
        }
    }

    private func fireEachTime(_ event: VASTEvent) {
        fire(ad.trackingURIs(for: event), event.rawValue, at: state.withLock { $0.playhead })
    }

    private func fire(_ templates: [String], _ event: String, at playhead: Duration) {
        guard !templates.isEmpty else { return }
        beacons.fire(templates: templates, event: event, macros: macros(at: playhead))
    }

    private func macros(at playhead: Duration, errorCode: Int? = nil) -> VASTMacros {
        VASTMacros(errorCode: errorCode, contentPlayhead: contentPlayhead, adPlayhead: playhead, assetURI: mediaFileURL)
    }
}
