import MediaEngine
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
}
