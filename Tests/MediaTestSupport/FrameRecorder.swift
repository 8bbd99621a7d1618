import Foundation
import MediaEngine

/// Collects what a ``FrameSink`` delivers (each frame's number read from its pixels, its times,
/// whether it was a keyframe, when it arrived) so a test can assert on the sequence.
public final class FrameRecorder: Sendable {
    /// One delivered frame.
    public struct Record: Sendable, CustomStringConvertible {
        /// The frame number read from the pixels (``FrameNumber``), if the picture is one of the numbered clip's.
        public let number: Int?
        /// The frame's position in the movie.
        public let presentationTime: Duration?
        /// When it was due on the pipeline's clock.
        public let runningTime: Duration?
        /// Whether it was a keyframe.
        public let isKeyframe: Bool
        /// When the callback saw it.
        public let arrival: ContinuousClock.Instant
        /// Which of the recorder's sinks got it.
        public let sink: String

        /// `#N@pts`.
        public var description: String {
            "#\(number.map(String.init) ?? "?")@\(presentationTime.map { "\($0)" } ?? "?")"
        }
    }

    private let storage = Locked<[Record]>([])
    private let waitlist = Waitlist()

    /// Creates an empty recorder.
    public init() {}

    /// A frames sink (I420 unless told otherwise) that records every frame here.
    /// Several sinks may feed one recorder; `label` tells their frames apart. Late frames are
    /// delivered, not dropped: tests that count frames check the engine, not how busy the
    /// machine running them is.
    public func sink(
        format: PixelFormat = .i420, size: VideoSize? = nil, synchronized: Bool = true, label: String = ""
    ) -> FrameSink {
        FrameSink(format: format, size: size, synchronized: synchronized, dropsLateFrames: false) { [self] frame in
            record(
                Record(
                    number: FrameNumber.read(frame), presentationTime: frame.presentationTime,
                    runningTime: frame.runningTime, isKeyframe: frame.isKeyframe, arrival: .now, sink: label))
        }
    }

    private func record(_ record: Record) {
        storage.withLock { $0.append(record) }
        waitlist.recheck()
    }

    /// Every frame so far.
    public var records: [Record] { storage.withLock { $0 } }

    /// Forgets the frames so far.
    public func reset() { storage.withLock { $0.removeAll() } }

    /// Waits until the frames so far satisfy `condition` (failing after `limit`).
    public func waitUntil(
        _ what: String, within limit: Duration = .seconds(10), _ condition: @escaping @Sendable ([Record]) -> Bool
    ) async throws {
        try await withDeadline(limit, what) { [self] in
            await waitlist.wait { condition(self.records) }
        }
    }

    /// Waits until `count` frames have arrived in all (failing after `limit`).
    public func waitForFrames(_ count: Int, within limit: Duration = .seconds(10)) async throws {
        try await waitUntil("\(count) frames", within: limit) { $0.count >= count }
    }
}
