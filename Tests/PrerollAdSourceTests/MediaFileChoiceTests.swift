import Foundation
import MediaEngine
import PrerollAdSource
import Testing

/// ``ResolvedAd/mediaFile(supportedTypes:preferredSize:preferredBitrate:)``: which rendition
/// plays.
@Suite("Media file choice")
struct MediaFileChoiceTests {
    static func file(
        _ name: String, type: String = "video/mp4", delivery: String? = "progressive", _ width: Int? = nil,
        _ height: Int? = nil, bitrate: Int? = nil, minBitrate: Int? = nil, maxBitrate: Int? = nil
    ) -> VASTMediaFile {
        VASTMediaFile(
            url: URL(string: "https://cdn.invalid/\(name)")!, delivery: delivery, type: type, width: width,
            height: height, bitrate: bitrate, minBitrate: minBitrate, maxBitrate: maxBitrate, id: name)
    }

    /// Renditions as an ad server sends them: interactive and streamed ones first, then
    /// progressive files of several sizes.
    static let ad = ResolvedAd(
        duration: .seconds(15),
        mediaFiles: [
            file("vpaid.js", type: "application/javascript", 1920, 1080, bitrate: 5000),
            file("flash.swf", type: "application/x-shockwave-flash", 1920, 1080),
            file("master.m3u8", type: "application/x-mpegURL", delivery: "streaming", 1920, 1080),
            file("manifest.mpd", type: "application/dash+xml", delivery: "streaming", 1920, 1080),
            file("streamed.mp4", delivery: "streaming", 1920, 1080, bitrate: 6000),
            file("360.webm", type: "video/webm", 640, 360, bitrate: 1000),
            file("720.mp4", type: "video/mp4; codecs=\"avc1.64001F\"", 1280, 720, bitrate: 2000),
            file("720-high.mp4", 1280, 720, bitrate: 4000),
            file("480.mp4", 854, 480, minBitrate: 700, maxBitrate: 1500),
            file("180.mp4", delivery: nil, 320, 180, bitrate: 300),
            file("unsized.mp4", bitrate: 900),
        ])

    static func choose(
        _ types: Set<String> = ["video/mp4", "video/webm"], size: VideoSize? = nil, bitrate: Int? = nil
    ) -> String? {
        ad.mediaFile(supportedTypes: types, preferredSize: size, preferredBitrate: bitrate)?.id
    }

    @Test("the closest in area to the size asked for, then the closest bitrate")
    func bySize() {
        #expect(Self.choose(size: VideoSize(width: 854, height: 480)) == "480.mp4")
        #expect(Self.choose(size: VideoSize(width: 1920, height: 1080)) == "720.mp4")
        #expect(Self.choose(size: VideoSize(width: 1920, height: 1080), bitrate: 3500) == "720-high.mp4")
        #expect(Self.choose(size: VideoSize(width: 600, height: 340)) == "360.webm")
        #expect(Self.choose(["video/mp4"], size: VideoSize(width: 700, height: 400)) == "480.mp4")
        // By area: 600x340 is nearer 320x180 than 854x480.
        #expect(Self.choose(["video/mp4"], size: VideoSize(width: 600, height: 340)) == "180.mp4")
        #expect(Self.choose(size: VideoSize(width: 160, height: 90)) == "180.mp4")
    }

    @Test("without a size: the largest within the bitrate, the middle of min and max when no bitrate is given")
    func byBitrate() {
        #expect(Self.choose() == "720.mp4")
        #expect(Self.choose(bitrate: 1200) == "480.mp4")
        #expect(Self.choose(bitrate: 1000) == "360.webm")
        // A file of unknown size comes after every sized one.
        #expect(Self.choose(["video/mp4"], bitrate: 1000) == "180.mp4")
        #expect(
            ResolvedAd(mediaFiles: [Self.file("unsized.mp4", bitrate: 900)]).mediaFile(
                supportedTypes: ["video/mp4"], preferredSize: nil, preferredBitrate: 1000)?.id == "unsized.mp4")
        // None is that low: the lowest bitrate.
        #expect(Self.choose(bitrate: 100) == "180.mp4")
    }

    @Test("types compare without case or parameters; a missing delivery is progressive")
    func types() {
        #expect(Self.choose(["VIDEO/MP4"], size: VideoSize(width: 1280, height: 720)) == "720.mp4")
        #expect(Self.choose(["video/mp4; codecs=\"avc1\""], size: VideoSize(width: 320, height: 180)) == "180.mp4")
        #expect(Self.choose(["video/webm"]) == "360.webm")
        #expect(Self.choose(["video/ogg"]) == nil)
    }

    @Test("streamed, HLS, DASH and VPAID files are never chosen, even when their types are asked for")
    func unplayable() {
        let types: Set<String> = [
            "application/javascript", "application/x-shockwave-flash", "application/x-mpegurl",
            "application/dash+xml",
        ]
        #expect(Self.choose(types) == nil)
        let streamedOnly = ResolvedAd(mediaFiles: Array(Self.ad.mediaFiles.prefix(5)))
        #expect(
            streamedOnly.mediaFile(
                supportedTypes: types.union(["video/mp4"]), preferredSize: VideoSize(width: 1920, height: 1080),
                preferredBitrate: nil) == nil)
    }

    @Test("the document's order breaks ties")
    func ties() {
        let ad = ResolvedAd(mediaFiles: [Self.file("a.mp4", 640, 360), Self.file("b.mp4", 640, 360)])
        #expect(
            ad.mediaFile(
                supportedTypes: ["video/mp4"], preferredSize: VideoSize(width: 640, height: 360), preferredBitrate: 500)?
                .id == "a.mp4")
        #expect(ad.mediaFile(supportedTypes: ["video/mp4"], preferredSize: nil, preferredBitrate: nil)?.id == "a.mp4")
    }
}
