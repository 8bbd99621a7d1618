import Foundation
import MediaEngineCore

/// Writing values of people's choosing into a `gst-launch-1.0` description
/// (`ElementDescription.bin(_:)`), which is the only way the public API builds a chain of
/// elements. Every value goes in quoted; numbers and names are checked before they get here.
enum LaunchSyntax {
    /// `"value"` with `\` and `"` escaped: gst_parse's lexer takes a quoted value whole, `!`,
    /// spaces, `=` and all, and its unescaping turns `\\` and `\"` back into `\` and `"`.
    /// The value must not end in a backslash that the closing quote would follow (an escaped
    /// `\\"` could be read as an escaped quote): the paths quoted here always end in a file name.
    static func quoted(_ value: String) -> String {
        assert(!value.hasSuffix("\\"), "a quoted launch value must not end in a backslash")
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }

    /// An absolute, standardized path for an option, refused when empty or when it holds control
    /// characters (a newline or NUL has no business in a path, and some elements would cut it there).
    /// - Parameters:
    ///   - path: The path as given; a relative one is taken from the current directory.
    ///   - option: The option's name, for the error.
    /// - Returns: The absolute path.
    /// - Throws: `MediaError.Code.invalidArgument`.
    static func checkedPath(_ path: String, option: String) throws(MediaError) -> String {
        guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw MediaError(.invalidArgument, "\(option) '\(path)' is empty or holds control characters")
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A plain file name (letters, digits, `.`, `-`, `_`; not `.` or `..`), for names written
    /// into a playlist as they are.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.count <= 255
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }
}
