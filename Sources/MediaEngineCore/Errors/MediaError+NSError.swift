import Foundation

/// `MediaError` as Foundation's `NSError`, for code ported from MPMoviePlayerController, which
/// reads `userInfo["error"] as? NSError` and its `domain`, `code` and `localizedDescription`.
///
/// `error as NSError` gives an `NSError` in ``MediaError/errorDomain`` whose `code` is the
/// ``MediaError/Code/number`` of the error's code (stable across releases: numbers are never
/// reused), whose `localizedDescription` is the ``MediaError/message``, and whose userInfo carries
/// the rest (``MediaError/debugDetail`` as the failure reason, the element, the HTTP status and
/// the code's name). ``MediaError/init(_:)`` reads one back. The player's notifications carry
/// such an `NSError` wherever MPMoviePlayerController's carry an error.
extension MediaError: CustomNSError, LocalizedError {
    /// The domain of every `NSError` made from a `MediaError`: `org.swift-media-engine.MediaError`.
    public static let domain = "org.swift-media-engine.MediaError"

    /// ``domain``.
    public static var errorDomain: String { domain }

    /// The code's ``MediaError/Code/number``.
    public var errorCode: Int { code.number }

    /// The message (`NSLocalizedDescriptionKey`), the debug detail (`NSLocalizedFailureReasonErrorKey`),
    /// and under ``MediaError/UserInfoKey``'s keys the code's name, the element and the HTTP status.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: message, UserInfoKey.codeName: code.name,
        ]
        if let debugDetail { info[NSLocalizedFailureReasonErrorKey] = debugDetail }
        if let element { info[UserInfoKey.element] = element }
        if let httpStatusCode { info[UserInfoKey.httpStatusCode] = NSNumber(value: httpStatusCode) }
        return info
    }

    /// The message.
    public var errorDescription: String? { message }

    /// The debug detail, if any.
    public var failureReason: String? { debugDetail }

    /// The keys of a `MediaError`'s `NSError` userInfo beside Foundation's own.
    public enum UserInfoKey {
        /// The code's name (`"fileNotFound"`), a `String`.
        public static let codeName = "MediaErrorCodeName"
        /// The element or factory that failed, a `String`.
        public static let element = "MediaErrorElement"
        /// The HTTP status the server answered with, an `NSNumber`.
        public static let httpStatusCode = "MediaErrorHTTPStatusCode"
    }

    /// The `MediaError` an `NSError` of ``domain`` was made from (its code, message, detail,
    /// element and HTTP status); nil for an error of another domain or an unknown code.
    /// - Parameter error: The error, as Foundation has it.
    public init?(_ error: NSError) {
        guard error.domain == Self.domain, let code = Code(number: error.code) else { return nil }
        let info = error.userInfo
        self.init(
            code, info[NSLocalizedDescriptionKey] as? String ?? error.localizedDescription,
            debugDetail: info[NSLocalizedFailureReasonErrorKey] as? String,
            element: info[UserInfoKey.element] as? String,
            httpStatusCode: (info[UserInfoKey.httpStatusCode] as? NSNumber)?.intValue)
    }
}
