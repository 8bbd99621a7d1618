public import MediaEngineCore

/// Why an ad tag, a document or one ad of it could not be resolved, with the Error URI
/// templates the failure is to be reported to: those of every wrapper read on the way, of the
/// ad that failed, and, when a document had no ad, that document's root `<Error>`s.
///
/// ``VASTClient/resolveReportingErrors(tag:)`` throws it so that the caller can report the
/// failure to the ad servers even though no ad came out
/// (``AdTracker/fireErrors(of:contentPlayhead:using:)``); ``VASTClient/resolve(tag:)`` throws
/// only its ``error``.
public struct VASTResolutionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong (its `PrerollAdError.vastErrorCode` is the `[ERRORCODE]`).
    public var error: PrerollAdError
    /// The Error URI templates to call, in the order they were read.
    public var errorURIs: [String]
    /// Other ads that failed too before this failure ended the resolution (stand-alone ads
    /// tried in turn), each with its own error and URIs.
    public var otherFailures: [VASTResolutionFailure]

    /// A failure.
    /// - Parameters:
    ///   - error: What went wrong.
    ///   - errorURIs: The Error URI templates to call.
    ///   - otherFailures: Other ads that failed too.
    public init(_ error: PrerollAdError, errorURIs: [String], otherFailures: [VASTResolutionFailure] = []) {
        self.error = error
        self.errorURIs = errorURIs
        self.otherFailures = otherFailures
    }

    /// The error's description.
    public var description: String { error.description }
}
