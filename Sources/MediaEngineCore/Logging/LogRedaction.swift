internal import CMediaEngineCGStreamer
import Foundation

/// The one redaction every record of the engine's log goes through, whether to an app's handler
/// (``MediaEngineLog``) or to standard error, message and metadata values alike. It replaces with
/// `<redacted>`:
/// - the secrets the engine was given (``register(secret:)``): the passwords, header values and
///   cookies of sources' settings (as each player takes its source), and the passwords stored in
///   a `CredentialStore`, with the Basic `Authorization` value a user and password make;
/// - user information in URLs (`https://user:pw@host/` becomes `https://host/`, ``URIRedaction``);
/// - every query value (`?token=abc&Expires=1` becomes `?token=<redacted>&Expires=<redacted>`),
///   with or without the URL's scheme and host (an HTTP request line has neither);
/// - the values of fields named like secrets, as a header (`Authorization: ...`), a structure
///   field or property (`user-pw=(string)...`), or a dictionary entry (`"X-Api-Key": "..."`):
///   names containing `auth`, `token`, `secret`, `passw`, `cookie`, `signature`, `credential`
///   or `api-key`, and `sig`, `key`, `pw`, `pwd`.
///
/// A secret shorter than four characters is not registered (it would blank out ordinary words);
/// the patterns above still catch it where it is sent. At most 256 secrets are kept, the oldest
/// forgotten first.
package enum LogRedaction {
    /// What replaces a secret.
    package static let marker = "<redacted>"
    static let minimumSecretLength = 4
    static let maximumSecrets = 256

    /// The secrets, oldest first.
    private static let secrets = Locked<[String]>([])

    /// Keeps a secret out of every record from now on (and its percent-encoded form).
    /// - Parameter secret: A password, token or header value.
    package static func register(secret: String) {
        guard secret.utf8.count >= minimumSecretLength else { return }
        var forms = [secret]
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
            forms.append(encoded)
        }
        secrets.withLock { list in
            for form in forms {
                list.removeAll { $0 == form }
                list.append(form)
            }
            if list.count > maximumSecrets { list.removeFirst(list.count - maximumSecrets) }
        }
    }

    /// Registers the secrets of a source's settings: `user-pw` and `proxy-pw` (and the Basic
    /// credentials they make with `user-id` and `proxy-id`), the values of `extra-headers` and
    /// the cookies of `cookies`.
    /// - Parameter settings: A source's settings.
    package static func registerSecrets(in settings: SourceSettings) {
        let properties = settings.properties
        for (user, password) in [("user-id", "user-pw"), ("proxy-id", "proxy-pw")] {
            guard case .string(let secret)? = properties[password] else { continue }
            register(secret: secret)
            if case .string(let name)? = properties[user] {
                register(secret: Data("\(name):\(secret)".utf8).base64EncodedString())
            }
        }
        if case .strings(let cookies)? = properties["cookies"] {
            for cookie in cookies {
                register(secret: cookie)
                // name=value; attributes
                let pair = cookie.split(separator: ";", maxSplits: 1).first ?? ""
                if let equals = pair.firstIndex(of: "=") {
                    register(secret: String(pair[pair.index(after: equals)...]))
                }
            }
        }
        if case .string(let headers)? = properties["extra-headers"] {
            for value in stringFields(of: headers) { register(secret: value) }
        }
    }

    /// The string values of a GstStructure's text (`headers, X-Token=(string)"abc"`).
    private static func stringFields(of text: String) -> [String] {
        guard (try? GStreamer.initialize()) != nil, let structure = gst_structure_from_string(text, nil) else {
            return []
        }
        defer { gst_structure_free(structure) }
        return (0..<gst_structure_n_fields(structure)).compactMap { index in
            guard let name = gst_structure_nth_field_name(structure, guint(index)),
                let value = gst_structure_get_string(structure, name)
            else { return nil }
            return String(cString: value)
        }
    }

    /// The text with nothing secret left in it (see the type's description).
    /// - Parameter text: A message or metadata value.
    /// - Returns: The redacted text.
    package static func redact(_ text: String) -> String {
        var result = text
        for secret in secrets.withLock({ $0 }) where result.contains(secret) {
            result = result.replacing(secret, with: marker)
        }
        return redactingFields(URIRedaction.redacting(result))
    }

    // MARK: Query values and secret fields, byte by byte

    private static let markerBytes = Array(marker.utf8)

    /// Replaces query values and the values of secret-named fields.
    static func redactingFields(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(where: { $0 == ascii("?") || $0 == ascii(":") || $0 == ascii("=") }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ascii("?") {
                out.append(byte)
                index = redactQuery(bytes, from: index + 1, into: &out)
            } else if isNameByte(byte), index == 0 || !isNameByte(bytes[index - 1]) {
                var end = index
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                out.append(contentsOf: bytes[index..<end])
                index = isSecretName(bytes[index..<end]) ? redactValue(bytes, after: end, into: &out) : end
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// After a `?`: `name=value` pairs separated by `&` or `;`, each value replaced. Returns where
    /// the query ends (at once when what follows is not `name=`).
    private static func redactQuery(_ bytes: [UInt8], from start: Int, into out: inout [UInt8]) -> Int {
        var index = start
        while true {
            var end = index
            while end < bytes.count, isQueryNameByte(bytes[end]) { end += 1 }
            guard end > index, end < bytes.count, bytes[end] == ascii("=") else { return index }
            out.append(contentsOf: bytes[index...end])
            var valueEnd = end + 1
            while valueEnd < bytes.count, !endsQueryValue(bytes[valueEnd]) { valueEnd += 1 }
            if valueEnd > end + 1 { out.append(contentsOf: markerBytes) }
            index = valueEnd
            guard index < bytes.count, bytes[index] == ascii("&") || bytes[index] == ascii(";") else { return index }
            out.append(bytes[index])
            index += 1
        }
    }

    /// After a secret-named field's name: its separator, kept, then its value, replaced. Returns
    /// where the value ends (the name's end when no value follows).
    ///
    /// `Name: value` (a header: up to the line's end or a quote), `Name=(type)"value"`,
    /// `Name=value` (a structure field, property or query parameter: up to a delimiter), and
    /// `"Name": "value"` (a dictionary entry).
    private static func redactValue(_ bytes: [UInt8], after nameEnd: Int, into out: inout [UInt8]) -> Int {
        var index = nameEnd
        var quotedName = false
        if index < bytes.count, bytes[index] == ascii("\"") {
            quotedName = true
            index += 1
        }
        guard index < bytes.count, bytes[index] == ascii(":") || bytes[index] == ascii("=") else { return nameEnd }
        let header = bytes[index] == ascii(":") && !quotedName
        index += 1
        while index < bytes.count, bytes[index] == ascii(" ") { index += 1 }
        if !header, index < bytes.count, bytes[index] == ascii("(") {
            // A GstStructure's type: (string), (gchararray).
            while index < bytes.count, bytes[index] != ascii(")") { index += 1 }
            if index < bytes.count { index += 1 }
        }
        let valueStart = index
        if index < bytes.count, bytes[index] == ascii("\""), !header {
            index += 1
            while index < bytes.count, bytes[index] != ascii("\"") {
                index += bytes[index] == ascii("\\") ? 2 : 1
            }
            index = min(index + 1, bytes.count)
        } else if header {
            while index < bytes.count, ![ascii("\n"), ascii("\r"), ascii("\"")].contains(bytes[index]) { index += 1 }
        } else {
            while index < bytes.count, !endsQueryValue(bytes[index]), bytes[index] != ascii(",") { index += 1 }
        }
        guard index > valueStart else { return nameEnd }
        out.append(contentsOf: bytes[nameEnd..<valueStart])
        out.append(contentsOf: markerBytes)
        return index
    }

    /// Names whose values are secret (lowercased): containing one of these...
    private static let secretNameParts = [
        "auth", "token", "secret", "passw", "cookie", "signature", "credential", "api-key", "api_key", "apikey",
    ].map { Array($0.utf8) }
    /// ...or exactly one of these.
    private static let secretNames: Set<[UInt8]> = Set(
        ["sig", "key", "pw", "pwd", "user-pw", "proxy-pw"].map { Array($0.utf8) })

    /// ...but not these: a challenge names a realm and a nonce, nothing secret.
    private static let publicNames: Set<[UInt8]> = Set(["www-authenticate"].map { Array($0.utf8) })

    private static func isSecretName(_ name: ArraySlice<UInt8>) -> Bool {
        guard name.count >= 2 else { return false }
        let lower = name.map { $0 >= ascii("A") && $0 <= ascii("Z") ? $0 + 32 : $0 }
        if secretNames.contains(lower) { return true }
        if publicNames.contains(lower) { return false }
        return secretNameParts.contains { part in
            lower.count >= part.count
                && (0...(lower.count - part.count)).contains { lower[$0..<$0 + part.count].elementsEqual(part) }
        }
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= ascii("a") && byte <= ascii("z")) || (byte >= ascii("A") && byte <= ascii("Z"))
            || (byte >= ascii("0") && byte <= ascii("9")) || byte == ascii("-") || byte == ascii("_")
    }

    private static func isQueryNameByte(_ byte: UInt8) -> Bool {
        isNameByte(byte) || byte == ascii(".") || byte == ascii("~") || byte == ascii("%") || byte == ascii("+")
            || byte == ascii("[") || byte == ascii("]")
    }

    private static func endsQueryValue(_ byte: UInt8) -> Bool {
        switch byte {
        case ascii("&"), ascii(";"), ascii("#"), ascii(" "), ascii("\t"), ascii("\n"), ascii("\r"), ascii("\""),
            ascii("'"), ascii("<"), ascii(">"), ascii(")"), ascii("]"), ascii("}"):
            true
        default: false
        }
    }
}
