import MediaEngineCore

extension HTTPStreamOptions {
    /// The command-line flags ``applyCommandLineFlag(_:_:)`` and ``applyCommandLineSwitch(_:)``
    /// understand, curl's spelling, for a tool's usage line.
    public static let commandLineUsage =
        "[--user USER:PASSWORD] [--header 'NAME: VALUE'] [--cookie NAME=VALUE] [--ca-file PEM] [--retry N] "
        + "[--retry-delay SECONDS] [--retry-max-time SECONDS] [--retry-connrefused]"

    /// The flags that take a value (``applyCommandLineFlag(_:_:)``).
    public static let commandLineFlags: Set<String> = [
        "--user", "--header", "--cookie", "--ca-file", "--retry", "--retry-delay", "--retry-max-time",
    ]

    /// The flags that take no value (``applyCommandLineSwitch(_:)``).
    public static let commandLineSwitches: Set<String> = ["--retry-connrefused"]

    /// Applies one curl-style command-line flag: `--user USER:PASSWORD`, `--header 'NAME: VALUE'`,
    /// `--cookie NAME=VALUE`, `--ca-file PEM`, `--retry N` (``retries``), `--retry-delay SECONDS`
    /// (``retryDelay``, the first wait), `--retry-max-time SECONDS` (``connectionDeadline``; 0
    /// for none, as in curl). The engine's examples use it; so can any tool.
    /// - Parameters:
    ///   - flag: The flag, with its dashes.
    ///   - value: The value that followed it.
    /// - Returns: Whether `flag` is one of these (false: not applied).
    /// - Throws: `MediaError.Code.invalidArgument` for a header that is not `NAME: VALUE`, a
    ///   retry count that is not a whole number from 0, or a delay or deadline that is not
    ///   seconds from 0.
    public mutating func applyCommandLineFlag(_ flag: String, _ value: String) throws(MediaError) -> Bool {
        switch flag {
        case "--user":
            let pair = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            credential = HTTPCredential(user: pair[0], password: pair.count > 1 ? pair[1] : "")
        case "--header":
            let pair = value.split(separator: ":", maxSplits: 1).map {
                String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            }
            guard pair.count == 2, !pair[0].isEmpty else {
                throw MediaError(.invalidArgument, "a header is 'NAME: VALUE', not '\(value)'")
            }
            headers[pair[0]] = pair[1]
        case "--cookie":
            cookies.append(value)
        case "--ca-file":
            certificateAuthorityFile = value
        case "--retry":
            guard let count = Int(value), count >= 0 else {
                throw MediaError(.invalidArgument, "--retry takes a whole number from 0, not '\(value)'")
            }
            retries = count
        case "--retry-delay":
            guard let seconds = Double(value), seconds.isFinite, (0...3600).contains(seconds) else {
                throw MediaError(.invalidArgument, "--retry-delay takes seconds from 0 to 3600, not '\(value)'")
            }
            retryDelay = .milliseconds(Int((seconds * 1000).rounded()))
            maximumRetryDelay = max(maximumRetryDelay, retryDelay)
        case "--retry-max-time":
            guard let seconds = Double(value), seconds.isFinite, (0...86_400).contains(seconds) else {
                throw MediaError(.invalidArgument, "--retry-max-time takes seconds from 0 to 86400, not '\(value)'")
            }
            let milliseconds = Int((seconds * 1000).rounded())
            connectionDeadline = milliseconds == 0 ? nil : .milliseconds(milliseconds)
        default:
            return false
        }
        return true
    }

    /// Applies one curl-style command-line flag that takes no value: `--retry-connrefused`
    /// (``retriesRefusedConnections``).
    /// - Parameter flag: The flag, with its dashes.
    /// - Returns: Whether `flag` is one of these (false: not applied).
    public mutating func applyCommandLineSwitch(_ flag: String) -> Bool {
        switch flag {
        case "--retry-connrefused":
            retriesRefusedConnections = true
        default:
            return false
        }
        return true
    }
}
