import Foundation
import MediaEngine
import Testing

/// The one redaction of the engine's log, on the texts GStreamer, libsoup and the engine write.
@Suite("Log redaction")
struct LogRedactionTests {
    @Test("every query value goes, with or without a scheme and host; the names stay")
    func queryValues() {
        #expect(
            LogRedaction.redact("GET http://h:80/a/m.mp4?token=abc123&Expires=1700000000&X-Amz-Signature=f00d next")
                == "GET http://h:80/a/m.mp4?token=<redacted>&Expires=<redacted>&X-Amz-Signature=<redacted> next")
        #expect(
            LogRedaction.redact("GET /basic/movie.mp4?sig=s3cr3t;Policy=eyJ HTTP/1.1")
                == "GET /basic/movie.mp4?sig=<redacted>;Policy=<redacted> HTTP/1.1")
        #expect(
            LogRedaction.redact("uri=\"https://h/x.m3u8?a=1#frag\"") == "uri=\"https://h/x.m3u8?a=<redacted>#frag\"")
        // Not a query: left alone.
        #expect(LogRedaction.redact("really? yes") == "really? yes")
    }

    @Test("user information in URLs goes")
    func userInformation() {
        #expect(LogRedaction.redact("opening http://alice:pw1234@host/m.mp4") == "opening http://host/m.mp4")
    }

    @Test("secret-named fields lose their values: headers, structure fields, dictionary entries")
    func secretFields() {
        #expect(LogRedaction.redact("Authorization: Basic dmlld2VyOnBvcGNvcm4=") == "Authorization: <redacted>")
        #expect(
            LogRedaction.redact("Appending extra header: \"X-Test-Token: abc-123\"")
                == "Appending extra header: \"X-Test-Token: <redacted>\"")
        #expect(
            LogRedaction.redact("headers, X-Api-Key=(string)\"k\\\"ey\", Accept=(string)\"*/*\"")
                == "headers, X-Api-Key=(string)<redacted>, Accept=(string)\"*/*\"")
        #expect(
            LogRedaction.redact("[\"Cookie\": \"session=5678\", \"Accept\": \"x\"]")
                == "[\"Cookie\": <redacted>, \"Accept\": \"x\"]")
        #expect(LogRedaction.redact("set user-pw=hunter22 and user-id=bob") == "set user-pw=<redacted> and user-id=bob")
        #expect(LogRedaction.redact("Cookie: session=1; other=2\nHost: h") == "Cookie: <redacted>\nHost: h")
        // Ordinary words are not field names; a name with no value keeps its text.
        #expect(LogRedaction.redact("state: PLAYING, keyframe: 3") == "state: PLAYING, keyframe: 3")
        #expect(LogRedaction.redact("no token:") == "no token:")
    }

    @Test("registered secrets go wherever they appear; short ones are not registered")
    func registeredSecrets() {
        let secret = "pw-\(UUID().uuidString)"
        #expect(LogRedaction.redact("said \(secret) twice: \(secret)") == "said \(secret) twice: \(secret)")
        LogRedaction.register(secret: secret)
        #expect(LogRedaction.redact("said \(secret) twice: \(secret)") == "said <redacted> twice: <redacted>")
        LogRedaction.register(secret: "abc")
        #expect(LogRedaction.redact("abc") == "abc")
    }

    @Test("a source's settings register its password, Basic credentials, header values and cookies")
    func settingsSecrets() throws {
        let tag = UUID().uuidString.prefix(8)
        let settings = SourceSettings(properties: [
            "user-id": "viewer", "user-pw": .string("pop-\(tag)"),
            "extra-headers": .string("headers, X-Custom=(string)\"value-\(tag)\""),
            "cookies": .strings(["session=cookie-\(tag); Path=/"]),
        ])
        LogRedaction.registerSecrets(in: settings)
        let basic = Data("viewer:pop-\(tag)".utf8).base64EncodedString()
        let text = "pop-\(tag) value-\(tag) cookie-\(tag) \(basic)"
        #expect(LogRedaction.redact(text) == "<redacted> <redacted> <redacted> <redacted>")
    }

    @Test("redacting twice changes nothing more")
    func idempotent() {
        let once = LogRedaction.redact("GET /m?token=abc Authorization: Bearer x")
        #expect(LogRedaction.redact(once) == once)
    }
}
