import Foundation

/// The VAST documents the tests read, written for them in the shapes real ad servers send
/// (CDATA around every URL with newlines and indentation, VAST 4's default namespace, the
/// elements an engine must skip). `base` is the test server's URL: tracking URLs point at its
/// `/beacon/` path, so the tests can read back what was called.
enum VASTSamples {
    /// A VAST 2.0 inline ad: no namespace, tabs, CDATA on lines of their own, a companion
    /// creative after the linear one, a `close` event (VAST 2's), no skip offset.
    static func inline2(base: String = "http://ads.invalid") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <VAST version="2.0">
        \t<Ad id="v2-ad">
        \t\t<InLine>
        \t\t\t<AdSystem>Test Ad Server 2</AdSystem>
        \t\t\t<AdTitle>Version two</AdTitle>
        \t\t\t<Impression>
        \t\t\t<![CDATA[
        \t\t\t\t\(base)/beacon/v2/impression?cb=[CACHEBUSTING]
        \t\t\t]]>
        \t\t\t</Impression>
        \t\t\t<Error><![CDATA[\(base)/beacon/v2/error?code=[ERRORCODE]]]></Error>
        \t\t\t<Creatives>
        \t\t\t\t<Creative>
        \t\t\t\t\t<Linear>
        \t\t\t\t\t\t<Duration>00:00:30</Duration>
        \t\t\t\t\t\t<TrackingEvents>
        \t\t\t\t\t\t\t<Tracking event="start"><![CDATA[\(base)/beacon/v2/start]]></Tracking>
        \t\t\t\t\t\t\t<Tracking event="close"><![CDATA[\(base)/beacon/v2/close]]></Tracking>
        \t\t\t\t\t\t</TrackingEvents>
        \t\t\t\t\t\t<VideoClicks>
        \t\t\t\t\t\t\t<ClickThrough><![CDATA[ https://advertiser.invalid/landing?from=v2 ]]></ClickThrough>
        \t\t\t\t\t\t\t<ClickTracking><![CDATA[\(base)/beacon/v2/click]]></ClickTracking>
        \t\t\t\t\t\t</VideoClicks>
        \t\t\t\t\t\t<MediaFiles>
        \t\t\t\t\t\t\t<MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="800">
        \t\t\t\t\t\t\t<![CDATA[
        \t\t\t\t\t\t\thttps://cdn.invalid/v2/ad-640.mp4
        \t\t\t\t\t\t\t]]>
        \t\t\t\t\t\t\t</MediaFile>
        \t\t\t\t\t\t</MediaFiles>
        \t\t\t\t\t</Linear>
        \t\t\t\t</Creative>
        \t\t\t\t<Creative>
        \t\t\t\t\t<CompanionAds>
        \t\t\t\t\t\t<Companion width="300" height="250">
        \t\t\t\t\t\t\t<StaticResource creativeType="image/png"><![CDATA[https://cdn.invalid/c.png]]></StaticResource>
        \t\t\t\t\t\t\t<CompanionClickThrough><![CDATA[https://advertiser.invalid/]]></CompanionClickThrough>
        \t\t\t\t\t\t</Companion>
        \t\t\t\t\t</CompanionAds>
        \t\t\t\t</Creative>
        \t\t\t</Creatives>
        \t\t</InLine>
        \t</Ad>
        </VAST>
        """
    }

    /// A VAST 3.0 inline ad: a time skip offset, a progress event, several impressions (one
    /// empty, one a bare text URL), two click trackings, a non-linear creative, extensions.
    static func inline3(base: String = "http://ads.invalid") -> String {
        """
        <VAST version="3.0" xmlns:xs="http://www.w3.org/2001/XMLSchema">
          <Ad id="v3-ad">
            <InLine>
              <AdSystem version="3.1">Test Ad Server 3</AdSystem>
              <AdTitle>
                Version three
              </AdTitle>
              <Impression id="one"><![CDATA[\(base)/beacon/v3/impression-1]]></Impression>
              <Impression id="empty"></Impression>
              <Impression id="blank"><![CDATA[   ]]></Impression>
              <Impression id="two">\(base)/beacon/v3/impression-2?a=1&amp;b=2</Impression>
              <Error><![CDATA[\(base)/beacon/v3/error?code=[ERRORCODE]&asset=[ASSETURI]]]></Error>
              <Creatives>
                <Creative id="v3-creative" sequence="1" adId="AD-3">
                  <Linear skipoffset="00:00:05">
                    <Duration>00:00:15.500</Duration>
                    <TrackingEvents>
                      <Tracking event="creativeView"><![CDATA[\(base)/beacon/v3/creativeView]]></Tracking>
                      <Tracking event="start"><![CDATA[\(base)/beacon/v3/start]]></Tracking>
                      <Tracking event="progress" offset="00:00:10"><![CDATA[\(base)/beacon/v3/progress-10s]]></Tracking>
                      <Tracking event="skip"><![CDATA[\(base)/beacon/v3/skip]]></Tracking>
                      <Tracking event="complete"><![CDATA[\(base)/beacon/v3/complete]]></Tracking>
                    </TrackingEvents>
                    <VideoClicks>
                      <ClickThrough id="landing"><![CDATA[https://advertiser.invalid/v3]]></ClickThrough>
                      <ClickTracking id="a"><![CDATA[\(base)/beacon/v3/click-a]]></ClickTracking>
                      <ClickTracking id="b"><![CDATA[\(base)/beacon/v3/click-b]]></ClickTracking>
                    </VideoClicks>
                    <MediaFiles>
                      <MediaFile id="low" delivery="progressive" type="video/mp4" width="480" height="270" bitrate="400"
                        codec="avc1.42E01E"><![CDATA[https://cdn.invalid/v3/low.mp4]]></MediaFile>
                      <MediaFile id="vpaid" delivery="progressive" type="application/javascript" apiFramework="VPAID"
                        width="640" height="360"><![CDATA[https://cdn.invalid/v3/vpaid.js]]></MediaFile>
                    </MediaFiles>
                  </Linear>
                </Creative>
                <Creative id="v3-overlay">
                  <NonLinearAds>
                    <NonLinear width="480" height="70" minSuggestedDuration="00:00:05">
                      <StaticResource creativeType="image/png"><![CDATA[https://cdn.invalid/overlay.png]]></StaticResource>
                    </NonLinear>
                    <TrackingEvents>
                      <Tracking event="start"><![CDATA[\(base)/beacon/v3/nonlinear-start]]></Tracking>
                    </TrackingEvents>
                  </NonLinearAds>
                </Creative>
              </Creatives>
              <Extensions>
                <Extension type="waterfall"><Position><![CDATA[ 2 ]]></Position></Extension>
              </Extensions>
            </InLine>
          </Ad>
        </VAST>
        """
    }

    /// A VAST 4.1 inline ad in the IAB namespace: a percentage skip offset, a progress event
    /// at a percentage, events this engine does not know, Mezzanine and interactive files,
    /// ad verification, universal ad IDs, a pricing element.
    static func inline41(base: String = "http://ads.invalid") -> String {
        """
        <VAST version="4.1" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns="http://www.iab.com/VAST">
          <Ad id="v41-ad" sequence="1" conditionalAd="false">
            <InLine>
              <AdSystem version="4.1">Test Ad Server 4</AdSystem>
              <Error>
                <![CDATA[\(base)/beacon/v41/error?code=[ERRORCODE]]]>
              </Error>
              <Impression id="imp">
                <![CDATA[\(base)/beacon/v41/impression?t=[TIMESTAMP]]]>
              </Impression>
              <Pricing model="cpm" currency="EUR"><![CDATA[ 12.00 ]]></Pricing>
              <AdServingId>serving-41</AdServingId>
              <AdTitle>Version four one</AdTitle>
              <AdVerifications>
                <Verification vendor="verifier.invalid">
                  <JavaScriptResource apiFramework="omid" browserOptional="true">
                    <![CDATA[https://verifier.invalid/omid.js]]>
                  </JavaScriptResource>
                </Verification>
              </AdVerifications>
              <Creatives>
                <Creative id="v41-creative" sequence="1" adId="AD-41">
                  <UniversalAdId idRegistry="Ad-ID">UAID-41</UniversalAdId>
                  <Linear skipoffset="25%">
                    <TrackingEvents>
                      <Tracking event="loaded"><![CDATA[\(base)/beacon/v41/loaded]]></Tracking>
                      <Tracking event="start">
                        <![CDATA[\(base)/beacon/v41/start]]>
                      </Tracking>
                      <Tracking event="progress" offset="10%"><![CDATA[\(base)/beacon/v41/progress-10pc]]></Tracking>
                      <Tracking event="otherAdInteraction"><![CDATA[\(base)/beacon/v41/other]]></Tracking>
                      <Tracking event="closeLinear"><![CDATA[\(base)/beacon/v41/closeLinear]]></Tracking>
                    </TrackingEvents>
                    <Duration>00:00:20</Duration>
                    <MediaFiles>
                      <MediaFile id="hd" delivery="progressive" type="video/mp4" width="1280" height="720"
                        minBitrate="1500" maxBitrate="2500" scalable="1" maintainAspectRatio="1" codec="H.264">
                        <![CDATA[https://cdn.invalid/v41/hd.mp4]]>
                      </MediaFile>
                      <MediaFile id="hls" delivery="streaming" type="application/x-mpegURL" width="1280" height="720">
                        <![CDATA[https://cdn.invalid/v41/master.m3u8]]>
                      </MediaFile>
                      <Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080">
                        <![CDATA[https://cdn.invalid/v41/mezzanine.mp4]]>
                      </Mezzanine>
                      <InteractiveCreativeFile type="text/html" apiFramework="SIMID">
                        <![CDATA[https://cdn.invalid/v41/simid.html]]>
                      </InteractiveCreativeFile>
                    </MediaFiles>
                    <VideoClicks>
                      <ClickThrough id="landing">
                        <![CDATA[https://advertiser.invalid/v41?x=1&y=2]]>
                      </ClickThrough>
                    </VideoClicks>
                  </Linear>
                </Creative>
              </Creatives>
            </InLine>
          </Ad>
        </VAST>
        """
    }

    /// A wrapper (VAST 3 shape, with the VAST 4 attributes) whose linear creative adds
    /// tracking and click tracking, leading to `next`. Its beacons are named after `name`.
    static func wrapper(
        name: String, next: String, base: String, version: String = "3.0", sequence: Int? = nil,
        allowMultipleAds: Bool? = nil, followAdditionalWrappers: Bool? = nil
    ) -> String {
        let sequenceAttribute = sequence.map { " sequence=\"\($0)\"" } ?? ""
        var attributes = ""
        if let allowMultipleAds { attributes += " allowMultipleAds=\"\(allowMultipleAds)\"" }
        if let followAdditionalWrappers { attributes += " followAdditionalWrappers=\"\(followAdditionalWrappers)\"" }
        return """
            <VAST version="\(version)">
              <Ad id="\(name)"\(sequenceAttribute)>
                <Wrapper\(attributes)>
                  <AdSystem>Wrapping Server</AdSystem>
                  <VASTAdTagURI>
                    <![CDATA[\(next)]]>
                  </VASTAdTagURI>
                  <Error><![CDATA[\(base)/beacon/\(name)/error?code=[ERRORCODE]]]></Error>
                  <Impression><![CDATA[\(base)/beacon/\(name)/impression]]></Impression>
                  <Creatives>
                    <Creative>
                      <Linear>
                        <TrackingEvents>
                          <Tracking event="start"><![CDATA[\(base)/beacon/\(name)/start]]></Tracking>
                          <Tracking event="firstQuartile"><![CDATA[\(base)/beacon/\(name)/firstQuartile]]></Tracking>
                        </TrackingEvents>
                        <VideoClicks>
                          <ClickTracking><![CDATA[\(base)/beacon/\(name)/click]]></ClickTracking>
                        </VideoClicks>
                      </Linear>
                    </Creative>
                    <Creative>
                      <CompanionAds>
                        <Companion width="300" height="250">
                          <StaticResource creativeType="image/png"><![CDATA[https://cdn.invalid/w.png]]></StaticResource>
                        </Companion>
                      </CompanionAds>
                    </Creative>
                  </Creatives>
                </Wrapper>
              </Ad>
            </VAST>
            """
    }

    /// An `<Ad>` element of an inline linear ad with every event this engine fires, each
    /// beacon carrying the macros in its query; for pods, put several in one document.
    static func inlineAd(
        name: String, base: String, sequence: Int? = nil, duration: String = "00:00:16",
        mediaFiles: String? = nil
    ) -> String {
        let sequenceAttribute = sequence.map { " sequence=\"\($0)\"" } ?? ""
        let macros =
            "ad=[ADPLAYHEAD]&media=[MEDIAPLAYHEAD]&content=[CONTENTPLAYHEAD]&asset=[ASSETURI]&cb=[CACHEBUSTING]"
        let events = [
            "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "mute", "unmute",
            "pause", "resume", "skip", "close", "closeLinear",
        ]
        let tracking = events.map {
            "<Tracking event=\"\($0)\"><![CDATA[\(base)/beacon/\(name)/\($0)?\(macros)]]></Tracking>"
        }.joined(separator: "\n            ")
        let files =
            mediaFiles
                ?? """
                <MediaFile delivery="progressive" type="video/mp4" width="320" height="240" bitrate="300">
                              <![CDATA[https://cdn.invalid/\(name).mp4]]>
                            </MediaFile>
                """
        return """
              <Ad id="\(name)"\(sequenceAttribute)>
                <InLine>
                  <AdSystem>Test Ad Server</AdSystem>
                  <AdTitle>\(name)</AdTitle>
                  <Impression><![CDATA[\(base)/beacon/\(name)/impression?\(macros)&ts=[TIMESTAMP]]]></Impression>
                  <Error><![CDATA[\(base)/beacon/\(name)/error?code=[ERRORCODE]&\(macros)&unknown=[PLAYERSTATE]]]></Error>
                  <Creatives>
                    <Creative id="\(name)-creative">
                      <Linear skipoffset="00:00:05">
                        <Duration>\(duration)</Duration>
                        <TrackingEvents>
                        \(tracking)
                        <Tracking event="progress" offset="00:00:10"><![CDATA[\(base)/beacon/\(name)/progress-10s?\(macros)]]></Tracking>
                        <Tracking event="progress" offset="90%"><![CDATA[\(base)/beacon/\(name)/progress-90pc?\(macros)]]></Tracking>
                        </TrackingEvents>
                        <VideoClicks>
                          <ClickThrough><![CDATA[https://advertiser.invalid/\(name)]]></ClickThrough>
                          <ClickTracking><![CDATA[\(base)/beacon/\(name)/click?\(macros)]]></ClickTracking>
                        </VideoClicks>
                        <MediaFiles>
                        \(files)
                        </MediaFiles>
                      </Linear>
                    </Creative>
                  </Creatives>
                </InLine>
              </Ad>
            """
    }

    /// A VAST document of the given `<Ad>` elements.
    static func document(_ ads: [String], version: String = "3.0", errors: [String] = []) -> String {
        let errorElements = errors.map { "  <Error><![CDATA[\($0)]]></Error>\n" }.joined()
        return "<VAST version=\"\(version)\">\n\(errorElements)\(ads.joined(separator: "\n"))\n</VAST>\n"
    }

    /// An inline ad (``inlineAd(name:base:sequence:duration:mediaFiles:)``) alone in a document.
    static func inline(name: String, base: String, version: String = "3.0") -> String {
        document([inlineAd(name: name, base: base)], version: version)
    }
}
