import Foundation
import PrerollAdSource
import Testing

/// ``VASTMacros``: what each macro becomes, encoded for a query.
@Suite("VAST macros")
struct VASTMacrosTests {
    static let macros = VASTMacros(
        errorCode: 303, contentPlayhead: .seconds(3723) + .milliseconds(45), adPlayhead: .milliseconds(7250),
        assetURI: URL(string: "https://cdn.invalid/ads/a b.mp4?x=1&y=2"), timestamp: Date(timeIntervalSince1970: 0),
        cacheBusting: "01234567")

    @Test("every macro replaced, its value percent-encoded")
    func replaces() {
        let expanded = Self.macros.expand(
            "http://t.invalid/e?c=[ERRORCODE]&cb=[CACHEBUSTING]&content=[CONTENTPLAYHEAD]&ad=[ADPLAYHEAD]"
                + "&media=[MEDIAPLAYHEAD]&asset=[ASSETURI]")
        #expect(
            expanded
                == "http://t.invalid/e?c=303&cb=01234567&content=01%3A02%3A03.045&ad=00%3A00%3A07.250"
                + "&media=00%3A00%3A07.250&asset=https%3A%2F%2Fcdn.invalid%2Fads%2Fa%2520b.mp4%3Fx%3D1%26y%3D2")
    }

    @Test("the timestamp: ISO 8601 with milliseconds and a time zone")
    func timestamp() throws {
        let value = try #require(Self.macros.value(of: "TIMESTAMP"))
        #expect(value.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)/) != nil, "\(value)")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(parser.date(from: value) == Date(timeIntervalSince1970: 0))
        #expect(!Self.macros.expand("[TIMESTAMP]").contains(":"))
    }

    @Test("unknown macros and brackets that are no macro stay; known ones without a value are -1")
    func unknown() {
        let empty = VASTMacros(cacheBusting: "99999999")
        #expect(
            empty.expand(
                "http://t.invalid/e?c=[ERRORCODE]&p=[PLAYERSTATE]&a=[ASSETURI]&t=[ADPLAYHEAD]&x=[[CACHEBUSTING]]")
                == "http://t.invalid/e?c=-1&p=[PLAYERSTATE]&a=-1&t=-1&x=[99999999]")
        #expect(empty.expand("a[b]c[ERRORCODE") == "a[b]c[ERRORCODE")
        #expect(empty.expand("[errorcode]") == "[errorcode]")
    }

    @Test("a template is trimmed; one that makes no http URL gives no URL")
    func urls() {
        #expect(
            Self.macros.url("\n   http://t.invalid/i?c=[ERRORCODE]  \n")?.absoluteString == "http://t.invalid/i?c=303")
        #expect(Self.macros.url("HTTPS://t.invalid/i") != nil)
        for bad in ["", "   ", "javascript:alert(1)", "ftp://t.invalid/x", "/relative/path", "http://", "[ASSETURI]"] {
            #expect(Self.macros.url(bad) == nil, "\(bad)")
        }
    }

    @Test("what a URL may not hold is encoded in the URL, escapes already there kept; an IPv6 host keeps its brackets")
    func invalidCharacters() {
        let macros = VASTMacros(errorCode: 402)
        #expect(
            macros.url("http://t.invalid/a b/e?c=[ERRORCODE]&p=[PLAYERSTATE]&q=%7E%zz&r=\"x\"&s=é")?.absoluteString
                == "http://t.invalid/a%20b/e?c=402&p=%5BPLAYERSTATE%5D&q=%7E%25zz&r=%22x%22&s=%C3%A9")
        #expect(macros.url("http://[::1]:8080/e?c=[ERRORCODE]")?.absoluteString == "http://[::1]:8080/e?c=402")
    }

    @Test("cache busting: 8 random digits")
    func cacheBusting() {
        let values = (0..<50).map { _ in VASTMacros.randomCacheBusting() }
        #expect(values.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        #expect(Set(values).count > 40)
        #expect(VASTMacros().cacheBusting.count == 8)
    }
}
