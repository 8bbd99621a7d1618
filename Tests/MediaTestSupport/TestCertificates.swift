import Foundation
import MediaEngine

/// A certificate authority of the tests' own and server certificates it signed, for HTTPS
/// tests: a client trusts them only when given ``caFile``. Made with `openssl` (P-256 keys, a
/// few milliseconds each) once per test process, in a scratch folder.
public struct TestCertificates: Sendable {
    /// A certificate and its private key, both PEM files.
    public struct Identity: Sendable {
        /// The certificate.
        public let certificate: URL
        /// Its unencrypted private key.
        public let key: URL
    }

    /// The CA's certificate (PEM): what a client is told to trust.
    public let caFile: URL
    /// Valid for 30 days from its making, for IP address 127.0.0.1 and the name `localhost`.
    public let server: Identity
    /// Valid, but only for the name `wrong-host.invalid`: a client connecting to 127.0.0.1 must
    /// refuse it as a host-name mismatch.
    public let wrongHost: Identity
    /// For 127.0.0.1, valid only from 2020-01-01 to 2020-01-02: expired.
    public let expired: Identity

    private static let made = Locked<Task<TestCertificates, any Error>?>(nil)

    /// The process's certificates, made on first use.
    /// - Throws: ``TestMediaError`` when `openssl` fails.
    /// - Returns: The certificates.
    public static func shared() async throws -> TestCertificates {
        let task = made.withLock { made in
            if let made { return made }
            let task = Task { try await make() }
            made = task
            return task
        }
        return try await task.value
    }

    private static func make() async throws -> TestCertificates {
        let directory = try TestMedia.scratchDirectory()
        try configuration(directory).write(
            to: directory.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
        try Data().write(to: directory.appendingPathComponent("index.txt"))
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        var commands = [
            ["req", "-x509", "-config", path("ca.cnf"), "-extensions", "ca_extensions", "-days", "30"] + newKey + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"), "-subj", "/CN=swift-media-engine test CA",
            ]
        ]
        for (name, extensions, validity) in [
            ("server", "loopback", ["-days", "30"]),
            ("wrong-host", "wrong_host", ["-days", "30"]),
            ("expired", "loopback", ["-startdate", "20200101000000Z", "-enddate", "20200102000000Z"]),
        ] {
            commands.append(
                ["req", "-new", "-config", path("ca.cnf")] + newKey + [
                    "-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", "/CN=\(name)",
                ])
            commands.append(
                ["ca", "-batch", "-notext", "-config", path("ca.cnf"), "-extensions", extensions] + validity + [
                    "-in", path("\(name).csr"), "-out", path("\(name).pem"),
                ])
        }
        // One shell for the seven commands: starting a process from the test runner is what
        // costs (up to half a second each while the whole suite runs on 2 cores), not openssl.
        let script = commands.map { (["openssl"] + $0).map(quoted).joined(separator: " ") }.joined(separator: " && ")
        let result = try await ProcessRunner.run("/bin/sh", ["-c", script])
        guard result.status == 0 else { throw TestMediaError(message: "openssl failed: \(result.standardError)") }
        func identity(_ name: String) -> Identity {
            Identity(
                certificate: directory.appendingPathComponent("\(name).pem"),
                key: directory.appendingPathComponent("\(name).key"))
        }
        return TestCertificates(
            caFile: directory.appendingPathComponent("ca.pem"), server: identity("server"),
            wrongHost: identity("wrong-host"), expired: identity("expired"))
    }

    /// `text` in single quotes for the shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What `openssl req` and `openssl ca` read instead of the system's openssl.cnf, so the
    /// extensions are the same wherever the tests run; `ca` keeps its database in `directory`.
    private static func configuration(_ directory: URL) -> String {
        """
        [req]
        distinguished_name = dn
        prompt = no
        [dn]
        CN = unused
        [ca_extensions]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [ca]
        default_ca = test_ca
        [test_ca]
        dir = \(directory.path)
        database = $dir/index.txt
        new_certs_dir = $dir
        certificate = $dir/ca.pem
        private_key = $dir/ca.key
        default_md = sha256
        policy = any
        unique_subject = no
        rand_serial = yes
        [any]
        commonName = supplied
        [loopback]
        basicConstraints = CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = IP:127.0.0.1, DNS:localhost
        [wrong_host]
        basicConstraints = CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:wrong-host.invalid
        """
    }
}
