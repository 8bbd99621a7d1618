import Foundation
import MediaEngineCore

/// One ad of a `playPrerollAd` request as it plays: turns what the player reports about it
/// (started, position, paused, ended) into the ad's beacons (``AdTracker``) and the player's
/// `PrerollAdEvent`s, in order, on the player's thread, and keeps how it ended.
final class PrerollAdPlayback: Sendable {
    private struct State {
        var info: PrerollAdInfo
        var started = false
        var skippable = false
        var outcome: Result<PrerollAdFinishReason, PrerollAdError>?
    }

    let ad: ResolvedAd
    let tracker: AdTracker
    /// How long the media's first frame could take (for the timeout's message).
    let mediaTimeout: Duration
    private weak let player: MoviePlayer?
    private let state: Locked<State>

    init(ad: ResolvedAd, info: PrerollAdInfo, tracker: AdTracker, mediaTimeout: Duration, player: MoviePlayer) {
        self.ad = ad
        self.tracker = tracker
        self.mediaTimeout = mediaTimeout
        self.player = player
        state = Locked(State(info: info))
    }

    /// What the ad's info says now (its duration once the media told it).
    var info: PrerollAdInfo { state.withLock { $0.info } }
    /// Whether the ad has shown its first frame (its impression went out).
    var hasStarted: Bool { state.withLock { $0.started } }
    /// Whether the ad has shown its first frame and not ended.
    var isShowing: Bool { state.withLock { $0.started && $0.outcome == nil } }
    /// Whether `skipAd()` may end the ad now.
    var isSkippable: Bool { state.withLock { $0.skippable && $0.outcome == nil } }
    /// How the ad ended: the reason, or the error (not announced yet: `playPrerollAd` does).
    var outcome: Result<PrerollAdFinishReason, PrerollAdError>? { state.withLock { $0.outcome } }

    /// The player's report about the ad, on the player's thread, in order.
    func hear(_ report: PrerollReport) {
        switch report {
        case .started(let duration):
            let info = state.withLock { state in
                state.started = true
                if let duration, duration > .zero { state.info.duration = duration }
                return state.info
            }
            tracker.impression()
            player?.announcePrerollAdEvent(.started(info))
            if info.skipOffset == .zero { becameSkippable() }
        case .position(let position):
            progress(to: position)
        case .paused:
            tracker.paused()
            player?.announcePrerollAdEvent(.paused)
        case .resumed:
            tracker.resumed()
            player?.announcePrerollAdEvent(.resumed)
        case .mutedChanged(let muted):
            if muted { tracker.muted() } else { tracker.unmuted() }
        case .ended(let end, let position):
            ended(end, at: position)
        }
    }

    private func ended(_ end: PrerollEnd, at position: Duration?) {
        let outcome: Result<PrerollAdFinishReason, PrerollAdError>
        switch end {
        case .completed:
            progress(to: info.duration ?? position ?? .zero)
            for quartile in tracker.completed() { player?.announcePrerollAdEvent(.progressed(quartile)) }
            player?.announcePrerollAdEvent(.finished(.completed, nil))
            outcome = .success(.completed)
        case .skipped:
            if let position { progress(to: position) }
            tracker.skipped()
            player?.announcePrerollAdEvent(.skipped)
            player?.announcePrerollAdEvent(.finished(.skipped, nil))
            outcome = .success(.skipped)
        case .contentStarted:
            player?.announcePrerollAdEvent(.finished(.userStartedContent, nil))
            outcome = .success(.userStartedContent)
        case .stopped:
            tracker.closed()
            outcome = .failure(PrerollAdError(.cancelled, "the ad was stopped"))
        case .timedOut:
            let error = PrerollAdError(.mediaTimeout, "the ad's media did not show a frame within \(mediaTimeout)")
            tracker.failed(error)
            outcome = .failure(error)
        case .failed(let mediaError):
            let error = Self.adError(for: mediaError, media: info.mediaURL)
            tracker.failed(error)
            outcome = .failure(error)
        }
        state.withLock { $0.outcome = outcome }
    }

    /// The ad error for a media failure: not found on its server (401), anything else 405.
    static func adError(for error: MediaError, media: URL) -> PrerollAdError {
        let missing = error.code == .fileNotFound || error.httpStatusCode == 404 || error.httpStatusCode == 410
        return missing
            ? PrerollAdError(.mediaFileNotFound, "the ad's media file \(media) was not found", underlying: error)
            : PrerollAdError(.playbackFailed, "the ad's media file \(media) could not be played", underlying: error)
    }

    /// Fires the quartiles passed and announces them, and whether the ad became skippable.
    private func progress(to position: Duration) {
        for quartile in tracker.progress(to: position) {
            player?.announcePrerollAdEvent(.progressed(quartile))
        }
        if let skipOffset = info.skipOffset, position >= skipOffset { becameSkippable() }
    }

    private func becameSkippable() {
        let first = state.withLock { state in
            defer { state.skippable = true }
            return !state.skippable
        }
        if first { player?.announcePrerollAdEvent(.skippable) }
    }
}

/// The ads of one `playPrerollAd` call, for the commands that act on the one showing
/// (`skipAd()`, `requestAdClickThrough()`); the player holds it while the ads play.
final class PrerollAdSession: Sendable {
    let playbacks: [PrerollAdPlayback]

    init(_ playbacks: [PrerollAdPlayback]) {
        self.playbacks = playbacks
    }

    /// The ad showing now, if one is.
    var showing: PrerollAdPlayback? { playbacks.first { $0.isShowing } }

    /// Hands the player's report about item `index` to its ad.
    func hear(_ index: Int, _ report: PrerollReport) {
        guard playbacks.indices.contains(index) else { return }
        playbacks[index].hear(report)
    }
}
