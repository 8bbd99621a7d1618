import Foundation
import MediaEngineCore

/// One `playPrerollAd` call from start to end: the player's readiness, the frequency cap, the
/// VAST resolution, the choice of each ad's media file, the ads through the player (one after
/// another without a gap, then the content), and the outcome.
struct PrerollAdRun {
    let player: MoviePlayer
    let request: PrerollAdRequest

    func run() async throws(PrerollAdError) {
        guard !player.shouldAutoplay, !player.contentWantsToPlay, !player.isPlayingPreroll else {
            throw PrerollAdError(
                .playerBusy,
                "the player is playing, set to autoplay or playing an ad; turn shouldAutoplay off and ask for the ad first"
            )
        }
        // One ad reserved before anything is fetched; each given back below if its ad never starts.
        var reservations: [FrequencyCap.Reservation] = []
        var session: PrerollAdSession?
        if let cap = request.frequencyCap { reservations.append(try cap.reserve()) }
        defer { releaseUnplayed(reservations, of: session) }
        let contentStart = player.initialPlaybackTime ?? .zero
        let client = VASTClient(
            timeout: request.timeout, userAgent: request.userAgent, maximumWrapperDepth: request.maximumWrapperDepth)
        // A beacon that fails never holds the ad up: it goes to the player's error log.
        let beacons = BeaconSender(userAgent: request.userAgent) { [weak player = self.player] failure in
            player?.addErrorLogEntry(
                uri: failure.url?.absoluteString ?? failure.template ?? "", statusCode: failure.status,
                comment: "the ad's \(failure.event) beacon failed: \(failure.reason)")
        }
        let outcome: Result<Void, PrerollAdError>
        do throws(PrerollAdError) {
            try await resolveAndPlay(
                client: client, beacons: beacons, contentStart: contentStart, reservations: &reservations,
                session: &session)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        // Every beacon fired is on its way (its request started) when the call returns.
        await beacons.handedOver()
        try outcome.get()
    }

    /// The ads resolved and played, their beacons fired with `beacons`.
    private func resolveAndPlay(
        client: VASTClient, beacons: BeaconSender, contentStart: Duration,
        reservations: inout [FrequencyCap.Reservation], session: inout PrerollAdSession?
    ) async throws(PrerollAdError) {
        let resolution: VASTResolution
        do throws(VASTResolutionFailure) {
            resolution = try await resolve(with: client)
        } catch {
            AdTracker.fireErrors(of: error, contentPlayhead: contentStart, using: beacons)
            throw error.error
        }
        let made = try makeSession(
            for: request.playsWholePod ? resolution.ads : Array(resolution.ads.prefix(1)), beacons: beacons,
            reservations: &reservations)
        session = made
        PrerollAdSessions.begin(made, in: player)
        defer { PrerollAdSessions.end(made, in: player) }
        do throws(MediaError) {
            _ = try await player.playPreroll(
                made.playbacks.map { URISource(uri: $0.info.mediaURL.absoluteString) },
                playsContentAfter: request.playsContentAfterAd, timeout: request.mediaTimeout
            ) { index, report in made.hear(index, report) }
        } catch {
            throw error.code == .cancelled
                ? PrerollAdError(.cancelled, "the task waiting for the ad was cancelled", underlying: error)
                : PrerollAdError(.playerBusy, error.message, underlying: error)
        }
        guard let outcome = made.playbacks.last(where: { $0.outcome != nil })?.outcome else { return }
        if case .failure(let error) = outcome {
            if error.code == .cancelled { _ = await beacons.flush(within: .seconds(2)) }
            throw error
        }
    }

    private func resolve(with client: VASTClient) async throws(VASTResolutionFailure) -> VASTResolution {
        switch request.origin {
        case .tag(let url): try await client.resolveReportingErrors(tag: url)
        case .document(let data): try await client.resolveReportingErrors(document: data)
        }
    }

    /// Gives back to the frequency cap each reserved ad that never started (the first
    /// reservation is the first ad's, and so on); all of them when no ad was played.
    private func releaseUnplayed(_ reservations: [FrequencyCap.Reservation], of session: PrerollAdSession?) {
        guard let cap = request.frequencyCap else { return }
        for (index, reservation) in reservations.enumerated() {
            let started = session.map { $0.playbacks.indices.contains(index) && $0.playbacks[index].hasStarted }
            if started != true { cap.release(reservation) }
        }
    }

    /// Chooses each ad's media file and prepares its tracking. An ad with none that can play
    /// here is told so (VAST 403) and left out; with none left, the request fails with it. Each
    /// ad after the first takes one more ad from the frequency cap; the pod ends where the cap
    /// has no more room.
    private func makeSession(
        for ads: [ResolvedAd], beacons: BeaconSender, reservations: inout [FrequencyCap.Reservation]
    ) throws(PrerollAdError) -> PrerollAdSession {
        let contentStart = player.initialPlaybackTime ?? .zero
        var chosen: [(ad: ResolvedAd, media: VASTMediaFile)] = []
        var firstError: PrerollAdError?
        for ad in ads {
            guard
                let media = ad.mediaFile(
                    supportedTypes: request.supportedMediaTypes, preferredSize: request.preferredSize,
                    preferredBitrate: request.preferredBitrate)
            else {
                let types = ad.mediaFiles.map(\.type).joined(separator: ", ")
                let error = PrerollAdError(
                    .noSupportedMediaFile,
                    "no media file of ad \(ad.id ?? "?") is progressive in a supported type (it has \(types))")
                AdTracker(ad: ad, mediaFileURL: nil, contentPlayhead: contentStart, beacons: beacons).failed(error)
                firstError = firstError ?? error
                continue
            }
            chosen.append((ad, media))
        }
        guard !chosen.isEmpty else {
            throw firstError ?? PrerollAdError(.noInventory, "the ad server's answer has no ad")
        }
        if let cap = request.frequencyCap {
            var allowed = 1
            while allowed < chosen.count, let reservation = try cap.reserveInSameBreak() {
                reservations.append(reservation)
                allowed += 1
            }
            chosen = Array(chosen.prefix(allowed))
        }
        let playbacks = chosen.enumerated().map { index, pair in
            let (ad, media) = pair
            let info = PrerollAdInfo(
                id: ad.id, title: ad.title, duration: ad.duration, skipOffset: ad.skipTime,
                clickThrough: ad.clickThrough.flatMap {
                    VASTMacros(contentPlayhead: contentStart, adPlayhead: .zero, assetURI: media.url).url($0)
                }, mediaURL: media.url, position: index + 1, count: chosen.count)
            let tracker = AdTracker(ad: ad, mediaFileURL: media.url, contentPlayhead: contentStart, beacons: beacons)
            return PrerollAdPlayback(
                ad: ad, info: info, tracker: tracker, mediaTimeout: request.mediaTimeout, player: player)
        }
        return PrerollAdSession(playbacks)
    }
}
