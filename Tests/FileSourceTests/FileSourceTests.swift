import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileSource")
struct FileSourceTests {
    @Test(
        "file URIs escape every byte outside the unreserved set",
        arguments: [
            ("/tmp/movie.mp4", "file:///tmp/movie.mp4"),
            ("/tmp/with space.mp4", "file:///tmp/with%20space.mp4"),
            ("/tmp/100%.mp4", "file:///tmp/100%25.mp4"),
            ("/tmp/take#2?.mp4", "file:///tmp/take%232%3F.mp4"),
            ("/tmp/é.mp4", "file:///tmp/%C3%A9.mp4"),
            ("/tmp/a_b-c~d.mp4", "file:///tmp/a_b-c~d.mp4"),
        ])
    func uriEscaping(path: String, uri: String) {
        #expect(FileSource(path: path).uri == uri)
    }

    @Test("relative paths resolve against the current directory; file URLs keep their path")
    func paths() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(FileSource(path: "clip.mp4").path == cwd + "/clip.mp4")
        #expect(FileSource(url: URL(fileURLWithPath: "/tmp/a b.mp4")).path == "/tmp/a b.mp4")
        #expect(FileSource(path: "/tmp/x.mp4").sourceType == .file)
    }

    @Test("validation refuses what cannot be a movie file, before any pipeline exists")
    func validation() async throws {
        let inputs = try await BadInputs.make()
        let checkedUpFront: Set<String> = ["fileNotFound", "isDirectory", "notRegularFile", "emptyFile"]
        for input in inputs.cases {
            let source = FileSource(path: input.path)
            if checkedUpFront.contains(input.expectedCode) {
                #expect(throws: MediaError.self, "\(input.name)") { try source.validate() }
                do { try source.validate() } catch { #expect(error.code.name == input.expectedCode, "\(input.name)") }
            } else {
                // Judged by GStreamer from the content.
                #expect(throws: Never.self, "\(input.name)") { try source.validate() }
            }
        }
        #expect(throws: MediaError.self) { try FileSource(url: URL(string: "https://example.com/a.mp4")!).validate() }
    }

    @Test("a container that runs past the end of the file is truncated, not corrupt")
    func truncationDiagnosis() async throws {
        let inputs = try await BadInputs.make()
        let truncated = try #require(inputs.cases.first { $0.name == "truncated, moov last" })
        let corrupt = try #require(inputs.cases.first { $0.name == "corrupt container" })
        let reported = MediaError(.corruptContainer, "This file contains no playable streams.")
        #expect(FileSource(path: truncated.path).interpret(reported).code == .truncatedMovie)
        #expect(FileSource(path: corrupt.path).interpret(reported).code == .corruptContainer)
        let whole = try await TestMedia.url(for: TestMedia.bars)
        #expect(FileSource(url: whole).interpret(reported).code == .corruptContainer)
        // Matroska: a segment whose declared size runs past the end.
        let webm = try Data(contentsOf: try await TestMedia.url(for: TestMedia.barsWebM))
        let cut = inputs.directory.appendingPathComponent("cut.webm")
        try webm.prefix(webm.count / 2).write(to: cut)
        #expect(FileSource(url: cut).interpret(reported).code == .truncatedMovie)
    }

    @Test("MoviePlayer(contentURL:) picks FileSource for file URLs")
    func contentURL() async throws {
        let url = try await TestMedia.url(for: TestMedia.bars)
        let player = MoviePlayer(contentURL: url)
        #expect(player.source is FileSource)
        #expect(player.source.uri == FileSource(url: url).uri)
        let missing = MoviePlayer(contentURL: URL(fileURLWithPath: "/nonexistent/movie.mp4"))
        await #expect(throws: MediaError.self) { try await missing.prepareToPlay() }
        #expect(missing.error?.code == .fileNotFound)
    }
}

@Suite("Container inspection of hostile sizes")
struct ContainerInspectionTests {
    /// A top-level box: a 32-bit size, or 1 and a 64-bit size after the type.
    private func box(_ type: String, size: UInt64, largeSize: Bool = false) -> [UInt8] {
        func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
            (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        return largeSize
            ? bigEndian(1, bytes: 4) + Array(type.utf8) + bigEndian(size, bytes: 8)
            : bigEndian(size, bytes: 4) + Array(type.utf8)
    }

    @Test("sizes near 2^64, unknown EBML sizes and boxes cut mid-header are answered, never trapped on")
    func hostileSizes() {
        let ftyp = box("ftyp", size: 16) + Array("isom".utf8) + [0, 0, 0, 0]
        let padding = [UInt8](repeating: 0, count: 64)
        // A 64-bit size whose end overflows: corruption, not a cut.
        #expect(!ContainerInspector.isTruncated(bytes: ftyp + box("mdat", size: .max - 15, largeSize: true) + padding))
        #expect(!ContainerInspector.isTruncated(bytes: ftyp + box("mdat", size: .max, largeSize: true) + padding))
        // A large size below 16 (it cannot even hold its own header), and the 32-bit sizes 2 to 7.
        #expect(!ContainerInspector.isTruncated(bytes: ftyp + box("mdat", size: 9, largeSize: true) + padding))
        #expect(!ContainerInspector.isTruncated(bytes: ftyp + box("free", size: 7) + padding))
        // A size that runs past the end by one byte is a cut.
        #expect(ContainerInspector.isTruncated(bytes: ftyp + box("mdat", size: 8 + 65) + padding))
        #expect(ContainerInspector.isTruncated(bytes: ftyp + box("mdat", size: 16 + 65, largeSize: true) + padding))
        // A box header cut short after the large-size marker.
        #expect(!ContainerInspector.isTruncated(bytes: ftyp + [0, 0, 0, 1] + Array("mdat".utf8) + [0xFF]))
        // EBML: an unknown-size header, a header size near 2^56, a segment of unknown size (runs
        // to the end: complete), a zero length byte, and a header cut inside its size.
        let ebml: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]
        #expect(!ContainerInspector.isTruncated(bytes: ebml + [0x01] + [UInt8](repeating: 0xFF, count: 7) + padding))
        #expect(!ContainerInspector.isTruncated(bytes: ebml + [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]))
        let segment: [UInt8] = [0x18, 0x53, 0x80, 0x67]
        #expect(!ContainerInspector.isTruncated(bytes: ebml + [0x80] + segment + [0xFF] + padding))
        #expect(
            ContainerInspector.isTruncated(bytes: ebml + [0x80] + segment + [0x01] + [UInt8](repeating: 0xF0, count: 7))
        )
        #expect(!ContainerInspector.isTruncated(bytes: ebml + [0x00] + padding))
        #expect(!ContainerInspector.isTruncated(bytes: ebml + [0x01, 0xFF]))
        #expect(!ContainerInspector.isTruncated(bytes: []))
    }

    @Test("thousands of random and mutated headers are answered, never trapped on")
    func mutatedHeaders() async throws {
        let bars = [UInt8](try Data(contentsOf: try await TestMedia.url(for: TestMedia.bars)))
        let webm = [UInt8](try Data(contentsOf: try await TestMedia.url(for: TestMedia.barsWebM)))
        // Seconds of CPU in a debug build: on a thread of its own, not a cooperative one that other
        // tests' tasks are waiting for.
        let truncated = try await OwnThread.run {
            var random = SeededRandom(seed: 7)
            var truncated = 0
            for round in 0..<4_000 {
                var bytes = Array((round.isMultiple(of: 2) ? bars : webm).prefix(512))
                // Overwrite a few bytes of the first 64 (where the sizes are) with extremes or noise.
                for _ in 0..<Int(random.next() % 6 + 1) {
                    let index = Int(random.next() % 64)
                    bytes[index] = [0x00, 0x01, 0x7F, 0x80, 0xFF, random.nextByte()][Int(random.next() % 6)]
                }
                bytes = Array(bytes.prefix(Int(random.next() % 512) + 1))
                if ContainerInspector.isTruncated(bytes: bytes) { truncated += 1 }
            }
            return truncated
        }
        // The cut prefixes of intact headers are mostly told as cut: the inspector still works.
        #expect(truncated > 100)
    }
}

@Suite("MP4 keyframe index")
struct MP4KeyframeIndexTests {
    @Test(
        "the video keyframes of MP4 files, with and without sound, B-frames and edit lists",
        arguments: [
            (TestMedia.keyframes(gop: 30, audio: true), 30),
            (TestMedia.keyframes(gop: 30, bframes: 2, audio: true), 30),
            (TestMedia.keyframes(gop: 25, audio: false), 25),
        ])
    func realFiles(clip: TestMedia.Clip, gop: Int) async throws {
        let path = try await TestMedia.url(for: clip).path
        let times = try #require(MP4KeyframeIndex.keyframeTimes(path: path))
        // 150 frames at 30 fps: a keyframe every `gop` frames, at frame n / 30 s (to the ns).
        let expected = stride(from: 0, to: 150, by: gop).map { Int64($0) * 1_000_000_000 / 30 }
        #expect(times.count == expected.count, "\(times)")
        for (time, want) in zip(times, expected) {
            #expect(abs(time - want) <= 1, "\(times)")
        }
        #expect(FileSource(path: path).videoKeyframeTimes()?.count == expected.count)
    }

    @Test("other containers and files with no video track have no index")
    func notMP4() async throws {
        #expect(MP4KeyframeIndex.keyframeTimes(path: try await TestMedia.url(for: TestMedia.barsWebM).path) == nil)
        #expect(MP4KeyframeIndex.keyframeTimes(path: try await TestMedia.url(for: TestMedia.audioOnly).path) == nil)
        #expect(MP4KeyframeIndex.keyframeTimes(bytes: []) == nil)
    }

    @Test("every cut and every corrupted byte of a real file's moov gives an answer, never a trap")
    func hostileBytes() async throws {
        let path = try await TestMedia.url(for: TestMedia.keyframes(gop: 30, bframes: 2, audio: true)).path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // faststart: the moov follows ftyp, within the first few kilobytes.
        let moovEnd = min(bytes.count, 16_384)
        // Seconds of CPU in a debug build: on a thread of its own, not a cooperative one that other
        // tests' tasks are waiting for. Seeded, so a failure repeats.
        let bad = try await OwnThread.run {
            var bad: [String] = []
            func check(_ input: [UInt8], _ what: String) {
                guard let times = MP4KeyframeIndex.keyframeTimes(bytes: input) else { return }
                if !(times.first! >= 0 && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }) { bad.append(what) }
            }
            for cut in stride(from: 0, to: moovEnd, by: 7) {
                check(Array(bytes[..<cut]), "cut at \(cut)")
            }
            var random = SeededRandom(seed: 11)
            for _ in 0..<2_000 {
                var corrupted = bytes
                let at = Int(random.next() % UInt64(moovEnd))
                corrupted[at] = [0x00, 0xFF, 0x80, 0x7F, random.nextByte()][Int(random.next() % 5)]
                check(corrupted, "byte \(at) set to \(corrupted[at])")
            }
            return bad
        }
        #expect(bad.isEmpty, "times out of order or negative: \(bad.prefix(5))")
    }
}
