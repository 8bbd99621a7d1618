import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The images sink writing into a read-only folder or onto a full disk (64 KiB tmpfs mounts):
/// the player fails with the typed error, and no partial file is left.
@Suite("Images sink on a read-only folder or a full disk")
struct ImageWriteFailureTests {
    private func makePlayer(_ folder: URL, every: Int = 1) async throws -> (MoviePlayer, EventRecorder) {
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
            videoSink: ImageFileSink(folder: folder, selection: .everyNthFrame(every)), audioOutput: .discard)
        return (player, EventRecorder(player))
    }

    /// How playback ended: the error `play()` threw, or the finish event's.
    private func failure(_ player: MoviePlayer, _ recorder: EventRecorder) async throws -> (FinishReason?, MediaError?)
    {
        do {
            try await player.play()
        } catch {
            return (nil, error)
        }
        return try await recorder.waitForFinish()
    }

    @Test("a read-only folder is permissionDenied when the player prepares")
    func readOnly() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard await ScratchMount.tmpfs(at: folder, readOnly: true) else {
            print("skipped: a read-only tmpfs cannot be mounted here (not root, or mount refused)")
            return
        }
        let (player, _) = try await makePlayer(folder)
        do {
            try await player.play()
            Issue.record("a read-only folder was accepted")
        } catch {
            #expect(error.code == .permissionDenied, "\(error)")
        }
        await player.shutdown()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        await ScratchMount.unmount(folder)
    }

    @Test("a full disk fails playback with diskFull; a disk that fills up keeps only whole files")
    func full() async throws {
        let parent = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let (full, filling) = (parent.appendingPathComponent("full"), parent.appendingPathComponent("filling"))
        for folder in [full, filling] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        guard await ScratchMount.tmpfs(at: full, full: true) else {
            print("skipped: a tmpfs cannot be mounted here (not root, or mount refused)")
            return
        }
        let (player, recorder) = try await makePlayer(full)
        let (reason, error) = try await failure(player, recorder)
        #expect(reason != .playbackEnded && error?.code == .diskFull, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: full.path) == ["filler"])
        await player.shutdown()
        await ScratchMount.unmount(full)

        // Empty, every frame: a few files fit, then the disk is full.
        guard await ScratchMount.tmpfs(at: filling) else { return }
        let (second, secondRecorder) = try await makePlayer(filling)
        let (secondReason, secondError) = try await failure(second, secondRecorder)
        #expect(secondReason == .playbackError && secondError?.code == .diskFull, "\(String(describing: secondError))")
        await second.shutdown()
        let files = try FileManager.default.contentsOfDirectory(atPath: filling.path).sorted()
        #expect(!files.isEmpty && files.count < 60, "\(files)")
        // Each one a whole PNG (ends with its IEND chunk), named in sequence: no partial or temporary file.
        #expect(files == (0..<files.count).map { String(format: "frame-%05d.png", $0) })
        for file in files {
            let bytes = try Data(contentsOf: filling.appendingPathComponent(file))
            #expect(bytes.suffix(8).elementsEqual([0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]), "\(file)")
        }
        await ScratchMount.unmount(filling)
    }
}
