import Foundation
import MediaTestSupport
import Testing

/// The mediathumbs example, run as a user would.
@Suite("mediathumbs", .serialized)
struct MediathumbsSmokeTests {
    @Test("mediathumbs writes the thumbnails and a contact sheet, with a progress bar on stderr")
    func thumbnailsAndSheet() async throws {
        let clip = try await TestMedia.url(for: TestMedia.numbered)
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = folder.appendingPathComponent("sheet.png")
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediathumbs"),
            [
                clip.path, "--times", "0.5,1,1.5", "--exact", "--size", "160x120", "-o", folder.path, "--sheet",
                sheet.path,
            ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("3/3"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["sheet.png", "thumb-00000500.png", "thumb-00001000.png", "thumb-00001500.png"])
        // Three 160x120 cells in a row, 8-pixel gaps, 22 pixels of label under each.
        let header = [UInt8](try Data(contentsOf: sheet).prefix(24))
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 3 * 168 + 8 && height == 120 + 22 + 16)
    }

    @Test("mediathumbs names the error of a movie without video, and fails")
    func noVideo() async throws {
        let clip = try await TestMedia.url(for: TestMedia.audioOnly)
        let result = try await ProcessRunner.run(BuildProducts.executable("mediathumbs"), [clip.path, "--times", "0"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("noVideo"), "\(result.standardError)")
    }

    @Test("mediathumbs ends with a typed error when its thumbnails or contact sheet cannot be written")
    func unwritable() async throws {
        let clip = try await TestMedia.url(for: TestMedia.numbered)
        let parent = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let (readOnly, full) = (parent.appendingPathComponent("read-only"), parent.appendingPathComponent("full"))
        for folder in [readOnly, full] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        guard await ScratchMount.tmpfs(at: readOnly, readOnly: true) else {
            print("skipped: a tmpfs cannot be mounted here (not root, or mount refused)")
            return
        }
        guard await ScratchMount.tmpfs(at: full, full: true) else {
            await ScratchMount.unmount(readOnly)
            return
        }
        let cases: [([String], String, URL)] = [
            (["-o", readOnly.path], "permissionDenied", readOnly),
            (["--sheet", readOnly.appendingPathComponent("sheet.png").path], "permissionDenied", readOnly),
            (["-o", full.path], "diskFull", full),
            (["--sheet", full.appendingPathComponent("sheet.png").path], "diskFull", full),
        ]
        for (arguments, code, folder) in cases {
            let result = try await ProcessRunner.run(
                BuildProducts.executable("mediathumbs"), [clip.path, "--times", "0.5,1"] + arguments)
            #expect(result.status == 1, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("mediathumbs: \(code): cannot write"), "\(result.standardError)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left.allSatisfy { $0 == "filler" }, "\(arguments): \(left)")
        }
        await ScratchMount.unmount(readOnly)
        await ScratchMount.unmount(full)
    }
}
