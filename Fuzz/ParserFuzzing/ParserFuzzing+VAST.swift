import Foundation
import MediaEngineCore
import PrerollAdSource

extension ParserFuzzing {
    /// `VASTParser.parse(_:)`, then what the resolver and the tracker do with a document that
    /// needs no fetch: each inline ad's linear creatives merged with the document's wrappers as a
    /// chain would merge them (`ResolvedAd`), the wrappers' tag URIs read against a base URL, the
    /// media file chosen for several sizes and bitrates, the skip time, every offset and quartile
    /// turned into a time, and every URI template expanded with the macros (durations from the
    /// document as playheads). The parser may refuse a document with `malformedVAST` or
    /// `configuration`; a chosen media file must be one of the ad's.
    /// - Parameter bytes: A VAST document's bytes.
    package static func vast(_ bytes: [UInt8]) {
        let document: VASTDocument
        do {
            document = try VASTParser.parse(Data(bytes))
        } catch {
            precondition(error.code == .malformedVAST || error.code == .configuration, "unexpected error \(error)")
            return
        }
        let wrappers = document.ads.filter { $0.wrapper != nil }
        for wrapper in wrappers {
            if let uri = wrapper.wrapper?.adTagURI { _ = URL(string: uri, relativeTo: vastBaseURL)?.absoluteURL }
        }
        let wrapperCreatives = wrappers.flatMap(\.linearCreatives)
        for ad in document.ads where ad.wrapper == nil {
            for linear in ad.linearCreatives {
                let resolved = ResolvedAd(
                    id: ad.id, sequence: wrappers.first?.sequence ?? ad.sequence, adSystem: ad.adSystem,
                    title: ad.title, creativeID: linear.id, duration: linear.duration, skipOffset: linear.skipOffset,
                    mediaFiles: linear.mediaFiles, clickThrough: linear.clickThrough,
                    impressions: wrappers.flatMap(\.impressions) + ad.impressions,
                    errors: document.errors + wrappers.flatMap(\.errors) + ad.errors,
                    tracking: wrapperCreatives.flatMap(\.tracking) + linear.tracking,
                    clickTracking: wrapperCreatives.flatMap(\.clickTracking) + linear.clickTracking)
                track(resolved)
            }
        }
    }

    /// What the player and the tracker read of one resolved ad.
    private static func track(_ ad: ResolvedAd) {
        for (size, bitrate) in vastPreferences {
            let chosen = ad.mediaFile(
                supportedTypes: ["video/mp4", "video/webm"], preferredSize: size,
                preferredBitrate: bitrate)
            precondition(chosen.map(ad.mediaFiles.contains) ?? true, "chose a file the ad does not have")
            _ = chosen?.effectiveBitrate
            _ = chosen?.area
        }
        _ = ad.skipTime
        let adDuration = ad.duration ?? .seconds(30)
        var playheads: [Duration] = [.zero, adDuration]
        for quartile in AdQuartile.allCases { playheads.append(adDuration * quartile.fraction) }
        for event in ad.tracking {
            if let offset = event.offset {
                playheads.append(offset.duration(in: adDuration))
                _ = offset.description
            }
        }
        let asset = ad.mediaFiles.first?.url
        let templates =
            ad.impressions + ad.errors + ad.tracking.map(\.uri) + ad.clickTracking
            + (ad.clickThrough.map { [$0] } ?? [])
        for (index, playhead) in playheads.enumerated() {
            let macros = VASTMacros(
                errorCode: index == 0 ? 405 : nil, contentPlayhead: .zero, adPlayhead: playhead, assetURI: asset,
                timestamp: Date(timeIntervalSince1970: 1_700_000_000), cacheBusting: "12345678")
            // Every template with the first playheads; the rest against one template, so a
            // document with many offsets stays linear in its size.
            for template in index < 3 ? templates : Array(templates.prefix(1)) {
                _ = macros.url(template)
            }
        }
    }

    /// The base URL relative `<VASTAdTagURI>`s are read against.
    private static let vastBaseURL = URL(string: "http://ads.example/vast/tag.xml")

    /// The sizes and bitrates an app may ask for: none, usual ones, and the extremes of `Int`.
    private static let vastPreferences: [(VideoSize?, Int?)] = [
        (nil, nil), (nil, 800), (VideoSize(width: 1280, height: 720), 2000), (VideoSize(width: 1, height: 1), 0),
        (VideoSize(width: 65536, height: 65536), Int.max), (nil, Int.min),
    ]
}
