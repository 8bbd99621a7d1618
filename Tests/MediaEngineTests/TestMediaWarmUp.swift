import MediaTestSupport
import Testing

/// Makes every test clip once, two encoders at a time, before the suites that time things run
/// (`make test` runs this first, in a `swift test` of its own). Already made, it only checks the
/// cache.
@Suite("TestMediaWarmUp")
struct TestMediaWarmUp {
    @Test("every clip the tests play exists")
    func makeEveryClip() async throws {
        let clips =
            TestMedia.allClips + [
                TimedMetadataMedia.transportStream, TimedMetadataMedia.longTransportStream,
                TimedMetadataMedia.packedAudio,
            ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = clips.makeIterator()
            for _ in 0..<2 {
                guard let clip = next.next() else { break }
                group.addTask { _ = try await TestMedia.url(for: clip) }
            }
            while try await group.next() != nil {
                guard let clip = next.next() else { continue }
                group.addTask { _ = try await TestMedia.url(for: clip) }
            }
        }
        // Made from a clip above, with captions written into its pictures.
        _ = try await ClosedCaptionTests.movie()
    }
}
