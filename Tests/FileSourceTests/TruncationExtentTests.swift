import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// How much of a cut movie is present, read from the container's own tables, for every layout.
@Suite("Truncation from the container's tables")
struct TruncationExtentTests {
    static let layouts: [(name: String, clip: TestMedia.Clip)] = [
        ("MP4, moov first, sound and video interleaved", TestMedia.barsWithAudio),
        ("MP4, moov last, sound and video interleaved", TestMedia.barsWithAudioMoovAtEnd),
        ("WebM, sound and video", TestMedia.barsWithAudioWebM),
    ]

    @Test("an intact movie is not truncated, whatever its layout", arguments: [0, 1, 2])
    func intact(layout: Int) async throws {
        let url = try await TestMedia.url(for: Self.layouts[layout].clip)
        #expect(FileSource(url: url).truncation() == nil, "\(Self.layouts[layout].name)")
    }

    @Test(
        "a movie cut in its media data is playable up to about where it was cut",
        arguments: [(0, 0.01), (0, 0.5), (0, 0.99), (1, 0.5), (1, 0.99), (2, 0.5), (2, 0.9)])
    func cut(layout: Int, fraction: Double) async throws {
        let (name, clip) = Self.layouts[layout]
        let url = try await TestMedia.cut(clip, keeping: fraction)
        let truncation = FileSource(url: url).truncation()
        if layout == 1 {
            // The moov box is at the end and was cut off: no tables, the demuxer's error tells.
            #expect(truncation == nil, "\(name) at \(fraction)")
            #expect(ContainerInspector.isTruncated(path: url.path))
            return
        }
        let found = try #require(truncation, "\(name) at \(fraction)")
        let duration = try #require(found.duration)
        #expect(abs(duration.inSeconds - 2) < 0.1, "\(found)")
        // The media data is most of the file and its rate is steady: the cut is close to the
        // same fraction of the duration (the header comes first, so a little less).
        let expected = duration.inSeconds * fraction
        #expect(found.playableDuration.inSeconds <= expected + 0.1, "\(name) at \(fraction): \(found)")
        #expect(found.playableDuration.inSeconds >= expected - 0.45, "\(name) at \(fraction): \(found)")
        #expect(found.playableDuration < duration)
    }

    @Test("lying sample tables and cluster sizes give an answer or none, never a trap")
    func hostileTables() async throws {
        let mp4 = [UInt8](try Data(contentsOf: try await TestMedia.cut(TestMedia.barsWithAudio, keeping: 0.5)))
        let webm = [UInt8](try Data(contentsOf: try await TestMedia.cut(TestMedia.barsWithAudioWebM, keeping: 0.5)))
        var mutants: [[UInt8]] = []
        // Every table's count, fixed size and first entries set to all ones, then to zero.
        for box in ["stsz", "stco", "stsc", "stts", "mdhd", "mvhd", "elst"] {
            guard let at = mp4.indices.dropLast(4).first(where: { mp4[$0..<($0 + 4)].elementsEqual(box.utf8) }) else {
                continue
            }
            for fill: UInt8 in [0xFF, 0x00] {
                var mutant = mp4
                for index in (at + 4)..<min(at + 28, mutant.count) { mutant[index] = fill }
                mutants.append(mutant)
            }
        }
        // Each of the WebM file's first cluster's size bytes, and its block headers, set to all ones.
        let cluster: [UInt8] = [0x1F, 0x43, 0xB6, 0x75]
        if let at = webm.indices.dropLast(4).first(where: { webm[$0..<($0 + 4)].elementsEqual(cluster) }) {
            for offset in 4..<40 {
                var mutant = webm
                mutant[at + offset] = 0xFF
                mutants.append(mutant)
            }
        }
        #expect(mutants.count > 20)
        for mutant in mutants {
            if let found = ContainerInspector.truncation(bytes: mutant) {
                #expect(found.playableDuration >= .zero)
                #expect(found.duration.map { found.playableDuration <= $0 } ?? true)
            }
        }
    }
}
