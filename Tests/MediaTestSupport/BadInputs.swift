import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

/// Files that must not play, made in a scratch folder: each one a kind of bad input the
/// engine must refuse with a precise error.
public struct BadInputs: Sendable {
    /// One bad input and the error code the engine must give it.
    public struct Case: Sendable, CustomStringConvertible {
        /// A short name for test reports.
        public let name: String
        /// The path to open.
        public let path: String
        /// The error code expected (its name).
        public let expectedCode: String
        /// Whether the error comes at the end of playback (the finish event) rather than from preparation.
        public let failsDuringPlayback: Bool

        /// The name.
        public var description: String { name }
    }

    /// The folder the files live in.
    public let directory: URL
    /// Every case.
    public let cases: [Case]

    /// The files, made from the test clips once per process (every test that asks shares them;
    /// none writes to them or removes them: the folder goes with the scratch folders of earlier
    /// runs, an hour later).
    public static func make() async throws -> BadInputs {
        let task = made.withLock { made in
            if let made { return made }
            let task = Task {
                let bars = try Data(contentsOf: try await TestMedia.url(for: TestMedia.bars))
                let moovAtEnd = try Data(contentsOf: try await TestMedia.url(for: TestMedia.barsMoovAtEnd))
                let image = try Data(contentsOf: try await TestMedia.url(for: TestMedia.image))
                let webm = try Data(contentsOf: try await TestMedia.url(for: TestMedia.barsWebM))
                // Scrambling a movie byte by byte is seconds of CPU in a debug build: on a thread
                // of its own, not a cooperative one that other tests' tasks are waiting for.
                return try await OwnThread.run {
                    try makeFiles(bars: bars, moovAtEnd: moovAtEnd, image: image, webm: webm)
                }
            }
            made = task
            return task
        }
        return try await task.value
    }

    private static let made = Locked<Task<BadInputs, any Error>?>(nil)

    private static func makeFiles(bars: Data, moovAtEnd: Data, image: Data, webm: Data) throws -> BadInputs {
        let directory = try TestMedia.scratchDirectory()
        var random = SeededRandom(seed: 42)

        func write(_ name: String, _ data: Data) throws -> String {
            let url = directory.appendingPathComponent(name)
            try data.write(to: url)
            return url.path
        }

        var cases: [Case] = []
        func add(_ name: String, _ path: String, _ code: String, duringPlayback: Bool = false) {
            cases.append(Case(name: name, path: path, expectedCode: code, failsDuringPlayback: duringPlayback))
        }

        add("missing file", directory.appendingPathComponent("missing.mp4").path, "fileNotFound")
        add("missing folder", directory.appendingPathComponent("nowhere/movie.mp4").path, "fileNotFound")
        let folder = directory.appendingPathComponent("folder.mp4")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        add("directory", folder.path, "isDirectory")
        let fifo = directory.appendingPathComponent("fifo.mp4").path
        guard mkfifo(fifo, 0o644) == 0 else { throw TestMediaError(message: "mkfifo failed: \(errno)") }
        add("FIFO", fifo, "notRegularFile")
        add("character device", "/dev/zero", "notRegularFile")
        add("empty file", try write("empty.mp4", Data()), "emptyFile")
        add("text", try write("notes.mp4", Data(String(repeating: "Just some text.\n", count: 200).utf8)), "notAMovie")
        add("image", try write("picture.mp4", image), "notAMovie")
        add("random bytes", try write("noise.mp4", Data((0..<65_536).map { _ in random.nextByte() })), "notAMovie")
        // A valid ftyp box followed by noise: recognised as MP4, structure damaged.
        let corrupt = bars.prefix(32) + Data((0..<(bars.count - 32)).map { _ in random.nextByte() })
        add("corrupt container", try write("corrupt.mp4", corrupt), "corruptContainer")
        add(
            "truncated, moov last", try write("cut-moov-last.mp4", moovAtEnd.prefix(moovAtEnd.count / 2)),
            "truncatedMovie")
        add(
            "truncated, moov first", try write("cut-moov-first.mp4", bars.prefix(bars.count / 2)), "truncatedMovie",
            duringPlayback: true)
        // A sound MP4 whose pictures are noise: the demuxer is content, the decoder gets nothing
        // it can decode (and libav's complaints must stay off standard error).
        add(
            "pictures that do not decode", try write("noise-pictures.mp4", Self.scramblingMediaData(bars, &random)),
            "corruptContainer")
        // Matroska whose codec ID names a codec nobody decodes: GStreamer has no plugin for it.
        let unknownCodec = Data(webm.replacing(Data("V_VP8".utf8), with: Data("V_QQ8".utf8)))
        add("no decoder for the codec", try write("unknown-codec.mkv", unknownCodec), "missingPlugin")
        // Sizes no file can have, which the engine's own container inspection once trapped on
        // (arithmetic overflow, a size that does not fit an Int) and so ended the process.
        add("MP4 box claiming 2^64 bytes", try write("huge-box.mp4", Self.hugeBoxMP4), "corruptContainer")
        add("Matroska header of unknown size", try write("unknown-size.mkv", Self.unknownSizeMatroska), "notAMovie")
        return BadInputs(directory: directory, cases: cases)
    }

    /// An `ftyp` box, then an `mdat` whose 64-bit size is 16 bytes short of 2^64: 4 KB in all.
    public static let hugeBoxMP4: Data = {
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0]
        bytes += [0, 0, 0, 1] + Array("mdat".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
        return Data(bytes + [UInt8](repeating: 0, count: 4_000))
    }()

    /// An EBML header whose size is "unknown" (all value bits set), then zeros: 4 KB in all.
    public static let unknownSizeMatroska: Data = {
        let bytes: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        return Data(bytes + [UInt8](repeating: 0, count: 4_000))
    }()

    /// An MP4 file with the payload of its `mdat` box replaced by noise, every box intact.
    static func scramblingMediaData(_ movie: Data, _ random: inout SeededRandom) -> Data {
        var bytes = [UInt8](movie)
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard size >= 8, offset + size <= bytes.count else { break }
            if type == "mdat" {
                for index in offset + 8..<offset + size { bytes[index] = random.nextByte() }
            }
            offset += size
        }
        return Data(bytes)
    }

}

/// A small deterministic generator (SplitMix64), so "random" test files are the same every run.
public struct SeededRandom: Sendable {
    private var state: UInt64

    /// Creates a generator.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// The next random byte.
    public mutating func nextByte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }
}
