import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile files that claim enormous sizes, and writes that cannot succeed: typed errors, with
/// the process's peak memory measured around each.
@Suite("Bounded resources on hostile files")
struct BoundedResourceTests {
    /// The process's peak resident memory so far (VmHWM), in bytes.
    static func peakResident() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// A valid PNG (signature, IHDR with a correct CRC, a small IDAT, IEND) claiming `side` x `side` RGBA pixels.
    static func png(side: UInt32) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        let header = bigEndian(side) + bigEndian(side) + [8, 6, 0, 0, 0]
        // A stored (uncompressed) deflate block of 16 zero bytes: a few rows' worth, far short of the claim.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 16, 0, 0xEF, 0xFF] + [UInt8](repeating: 0, count: 16) + [0, 0, 0, 1]
        let bytes: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat)
            + chunk("IEND", [])
        return Data(bytes)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test("a 60000x60000 PNG or JPEG of a few bytes is refused as tooLarge before it is decoded")
    func hugePictures() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("huge.png")
        try Self.png(side: 60000).write(to: png)
        // The bars JPEG with its frame header saying 60000x60000.
        var jpeg = [UInt8](try Data(contentsOf: try await TestMedia.url(for: TestMedia.barsJPEG)))
        let sof = try #require(jpeg.indices.dropLast(9).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])
        let jpg = folder.appendingPathComponent("huge.jpg")
        try Data(jpeg).write(to: jpg)
        let before = Self.peakResident()
        for url in [png, jpg] {
            do {
                _ = try await ImageOverlay(contentsOf: url)
                Issue.record("\(url.lastPathComponent) was accepted")
            } catch {
                #expect(error.code == .tooLarge, "\(url.lastPathComponent): \(error)")
                #expect(error.message.contains("claims 60000x60000"), "\(error)")
            }
        }
        // Refused from the header ("claims"), not by a decoder. The peak is shared with the tests
        // running beside this one, so the bound is loose; decoding would need 14.4 GB.
        #expect(Self.peakResident() - before < 512 << 20, "peak grew by \(Self.peakResident() - before) bytes")
        #expect(MediaLimits.allows(width: 7680, height: 4320))
        #expect(!MediaLimits.allows(width: 16385, height: 16))
        #expect(!MediaLimits.allows(width: 16384, height: 16384))
    }

    @Test("a movie whose frames claim 30000x30000 pixels fails typed")
    func hugeFrames() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var movie = [UInt8](try Data(contentsOf: try await TestMedia.url(for: TestMedia.motionJPEG)))
        var patched = 0
        for index in movie.indices.dropLast(9) where movie[index] == 0xFF && movie[index + 1] == 0xC0 {
            movie.replaceSubrange((index + 5)..<(index + 9), with: [0x75, 0x30, 0x75, 0x30])
            patched += 1
        }
        #expect(patched > 0)
        let url = folder.appendingPathComponent("huge-frames.mkv")
        try Data(movie).write(to: url)
        // In a child process: GstVideoDecoder allocates one frame (1.35 GB) after the refused
        // negotiation, which must not count against the tests running beside this one.
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaprobe"), [url.path])
        #expect(result.status == 1)
        #expect(
            result.standardError.hasPrefix("mediaprobe: tooLarge: the video frames are 30000x30000"),
            "\(result.standardError)")
    }

    @Test("writing a picture to a read-only folder or a full disk is a typed error, and leaves no file")
    func unwritable() async throws {
        let image = try await ThumbnailGenerator(source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)))
            .image(at: .zero)
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let readOnly = folder.appendingPathComponent("read-only")
        let full = folder.appendingPathComponent("full")
        for made in [readOnly, full] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        // Root writes through permissions: tmpfs mounts then (read-only, and a full one of 64 KB),
        // where the machine allows them.
        func mount(_ options: String, _ at: URL) async -> Bool {
            guard getuid() == 0 else { return false }
            let result = try? await ProcessRunner.run("mount", ["-t", "tmpfs", "-o", options, "tmpfs", at.path])
            return result?.status == 0
        }
        let readOnlyMounted = await mount("ro,size=64k", readOnly)
        if !readOnlyMounted { chmod(readOnly.path, 0o555) }
        if readOnlyMounted || getuid() != 0 {
            let target = readOnly.appendingPathComponent("shot.png")
            do {
                try image.write(to: target)
                Issue.record("a read-only folder took the picture")
            } catch {
                #expect(error.code == .permissionDenied, "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: target.path))
        }
        if await mount("size=64k", full) {
            // Fill it, then write.
            _ = try? Data(count: 128 << 10).write(to: full.appendingPathComponent("filler"))
            let target = full.appendingPathComponent("shot.jpg")
            do {
                try image.write(to: target)
                Issue.record("a full disk took the picture")
            } catch {
                #expect(error.code == .diskFull, "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: target.path))
            _ = try? await ProcessRunner.run("umount", [full.path])
        }
        if readOnlyMounted { _ = try? await ProcessRunner.run("umount", [readOnly.path]) }
    }
}
