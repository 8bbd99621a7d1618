/// Apache's MD5-based password hash (`$apr1$`, what `openssl passwd -apr1` and `htpasswd -m`
/// write), for the password file nginx's `auth_basic` reads in ``StreamingTestServer``:
/// computed here rather than by starting `openssl` for every server.
public enum APR1 {
    /// The hash of `password` with `salt`, as a password file holds it.
    /// - Parameters:
    ///   - password: The password.
    ///   - salt: Up to 8 characters of `./0-9A-Za-z`; random when nil.
    /// - Returns: `$apr1$SALT$HASH`.
    public static func hash(_ password: String, salt: String? = nil) -> String {
        let salt = salt ?? String((0..<8).map { _ in alphabet.randomElement()! })
        precondition(salt.count <= 8 && salt.allSatisfy(alphabet.contains), "not an apr1 salt: \(salt)")
        let secret = Array(password.utf8)
        let saltBytes = Array(salt.utf8)
        let magic = Array("$apr1$".utf8)
        var context = secret + magic + saltBytes
        let alternate = MD5.digest(secret + saltBytes + secret)
        for remaining in stride(from: secret.count, to: 0, by: -16) { context += alternate.prefix(min(16, remaining)) }
        var length = secret.count
        while length > 0 {
            context.append(length & 1 != 0 ? 0 : secret[0])
            length >>= 1
        }
        var digest = MD5.digest(context)
        for round in 0..<1000 {
            var step: [UInt8] = round & 1 != 0 ? secret : digest
            if round % 3 != 0 { step += saltBytes }
            if round % 7 != 0 { step += secret }
            step += round & 1 != 0 ? digest : secret
            digest = MD5.digest(step)
        }
        var encoded = ""
        func append(_ value: Int, _ count: Int) {
            var value = value
            for _ in 0..<count {
                encoded.append(alphabet[value & 0x3f])
                value >>= 6
            }
        }
        for (first, second, third) in [(0, 6, 12), (1, 7, 13), (2, 8, 14), (3, 9, 15), (4, 10, 5)] {
            append(Int(digest[first]) << 16 | Int(digest[second]) << 8 | Int(digest[third]), 4)
        }
        append(Int(digest[11]), 2)
        return "$apr1$\(salt)$\(encoded)"
    }

    private static let alphabet = Array("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
}
