import Testing

@testable import MediaEngineCore

/// How far a network movie can play, from what its pipeline reports, without GStreamer.
@Suite("Playable duration")
struct PlayableDurationTests {
    typealias Download = PlayableDuration.Download

    @Test("a progressive download: the share of the file read is that share of the duration")
    func downloadShare() {
        let estimate = { (position: Duration, received: Int) in
            PlayableDuration.estimate(
                position: .seconds(position.components.seconds), duration: .seconds(10), queuedAhead: .zero,
                download: Download(received: received, total: 1_000_000))
        }
        #expect(estimate(.zero, 250_000) == .seconds(2.5))
        #expect(estimate(.zero, 1_000_000) == .seconds(10))
        #expect(estimate(.seconds(4), 250_000) == .seconds(4), "never before the position")
        #expect(estimate(.zero, 2_000_000) == .seconds(10), "never past the duration")
    }

    @Test("a queue's level, a cache file's range, or neither: the furthest known, within the movie")
    func queuedAhead() {
        let queued = PlayableDuration.estimate(
            position: .seconds(3), duration: .seconds(10), queuedAhead: .seconds(2),
            download: Download(received: 100, total: 1000))
        #expect(queued == .seconds(5), "the queue's level beats a smaller share of the file")
        let live = PlayableDuration.estimate(
            position: .seconds(3), duration: nil, queuedAhead: .seconds(2), download: nil)
        #expect(live == .seconds(5), "no duration: the position and the queue")
        let unknownSize = PlayableDuration.estimate(
            position: .seconds(3), duration: .seconds(10), queuedAhead: nil, download: Download(received: 5, total: 0))
        #expect(unknownSize == .seconds(3))
        let atEnd = PlayableDuration.estimate(
            position: .seconds(9), duration: .seconds(10), queuedAhead: .seconds(5), download: nil)
        #expect(atEnd == .seconds(10))
    }
}
