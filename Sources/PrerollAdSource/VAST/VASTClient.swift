import Foundation
public import MediaEngineCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resolves an ad tag or a VAST document to the linear ads to play: fetches the documents
/// (the tag and every wrapper's `<VASTAdTagURI>`), follows wrappers, chooses the ad pod or the
/// stand-alone ad, and merges each wrapper's tracking into the inline ad it leads to.
///
/// - Fetching: an ephemeral `URLSession` of the client's own (no cache, cookies kept only in
///   memory for the client's life), `GET` with the client's `User-Agent`; each document may
///   take ``timeout`` in all. A status outside 200-299, a connection that fails or a document
///   that takes longer is `PrerollAdError.Code.vastTimeout` (VAST 301), its message naming
///   the URL and the status or cause. Redirects are followed.
/// - Wrappers: at most ``maximumWrapperDepth`` in a chain (VAST 302 beyond), a chain that comes
///   back to a document it already read is refused as a loop (VAST 302), and a wrapper with
///   `followAdditionalWrappers="false"` may lead only to inline ads (VAST 302 otherwise). A
///   wrapper leads to the first ad its document resolves to, or to all of them with
///   `allowMultipleAds="true"`. A relative `<VASTAdTagURI>` is read against its document's URL;
///   its macros (`[CACHEBUSTING]`, `[TIMESTAMP]`; see `VASTMacros`) are replaced when it is
///   fetched, and a loop is found by the URI as written.
/// - Pods: ads with a `sequence` form a pod, played in `sequence` order; stand-alone ads (no
///   `sequence`) are then fallbacks, each replacing a pod ad that cannot be resolved. With no
///   pod, the stand-alone ads are tried in order and the first that resolves is the ad.
/// - No ad: an answer with no document at all (0 bytes, or only white space: what an HTTP 204
///   means), a document with no ad (`<VAST version="3.0"/>`) and an inline ad with no creative
///   (an "empty InLine response") are `PrerollAdError.Code.noInventory` (VAST 303, "no ads
///   VAST response"), not malformed: that is how ad servers say they have no ad. The 303 is
///   reported to the wrappers' `<Error>` URIs, the document's root ones, and the empty inline
///   ad's own. An inline ad whose creatives are all non-linear or companions is an ad, of
///   another kind: `PrerollAdError.Code.noSupportedMediaFile` (VAST 403, the nearest this
///   engine has to VAST's 201, "not the linearity expected"). What is not VAST stays
///   `PrerollAdError.Code.malformedVAST` (VAST 100).
///
/// The `resolve` methods throw the `PrerollAdError` alone; the `resolveReportingErrors`
/// methods throw a ``VASTResolutionFailure``, which also carries the Error URIs of what was
/// read before the failure, for ``AdTracker/fireErrors(of:contentPlayhead:using:)``.
///
/// Cancelling the calling task ends a resolution with `PrerollAdError.Code.cancelled`.
public final class VASTClient: Sendable {
    /// How long fetching each document (the tag and every wrapper's) may take.
    public let timeout: Duration
    /// The `User-Agent` header of every request.
    public let userAgent: String
    /// How many wrappers may lead to an inline ad.
    public let maximumWrapperDepth: Int
    private let session: URLSession
    /// Where the session's transfers are made, started and cancelled, which wait for the
    /// session's own queue (see `URLSession.cancellableData(for:on:)`).
    private let transfers = DispatchQueue(label: "swift-media-engine.vast-client")

    /// A client with its own ephemeral `URLSession`.
    /// - Parameters:
    ///   - timeout: How long fetching each document may take (VAST 301 after).
    ///   - userAgent: The `User-Agent` header of the requests.
    ///   - maximumWrapperDepth: How many wrappers may lead to an inline ad (VAST 302 beyond).
    public init(timeout: Duration = .seconds(5), userAgent: String = "swift-media-engine", maximumWrapperDepth: Int = 5)
    {
        self.timeout = timeout
        self.userAgent = userAgent
        self.maximumWrapperDepth = maximumWrapperDepth
        session = URLSession.uncached(timeout: timeout)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Fetches an ad tag and resolves it (see ``VASTClient``).
    /// - Parameter tag: The ad server's URL, `http` or `https`.
    /// - Throws: `PrerollAdError`: `PrerollAdError.Code.configuration` for a URL that is
    ///   not `http` or `https` or a VAST version not read; otherwise as the type's description
    ///   says.
    /// - Returns: The ads.
    public func resolve(tag: URL) async throws(PrerollAdError) -> VASTResolution {
        do {
            return try await resolveReportingErrors(tag: tag)
        } catch {
            throw error.error
        }
    }

    /// Resolves a VAST document the app already has (its wrappers are fetched).
    /// - Parameters:
    ///   - document: The document's bytes.
    ///   - baseURL: Where the document came from: relative `<VASTAdTagURI>`s are read against
    ///     it, and a wrapper leading back to it is a loop; nil when unknown.
    /// - Throws: `PrerollAdError` as the type's description says.
    /// - Returns: The ads.
    public func resolve(document: Data, baseURL: URL? = nil) async throws(PrerollAdError) -> VASTResolution {
        do {
            return try await resolveReportingErrors(document: document, baseURL: baseURL)
        } catch {
            throw error.error
        }
    }

    /// Fetches an ad tag and resolves it, failing with the Error URIs to report the failure to.
    /// - Parameter tag: The ad server's URL, `http` or `https`.
    /// - Throws: ``VASTResolutionFailure``: the error as ``resolve(tag:)`` throws it, and the
    ///   Error URI templates read before it.
    /// - Returns: The ads.
    public func resolveReportingErrors(tag: URL) async throws(VASTResolutionFailure) -> VASTResolution {
        guard Self.isHTTP(tag) else {
            throw VASTResolutionFailure(
                PrerollAdError(.configuration, "the ad tag \(tag.absoluteString) is not an http or https URL"),
                errorURIs: [])
        }
        return try await fetchAndResolve(tag, path: Path())
    }

    /// Resolves a VAST document the app already has, failing with the Error URIs to report the
    /// failure to.
    /// - Parameters:
    ///   - document: The document's bytes.
    ///   - baseURL: Where the document came from, or nil (see ``resolve(document:baseURL:)``).
    /// - Throws: ``VASTResolutionFailure``: the error and the Error URI templates read before it.
    /// - Returns: The ads.
    public func resolveReportingErrors(document: Data, baseURL: URL? = nil) async throws(VASTResolutionFailure)
        -> VASTResolution
    {
        var path = Path()
        if let baseURL { path.documentURLs.append(baseURL.absoluteURL) }
        return try await resolve(document, at: baseURL, path: path)
    }

    /// How the resolver came to a document: the documents and wrappers read before it.
    private struct Path {
        /// The documents fetched so far, first to last (loops are found here).
        var documentURLs: [URL] = []
        /// The wrapper ads followed, outermost first.
        var wrappers: [VASTAd] = []
        /// The last wrapper's `followAdditionalWrappers`.
        var followsWrappers = true

        /// The wrappers' Error URI templates.
        var errorURIs: [String] { wrappers.flatMap(\.errors) }
    }

    /// Fetches `url` and resolves what it answers, as the document `identity` (the URL as
    /// written, before its macros were replaced): relative URIs are read against it and loops
    /// are found with it.
    private func fetchAndResolve(_ url: URL, readAs identity: URL? = nil, path: Path)
        async throws(VASTResolutionFailure) -> VASTResolution
    {
        let data: Data
        do {
            data = try await fetch(url)
        } catch {
            throw VASTResolutionFailure(error, errorURIs: path.errorURIs)
        }
        let identity = identity ?? url
        var path = path
        path.documentURLs.append(identity)
        return try await resolve(data, at: identity, path: path)
    }

    private func resolve(_ data: Data, at url: URL?, path: Path) async throws(VASTResolutionFailure)
        -> VASTResolution
    {
        guard !Self.isBlank(data) else {
            let answer = url.map { "the ad server's answer at \($0.absoluteString)" } ?? "the VAST answer"
            throw VASTResolutionFailure(
                PrerollAdError(.noInventory, "\(answer) is empty (no VAST document, as an HTTP 204 says): no ad"),
                errorURIs: path.errorURIs)
        }
        let document: VASTDocument
        do {
            document = try VASTParser.parse(data)
        } catch {
            throw VASTResolutionFailure(error, errorURIs: path.errorURIs)
        }
        let source = url.map { "the VAST document at \($0.absoluteString)" } ?? "the VAST document"
        guard !document.ads.isEmpty else {
            throw VASTResolutionFailure(
                PrerollAdError(.noInventory, "\(source) has no ad"), errorURIs: path.errorURIs + document.errors)
        }
        // A stable sort: ads of the same sequence keep the document's order.
        let sequenced: [(sequence: Int, index: Int, ad: VASTAd)] = document.ads.enumerated().compactMap {
            index, ad in ad.sequence.map { ($0, index, ad) }
        }
        let pod = sequenced.sorted { ($0.sequence, $0.index) < ($1.sequence, $1.index) }.map(\.ad)
        var standAlone = document.ads.filter { $0.sequence == nil }[...]
        var ads: [ResolvedAd] = []
        var failures: [VASTResolutionFailure] = []
        let place = Place(url: url, path: path, documentErrors: document.errors)
        if pod.isEmpty {
            while ads.isEmpty, let ad = standAlone.popFirst() {
                try await attempt(ad, at: place, into: &ads, failures: &failures)
            }
        } else {
            for ad in pod {
                if try await attempt(ad, at: place, into: &ads, failures: &failures) { continue }
                // The pod ad failed: the next stand-alone ad that resolves takes its place.
                while let fallback = standAlone.popFirst() {
                    if try await attempt(fallback, at: place, into: &ads, failures: &failures) { break }
                }
            }
        }
        guard !ads.isEmpty else {
            // Every ad was tried and failed: the first failure ends the resolution.
            var failure = failures.removeFirst()
            failure.otherFailures += failures
            throw failure
        }
        return VASTResolution(ads: ads, failures: failures)
    }

    /// Where an ad was read: its document's URL (nil when unknown), the way there, and the
    /// document's root `<Error>` URIs.
    private struct Place {
        var url: URL?
        var path: Path
        var documentErrors: [String]
    }

    /// Resolves one ad, adding what it leads to to `ads` or its failure to `failures`.
    /// - Throws: The failure when it is a cancellation: nothing else is tried then.
    /// - Returns: Whether it resolved.
    @discardableResult
    private func attempt(
        _ ad: VASTAd, at place: Place, into ads: inout [ResolvedAd], failures: inout [VASTResolutionFailure]
    ) async throws(VASTResolutionFailure) -> Bool {
        do {
            let resolution = try await resolve(ad, at: place)
            ads += resolution.ads
            failures += resolution.failures
            return true
        } catch {
            guard error.error.code != .cancelled else { throw error }
            failures.append(error)
            return false
        }
    }

    private func resolve(_ ad: VASTAd, at place: Place) async throws(VASTResolutionFailure) -> VASTResolution {
        let (url, path) = (place.url, place.path)
        let name = ad.id.map { "the ad \"\($0)\"" } ?? "an ad"
        let source = url.map { " of \($0.absoluteString)" } ?? ""
        func failure(_ code: PrerollAdError.Code, _ message: String) -> VASTResolutionFailure {
            VASTResolutionFailure(PrerollAdError(code, message), errorURIs: path.errorURIs + ad.errors)
        }
        switch ad.kind {
        case .inline:
            guard ad.creativeCount > 0 else {
                // An empty InLine response: no ad (VAST 303), told to the root <Error> too.
                throw VASTResolutionFailure(
                    PrerollAdError(.noInventory, "\(name)\(source) is an <InLine> ad without any creative: no ad"),
                    errorURIs: path.errorURIs + place.documentErrors + ad.errors)
            }
            guard let linear = ad.linearCreatives.first else {
                throw failure(
                    .noSupportedMediaFile, "\(name)\(source) has no linear creative (only non-linear or companion ones)"
                )
            }
            return VASTResolution(ads: [merge(ad, linear, path: path)])
        case .wrapper(let wrapper):
            guard path.followsWrappers else {
                throw failure(
                    .wrapperLimitReached,
                    "\(name)\(source) is a wrapper, where the wrapper before it said followAdditionalWrappers=\"false\""
                )
            }
            guard path.wrappers.count < maximumWrapperDepth else {
                throw failure(
                    .wrapperLimitReached,
                    "more than \(maximumWrapperDepth) wrappers lead to the ad: \(name)\(source) is wrapper number "
                        + "\(path.wrappers.count + 1)")
            }
            // Read as written for the loop check; fetched with its macros ([CACHEBUSTING],
            // [TIMESTAMP], ...) replaced, as the beacons are.
            let template = wrapper.adTagURI.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let next = URL(string: template, relativeTo: url)?.absoluteURL, Self.isHTTP(next),
                let fetched = VASTMacros(contentPlayhead: .zero).url(template, relativeTo: url)
            else {
                throw failure(
                    .vastTimeout, "the <VASTAdTagURI> of \(name)\(source), \"\(wrapper.adTagURI)\", is not an http URL")
            }
            guard !path.documentURLs.contains(next) else {
                throw failure(
                    .wrapperLimitReached,
                    "the wrapper chain loops: \(name)\(source) leads back to \(next.absoluteString), read before ("
                        + (path.documentURLs.map(\.absoluteString) + [next.absoluteString]).joined(separator: " -> ")
                        + ")")
            }
            var nextPath = path
            nextPath.wrappers.append(ad)
            nextPath.followsWrappers = wrapper.followAdditionalWrappers
            let resolution = try await fetchAndResolve(fetched, readAs: next, path: nextPath)
            return wrapper.allowMultipleAds
                ? resolution : VASTResolution(ads: Array(resolution.ads.prefix(1)), failures: resolution.failures)
        }
    }

    /// The inline ad with its wrappers' URIs merged in, the wrappers' first.
    private func merge(_ ad: VASTAd, _ linear: VASTLinearCreative, path: Path) -> ResolvedAd {
        let wrapperCreatives = path.wrappers.flatMap(\.linearCreatives)
        return ResolvedAd(
            id: ad.id, sequence: path.wrappers.first?.sequence ?? ad.sequence, adSystem: ad.adSystem, title: ad.title,
            creativeID: linear.id, duration: linear.duration, skipOffset: linear.skipOffset,
            mediaFiles: linear.mediaFiles,
            clickThrough: linear.clickThrough,
            impressions: path.wrappers.flatMap(\.impressions) + ad.impressions,
            errors: path.errorURIs + ad.errors,
            tracking: wrapperCreatives.flatMap(\.tracking) + linear.tracking,
            clickTracking: wrapperCreatives.flatMap(\.clickTracking) + linear.clickTracking,
            documentURLs: path.documentURLs)
    }

    /// How a fetch ended.
    private enum FetchOutcome: Sendable {
        /// The body and the HTTP status (0 when the answer was not HTTP).
        case answered(Data, status: Int)
        case failed(String)
        case timedOut
        case cancelled
    }

    /// `GET url`, bounded by ``timeout``: the client's own timer races the download (and
    /// cancels it), because FoundationNetworking keeps only the whole seconds of a timeout
    /// (see `Duration.urlSessionTimeout`).
    private func fetch(_ url: URL) async throws(PrerollAdError) -> Data {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout.urlSessionTimeout
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        let outcome = await withTaskGroup(of: FetchOutcome.self) { group in
            group.addTask { [session, request, transfers] in
                do {
                    let (data, response) = try await session.cancellableData(for: request, on: transfers)
                    return .answered(data, status: (response as? HTTPURLResponse)?.statusCode ?? 0)
                } catch {
                    if Task.isCancelled { return .cancelled }
                    if let error = error as? URLError, error.code == .timedOut { return .timedOut }
                    return .failed(error.localizedDescription)
                }
            }
            group.addTask { [timeout] in
                do {
                    try await Task.sleep(for: timeout)
                    return .timedOut
                } catch {
                    return .cancelled
                }
            }
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            return first
        }
        let data: Data
        let status: Int
        switch outcome {
        case .answered(let body, let answer):
            (data, status) = (body, answer)
        case .failed(let cause):
            throw PrerollAdError(.vastTimeout, "\(url.absoluteString) could not be fetched: \(cause)")
        case .timedOut:
            throw PrerollAdError(.vastTimeout, "\(url.absoluteString) did not answer within \(timeout)")
        case .cancelled:
            throw PrerollAdError(.cancelled, "the ad was cancelled while \(url.absoluteString) was fetched")
        }
        guard (200..<300).contains(status) else {
            throw PrerollAdError(.vastTimeout, "\(url.absoluteString) answered with status \(status)")
        }
        return data
    }

    /// Whether an answer holds no document: no byte, or only XML's white space.
    private static func isBlank(_ data: Data) -> Bool {
        data.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    private static func isHTTP(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), url.host != nil else { return false }
        return scheme == "http" || scheme == "https"
    }
}
