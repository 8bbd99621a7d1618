import Foundation
import MediaEngine
import PrerollAdSource
import Testing

/// ``VASTParser`` on documents in the shapes of VAST 2.0, 3.0 and 4.1, and on what is not VAST.
@Suite("VAST parser")
struct VASTParserTests {
    @Test("VAST 2.0: CDATA on lines of their own is trimmed, the companion creative is skipped")
    func vast2() throws {
        let document = try VASTParser.parse(Data(VASTSamples.inline2().utf8))
        #expect(document.version == "2.0")
        #expect(document.errors.isEmpty)
        let ad = try #require(document.ads.first)
        #expect(document.ads.count == 1)
        #expect(ad.id == "v2-ad" && ad.sequence == nil && ad.kind == .inline)
        #expect(ad.adSystem == "Test Ad Server 2" && ad.title == "Version two")
        #expect(ad.impressions == ["http://ads.invalid/beacon/v2/impression?cb=[CACHEBUSTING]"])
        #expect(ad.errors == ["http://ads.invalid/beacon/v2/error?code=[ERRORCODE]"])
        #expect(ad.creativeCount == 2)
        let linear = try #require(ad.linearCreatives.first)
        #expect(ad.linearCreatives.count == 1)
        #expect(linear.duration == .seconds(30))
        #expect(linear.skipOffset == nil)
        #expect(
            linear.mediaFiles == [
                VASTMediaFile(
                    url: URL(string: "https://cdn.invalid/v2/ad-640.mp4")!, delivery: "progressive", type: "video/mp4",
                    width: 640, height: 360, bitrate: 800)
            ])
        #expect(
            linear.tracking == [
                VASTTrackingEvent(event: .start, uri: "http://ads.invalid/beacon/v2/start"),
                VASTTrackingEvent(event: .close, uri: "http://ads.invalid/beacon/v2/close"),
            ])
        #expect(linear.clickThrough == "https://advertiser.invalid/landing?from=v2")
        #expect(linear.clickTracking == ["http://ads.invalid/beacon/v2/click"])
    }

    @Test("VAST 3.0: empty impressions left out, entities decoded, a time skip offset, non-linear ads skipped")
    func vast3() throws {
        let document = try VASTParser.parse(Data(VASTSamples.inline3().utf8))
        let ad = try #require(document.ads.first)
        #expect(ad.title == "Version three")
        #expect(
            ad.impressions == [
                "http://ads.invalid/beacon/v3/impression-1", "http://ads.invalid/beacon/v3/impression-2?a=1&b=2",
            ])
        #expect(ad.creativeCount == 2)
        #expect(ad.linearCreatives.count == 1)
        let linear = try #require(ad.linearCreatives.first)
        #expect(linear.id == "v3-creative" && linear.sequence == 1 && linear.adID == "AD-3")
        #expect(linear.duration == .milliseconds(15_500))
        #expect(linear.skipOffset == .time(.seconds(5)))
        #expect(linear.tracking.map(\.event) == [.creativeView, .start, .progress, .skip, .complete])
        #expect(linear.tracking[2].offset == .time(.seconds(10)))
        #expect(!linear.tracking.contains { $0.uri.contains("nonlinear") })
        #expect(linear.clickTracking.count == 2)
        #expect(linear.mediaFiles.map(\.id) == ["low", "vpaid"])
        #expect(linear.mediaFiles[0].codec == "avc1.42E01E")
        #expect(linear.mediaFiles[1].type == "application/javascript")
    }

    @Test("VAST 4.1 in the IAB namespace: a percentage skip offset, unknown events kept, Mezzanine ignored")
    func vast41() throws {
        let document = try VASTParser.parse(Data(VASTSamples.inline41().utf8))
        #expect(document.version == "4.1")
        let ad = try #require(document.ads.first)
        #expect(ad.sequence == 1)
        #expect(ad.adSystem == "Test Ad Server 4")
        #expect(ad.errors == ["http://ads.invalid/beacon/v41/error?code=[ERRORCODE]"])
        #expect(ad.impressions == ["http://ads.invalid/beacon/v41/impression?t=[TIMESTAMP]"])
        let linear = try #require(ad.linearCreatives.first)
        #expect(linear.skipOffset == .percent(25))
        #expect(linear.duration == .seconds(20))
        #expect(
            linear.tracking.map(\.event) == [
                .other("loaded"), .start, .progress, .other("otherAdInteraction"), .closeLinear,
            ])
        #expect(linear.tracking[1].uri == "http://ads.invalid/beacon/v41/start")
        #expect(linear.tracking[2].offset == .percent(10))
        #expect(linear.mediaFiles.map(\.id) == ["hd", "hls"])
        #expect(linear.mediaFiles[0].bitrate == nil && linear.mediaFiles[0].effectiveBitrate == 2000)
        #expect(linear.mediaFiles[1].delivery == "streaming" && !linear.mediaFiles[1].isProgressive)
        #expect(linear.clickThrough == "https://advertiser.invalid/v41?x=1&y=2")
    }

    @Test("VAST 4.2 and 4.0 read too; a wrapper's attributes and tag URI are kept")
    func wrapperAndVersions() throws {
        for version in ["4.0", "4.2", "2", "3.0"] {
            let text = VASTSamples.wrapper(
                name: "w", next: "https://next.invalid/vast.xml", base: "http://ads.invalid", version: version,
                allowMultipleAds: true, followAdditionalWrappers: false)
            let document = try VASTParser.parse(Data(text.utf8))
            let ad = try #require(document.ads.first)
            #expect(
                ad.wrapper
                    == VASTWrapper(
                        adTagURI: "https://next.invalid/vast.xml", followAdditionalWrappers: false,
                        allowMultipleAds: true))
            #expect(ad.linearCreatives.first?.tracking.map(\.event) == [.start, .firstQuartile])
            #expect(ad.linearCreatives.first?.mediaFiles == [])
            #expect(ad.creativeCount == 2)
        }
        let plain = try VASTParser.parse(
            Data(VASTSamples.wrapper(name: "w", next: "n.xml", base: "http://ads.invalid").utf8))
        #expect(plain.ads.first?.wrapper == VASTWrapper(adTagURI: "n.xml"))
    }

    @Test("an empty VAST and one with only root errors have no ads")
    func empty() throws {
        #expect(try VASTParser.parse(Data(#"<VAST version="3.0"/>"#.utf8)) == VASTDocument(version: "3.0", ads: []))
        let withError = try VASTParser.parse(
            Data(
                """
                <VAST version="4.0" xmlns="http://www.iab.com/VAST">
                  <Error>
                    <![CDATA[ https://ads.invalid/noad?code=[ERRORCODE] ]]>
                  </Error>
                </VAST>
                """.utf8))
        #expect(withError.ads.isEmpty)
        #expect(withError.errors == ["https://ads.invalid/noad?code=[ERRORCODE]"])
    }

    @Test(
        "what is not VAST is malformedVAST (100)",
        arguments: [
            "", "not xml at all", "<VAST version=\"3.0\"><Ad><InLine></Ad></VAST>", "<VAST version=\"3.0\">",
            "<VAST version=\"3.0\"></VAST> trailing", "<html><body>Sign in</body></html>",
            "<VAST><Ad id=\"1\"><InLine/></Ad></VAST>", "<VAST version=\"3.0\"><Ad id=\"x\"><Other/></Ad></VAST>",
            "<VAST version=\"3.0\"><Ad><Wrapper><VASTAdTagURI>  </VASTAdTagURI></Wrapper></Ad></VAST>",
        ])
    func malformed(_ text: String) {
        let error = #expect(throws: PrerollAdError.self) { try VASTParser.parse(Data(text.utf8)) }
        #expect(error?.code == .malformedVAST)
        #expect(error?.vastErrorCode == 100)
    }

    @Test("a DOCTYPE is refused, so no entity, external or internal, is ever loaded or expanded")
    func externalEntities() throws {
        // A VAST document has no use for a DTD: libxml2 (MediaEngineXML) stops at the DOCTYPE,
        // before any declaration in it is read.
        let error = #expect(throws: PrerollAdError.self) {
            try VASTParser.parse(
                Data(
                    """
                    <?xml version="1.0"?>
                    <!DOCTYPE VAST [<!ENTITY host SYSTEM "file:///etc/hostname">]>
                    <VAST version="3.0"><Ad id="a"><InLine>
                      <Impression>http://ads.invalid/i?h=&host;</Impression><AdTitle>&host;</AdTitle>
                      <Creatives><Creative><Linear/></Creative></Creatives>
                    </InLine></Ad></VAST>
                    """.utf8))
        }
        #expect(error?.code == .malformedVAST)
        let hostname = try String(contentsOfFile: "/etc/hostname", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!hostname.isEmpty && error?.message.contains(hostname) != true)
    }

    @Test(
        "a DTD, an external entity or a billion laughs is malformedVAST (100): nothing is loaded or expanded",
        arguments: [
            """
            <?xml version="1.0"?>
            <!DOCTYPE VAST [<!ENTITY passwd SYSTEM "file:///etc/passwd">]>
            <VAST version="3.0"><Ad id="a"><InLine><AdTitle>&passwd;</AdTitle></InLine></Ad></VAST>
            """,
            """
            <!DOCTYPE VAST SYSTEM "http://127.0.0.1:9/vast.dtd"><VAST version="3.0"/>
            """,
            """
            <!DOCTYPE VAST [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd"> %remote;]><VAST version="3.0"/>
            """,
            """
            <?xml version="1.0"?>
            <!DOCTYPE VAST [
              <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
              <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
              <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
              <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
            ]>
            <VAST version="3.0"><Ad id="a"><InLine><AdTitle>&f;&f;&f;&f;&f;&f;&f;&f;</AdTitle></InLine></Ad></VAST>
            """,
        ])
    func documentTypeRefused(_ text: String) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: PrerollAdError.self) { try VASTParser.parse(Data(text.utf8)) }
        #expect(clock.now - start < .seconds(1), "nothing expanded")
        #expect(error?.code == .malformedVAST && error?.vastErrorCode == 100)
        let message = try #require(error?.message)
        #expect(message.hasPrefix("the VAST document is refused: line "), "\(message)")
        #expect(message.contains("the document declares a DTD (<!DOCTYPE>)"), "\(message)")
        #expect(!message.contains("root:") && !message.contains("aaaa"), "\(message)")
    }

    @Test("an entity no DTD declares is not well-formed XML (100), with where and why")
    func undeclaredEntity() {
        let error = #expect(throws: PrerollAdError.self) {
            try VASTParser.parse(Data("<VAST version=\"3.0\">\n<Error>&xxe;</Error></VAST>".utf8))
        }
        #expect(error?.code == .malformedVAST)
        #expect(
            error?.message == "the VAST document is not well-formed XML (line 2, column 13: Entity 'xxe' not defined)",
            "\(error?.message ?? "")")
    }

    @Test("processing instructions, with or without data, are skipped (FoundationXML crashed on `<?pi?>`)")
    func processingInstructions() throws {
        let document = try VASTParser.parse(
            Data(
                """
                <?xml version="1.0"?><?pi?><?xml-stylesheet href="a.xsl"?>
                <VAST version="3.0"><?pi?><Ad id="a"><InLine><AdTitle>One<?pi?> title</AdTitle>
                <Impression><![CDATA[http://ads.invalid/i]]></Impression></InLine></Ad><?pi data?></VAST><?pi?>
                """.utf8))
        #expect(document.ads.map(\.id) == ["a"])
        #expect(document.ads.first?.title == "One title")
        #expect(document.ads.first?.impressions == ["http://ads.invalid/i"])
    }

    @Test("a name that is not UTF-8 is malformedVAST (FoundationXML trapped); the encoding a declaration names is read")
    func encodings() throws {
        let notUTF8 =
            Data("<VAST version=\"3.0\"><Ad id=\"a\"><InLine><Creatives><Creative><Linea".utf8) + Data([0xCF])
            + Data("r/></Creative></Creatives></InLine></Ad></VAST>".utf8)
        let error = #expect(throws: PrerollAdError.self) { try VASTParser.parse(notUTF8) }
        #expect(error?.code == .malformedVAST)
        #expect(error?.message.contains("not proper UTF-8") == true, "\(error?.message ?? "")")

        let latin1 =
            Data(
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><VAST version=\"3.0\"><Ad id=\"a\"><InLine><AdTitle>Caf"
                    .utf8)
            + Data([0xE9]) + Data("</AdTitle></InLine></Ad></VAST>".utf8)
        #expect(try VASTParser.parse(latin1).ads.first?.title == "Caf\u{E9}")
        let utf16 = try #require("<VAST version=\"3.0\"><Ad id=\"\u{263A}\"><InLine/></Ad></VAST>".data(using: .utf16))
        #expect(try VASTParser.parse(utf16).ads.first?.id == "\u{263A}")
    }

    @Test("past 2 MiB, 64 levels or 100,000 elements and attributes is refused (100)")
    func bounds() throws {
        let large = "<VAST version=\"3.0\"><Error>" + String(repeating: "x", count: 2 << 20) + "</Error></VAST>"
        let deep =
            "<VAST version=\"3.0\"><Extensions>" + String(repeating: "<e>", count: 100)
            + String(repeating: "</e>", count: 100) + "</Extensions></VAST>"
        let many = "<VAST version=\"3.0\">" + String(repeating: "<Error/>", count: 100_000) + "</VAST>"
        for (text, reason) in [
            (large, "larger than the 2097152 bytes allowed"), (deep, "deeper than the 64 levels allowed"),
            (many, "more than the 100000 elements and attributes allowed"),
        ] {
            let error = #expect(throws: PrerollAdError.self) { try VASTParser.parse(Data(text.utf8)) }
            #expect(error?.code == .malformedVAST)
            #expect(error?.message.hasPrefix("the VAST document is refused: ") == true)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        }
    }

    @Test("versions other than 2, 3 and 4 are configuration errors (102)", arguments: ["1.0", "5.0", "x"])
    func unsupportedVersion(_ version: String) {
        let error = #expect(throws: PrerollAdError.self) {
            try VASTParser.parse(Data("<VAST version=\"\(version)\"><Ad><InLine/></Ad></VAST>".utf8))
        }
        #expect(error?.code == .configuration)
        #expect(error?.vastErrorCode == 102)
        #expect(error?.message.contains(version) == true)
    }

    @Test("VAST 1.0's <VideoAdServingTemplate> is an unsupported version (102), not malformed")
    func vastOne() {
        let error = #expect(throws: PrerollAdError.self) {
            try VASTParser.parse(
                Data(
                    """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <VideoAdServingTemplate xsi:noNamespaceSchemaLocation="vast.xsd"
                      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
                      <Ad id="preroll-1"><InLine><AdSystem>2.0</AdSystem><AdTitle>5748406</AdTitle>
                        <Video><Duration>00:00:30</Duration><MediaFiles>
                          <MediaFile delivery="progressive" bitrate="500" width="400" height="300" type="video/x-flv">
                            <URL><![CDATA[http://cdn.invalid/ad.flv]]></URL></MediaFile></MediaFiles></Video>
                      </InLine></Ad>
                    </VideoAdServingTemplate>
                    """.utf8))
        }
        #expect(error?.code == .configuration && error?.vastErrorCode == 102)
        #expect(error?.message.contains("1.0") == true, "\(error?.message ?? "")")
    }

    @Test("unreadable optional values read as missing")
    func lenient() throws {
        let document = try VASTParser.parse(
            Data(
                """
                <VAST version="3.0"><Ad id="a" sequence="first"><InLine><Creatives><Creative>
                  <Linear skipoffset="soon"><Duration>thirty seconds</Duration>
                    <TrackingEvents><Tracking event="progress" offset="later">http://t.invalid/p</Tracking>
                      <Tracking>http://t.invalid/no-event</Tracking><Tracking event="start"> </Tracking></TrackingEvents>
                    <MediaFiles><MediaFile type="video/mp4" width="wide" bitrate="">http://cdn.invalid/a.mp4</MediaFile>
                      <MediaFile type="video/mp4">not a url</MediaFile></MediaFiles>
                  </Linear></Creative></Creatives></InLine></Ad></VAST>
                """.utf8))
        let ad = try #require(document.ads.first)
        #expect(ad.sequence == nil)
        let linear = try #require(ad.linearCreatives.first)
        #expect(linear.duration == nil && linear.skipOffset == nil)
        #expect(linear.tracking == [VASTTrackingEvent(event: .progress, offset: nil, uri: "http://t.invalid/p")])
        #expect(linear.mediaFiles.count == 1)
        #expect(linear.mediaFiles.first?.width == nil && linear.mediaFiles.first?.delivery == nil)
        #expect(linear.mediaFiles.first?.isProgressive == true)
    }
}
