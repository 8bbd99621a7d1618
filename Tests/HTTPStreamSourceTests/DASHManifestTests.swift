import MediaEngine
import MediaEngineXML
import MediaTestSupport
import Testing

@testable import HTTPStreamSource

/// Reading a DASH manifest's representations and their segments' URIs (no server, no GStreamer).
@Suite("DASH manifests")
struct DASHManifestTests {
    @Test("a template with the representation's id tells each segment's representation")
    func templates() throws {
        let mpd = try #require(DASHManifest(AdaptiveStreamMedia.dashLadder))
        #expect(mpd.representations.map(\.variant.id) == ["high", "mid", "low"])
        #expect(mpd.variant(ofSegment: "http://h/x/mid007.ts") == SegmentVariant(id: "mid", bandwidth: 650_000))
        #expect(mpd.variant(ofSegment: "http://h/x/high000.ts?token=1")?.id == "high")
        #expect(mpd.variant(ofSegment: "http://h/x/low.ts") == nil, "no number")
        #expect(mpd.variant(ofSegment: "http://h/x/xlow001.ts") == nil, "not after a /")
        #expect(mpd.variant(ofSegment: "http://h/x/audio001.ts") == nil)
    }

    @Test("base URLs, bandwidth and time identifiers, segment lists; audio is not reported beside video")
    func otherForms() throws {
        let text = """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period>
            <AdaptationSet mimeType="audio/mp4"><Representation id="a" bandwidth="64000">
            <SegmentTemplate media="audio/$Time$.m4s"/></Representation></AdaptationSet>
            <AdaptationSet mimeType="video/mp4"><BaseURL>video/</BaseURL>
            <SegmentTemplate media="$Bandwidth$/seg-$Number%05d$.m4s"/>
            <Representation id="1" bandwidth="500000"/>
            <Representation id="2" bandwidth="2000000"><BaseURL>hd/</BaseURL></Representation>
            <Representation id="3" bandwidth="4000000"><SegmentList><SegmentURL media="uhd%20one.m4s"/>
            </SegmentList></Representation>
            </AdaptationSet><AdaptationSet contentType="video">
            <Representation id="4" bandwidth="9000000"><BaseURL>http://cdn/all/whole.mp4</BaseURL>
            <SegmentBase indexRange="0-99"/></Representation></AdaptationSet></Period></MPD>
            """
        let mpd = try #require(DASHManifest(text))
        #expect(mpd.representations.map(\.variant.id) == ["1", "2", "3", "4"])
        #expect(mpd.variant(ofSegment: "http://h/v/video/500000/seg-00012.m4s")?.id == "1")
        #expect(mpd.variant(ofSegment: "http://h/v/video/hd/2000000/seg-00012.m4s")?.id == "2")
        #expect(mpd.variant(ofSegment: "http://h/v/video/uhd%20one.m4s")?.id == "3")
        #expect(mpd.variant(ofSegment: "http://cdn/all/whole.mp4")?.id == "4")
        #expect(mpd.variant(ofSegment: "http://h/v/audio/1234.m4s") == nil)
    }

    @Test("not an MPD, no representation, broken XML, thousands of representations: bounded, never a crash")
    func hostile() {
        #expect(DASHManifest("#EXTM3U\n#EXTINF:2,\na.ts\n") == nil)
        #expect(DASHManifest("<MPD><Period/></MPD>") == nil)
        #expect(DASHManifest("<MPD><Period><AdaptationSet><Representation id='x'><SegmentTemplate media='a") == nil)
        let many = (0..<5000).map { "<Representation id=\"r\($0)\" bandwidth=\"\($0)\"/>" }.joined()
        let big = DASHManifest(
            "<MPD><Period><AdaptationSet><SegmentTemplate media=\"$RepresentationID$-$Number$.ts\"/>\(many)"
                + "</AdaptationSet></Period></MPD>")
        #expect(big.map(\.representations.count).map { $0 <= DASHManifest.largestRepresentationCount } ?? true)
        #expect(big?.variant(ofSegment: "http://h/r17-3.ts")?.id == "r17")
        #expect(big?.variant(ofSegment: String(repeating: "/9", count: 5000)) == nil)
    }

    /// The ladder with `declaration` between its XML declaration and its `<MPD>`.
    private static func ladder(declaring declaration: String) -> String {
        AdaptiveStreamMedia.dashLadder.replacingOccurrences(of: "<MPD ", with: declaration + "\n<MPD ")
    }

    @Test(
        "a DOCTYPE (a DTD, an external entity, a billion laughs) is refused with a typed error, nothing read",
        arguments: [
            "<!DOCTYPE MPD>",
            "<!DOCTYPE MPD SYSTEM \"http://127.0.0.1:9/mpd.dtd\">",
            "<!DOCTYPE MPD [<!ENTITY passwd SYSTEM \"file:///etc/passwd\">]>",
            "<!DOCTYPE MPD [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
                + "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>",
        ])
    func documentType(_ declaration: String) throws {
        let error = #expect(throws: DASHManifestError.self) {
            try DASHManifest.read(Self.ladder(declaring: declaration))
        }
        guard case .unreadable(let reason) = error else {
            Issue.record("not refused as unreadable: \(String(describing: error))")
            return
        }
        #expect(reason.reason == .documentType)
        #expect(
            reason.description == "line 2, column \(reason.column): the document declares a DTD (<!DOCTYPE>), "
                + "which is refused: no entity is declared, loaded or expanded")
        #expect(DASHManifest(Self.ladder(declaring: declaration)) == nil)
    }

    @Test("processing instructions and comments are skipped (FoundationXML crashed on `<?pi?>`); a prefix is dropped")
    func processingInstructions() throws {
        let text = Self.ladder(declaring: "<?pi?><!-- a comment -->")
            .replacingOccurrences(of: "<Period id=\"p0\">", with: "<Period id=\"p0\"><?pi?><?pi data?>")
        #expect(try DASHManifest.read(text).representations.map(\.variant.id) == ["high", "mid", "low"])
        let prefixed = AdaptiveStreamMedia.dashLadder.replacingOccurrences(of: "<MPD xmlns=", with: "<MPD xmlns:d=")
            .replacingOccurrences(of: "<Representation ", with: "<d:Representation ")
        #expect(try DASHManifest.read(prefixed).representations.count == 3)
    }

    @Test("not an MPD, not well-formed, larger than 4 MiB or 64 levels deep: each a typed error")
    func typedErrors() {
        #expect(throws: DASHManifestError.notAnMPD) { try DASHManifest.read("#EXTM3U\n") }
        #expect(throws: DASHManifestError.noRepresentation) { try DASHManifest.read("<MPD><Period/></MPD>") }
        let broken = #expect(throws: DASHManifestError.self) { try DASHManifest.read("<MPD><Period></MPD>") }
        if case .unreadable(let error) = broken {
            #expect(error.reason == .malformed)
            #expect(error.description.contains("Opening and ending tag mismatch"), "\(error)")
        } else {
            Issue.record("\(String(describing: broken))")
        }
        let large = AdaptiveStreamMedia.dashLadder + "<!--" + String(repeating: " ", count: 4 << 20) + "-->"
        #expect(throws: DASHManifestError.unreadable(XMLTreeError(.tooLarge, detail: "\(4 << 20)"))) {
            try DASHManifest.read(large)
        }
        let deep = "<MPD>" + String(repeating: "<x>", count: 64) + String(repeating: "</x>", count: 64) + "</MPD>"
        let tooDeep = #expect(throws: DASHManifestError.self) { try DASHManifest.read(deep) }
        if case .unreadable(let error) = tooDeep {
            #expect(error.reason == .tooDeep)
        } else {
            Issue.record("\(String(describing: tooDeep))")
        }
    }
}
