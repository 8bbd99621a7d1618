/// HTTP Digest authentication with MD5 (RFC 7616, which keeps RFC 2617's computation), as
/// ``FaultInjectingServer`` checks it and as a test computes a client's answer.
public enum HTTPDigest {
    /// The `response` a client sends: with `qop` (`auth`),
    /// `MD5(HA1:nonce:nc:cnonce:qop:HA2)`, without it (RFC 2069) `MD5(HA1:nonce:HA2)`, where
    /// `HA1 = MD5(user:realm:password)` and `HA2 = MD5(method:uri)`.
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    ///   - realm: The challenge's realm.
    ///   - method: The request's method.
    ///   - uri: The request target, as in the `uri` parameter.
    ///   - nonce: The challenge's nonce.
    ///   - qop: `auth`, or nil for RFC 2069's form.
    ///   - nc: The nonce count, 8 hexadecimal digits (with `qop`).
    ///   - cnonce: The client's nonce (with `qop`).
    /// - Returns: 32 lowercase hexadecimal digits.
    public static func response(
        user: String, password: String, realm: String, method: String, uri: String, nonce: String,
        qop: String? = "auth", nc: String = "00000001", cnonce: String = "0a4f113b"
    ) -> String {
        let ha1 = MD5.hex("\(user):\(realm):\(password)")
        let ha2 = MD5.hex("\(method):\(uri)")
        guard let qop else { return MD5.hex("\(ha1):\(nonce):\(ha2)") }
        return MD5.hex("\(ha1):\(nonce):\(nc):\(cnonce):\(qop):\(ha2)")
    }

    /// The parameters of a `Digest` challenge or answer (what follows the scheme), names in
    /// lower case, quoted values unquoted.
    /// - Parameter text: For example `realm="Movies", qop="auth", nonce="abc"`.
    /// - Returns: The values by name.
    public static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { return result }
            let name = rest[..<equals].trimmingSpaces.lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        value.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingSpaces
                rest = rest[end...]
            }
            result[name] = value
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
