/// Delivers decoded frames to Swift: to an optional handler on the streaming thread, and
/// into a latest-frame slot any thread can read.
///
/// Frames are I420 by default (no conversion for most content); ask for RGBA or BGRA when
/// you need packed pixels, for a size when you want them scaled, and for one frame in N
/// (`every`) when you do not need them all.
public final class FrameSink: VideoSink {
    private struct Slot {
        var latest: Sample?
        var count = 0
    }

    /// The pixel format delivered.
    public let format: PixelFormat
    /// The size delivered, or nil for the movie's own.
    public let size: VideoSize?
    /// Whether frames arrive at playback speed (true) or as fast as they decode.
    public let synchronized: Bool
    /// Delivers one frame in this many (see ``FrameConsumer/every``); 1 delivers every frame.
    public let every: Int
    /// Whether a synchronized sink drops frames that come too late (see ``FrameConsumer/dropsLateFrames``).
    public let dropsLateFrames: Bool
    private let handler: (@Sendable (borrowing VideoFrame) -> Void)?
    private let slot = Locked(Slot())

    /// Creates the sink.
    /// - Parameters:
    ///   - format: The pixel format wanted.
    ///   - size: The size wanted, or nil for the movie's own.
    ///   - synchronized: Whether to deliver at playback speed (false: as fast as frames decode).
    ///   - every: Deliver the first frame and every Nth after it (a flushing seek starts the count
    ///     again), from 1 (every frame) to ``FrameConsumer/largestEvery``. Frames skipped are
    ///     dropped before conversion: they are neither converted, counted, kept nor handed over.
    ///     Another value makes preparation (or ``MoviePlayer/setVideoSink(_:)``) fail with
    ///     ``MediaError/Code/invalidArgument`` when the player builds the output.
    ///   - dropsLateFrames: With `synchronized`, whether frames too late for their time are dropped as a
    ///     display drops them (default), or all delivered, late or not.
    ///   - onFrame: Called on the streaming thread for each frame; the frame is valid only during the call.
    public init(
        format: PixelFormat = .i420, size: VideoSize? = nil, synchronized: Bool = true, every: Int = 1,
        dropsLateFrames: Bool = true, onFrame: (@Sendable (borrowing VideoFrame) -> Void)? = nil
    ) {
        self.format = format
        self.size = size
        self.synchronized = synchronized
        self.every = every
        self.dropsLateFrames = dropsLateFrames
        self.handler = onFrame
    }

    /// ``VideoSinkCapabilities/frames``.
    public static var capabilities: VideoSinkCapabilities { .frames }

    /// How many frames this sink has delivered so far, over every pipeline it served.
    public var framesDelivered: Int { slot.withLock { $0.count } }

    /// A copy of the most recent frame, or nil before the first.
    /// - Returns: The frame's pixels.
    public func latestFrame() -> VideoImage? {
        guard let sample = slot.withLock({ $0.latest }) else { return nil }
        return VideoImage(copying: sample, as: format)
    }

    /// A frame consumer that counts frames, keeps the latest and calls the handler.
    /// - Returns: The consumer.
    public func makeOutput() throws(MediaError) -> VideoOutput {
        var consumer = FrameConsumer(format: format, size: size, synchronized: synchronized, every: every) {
            [self] frame in
            record(frame)
            handler?(frame)
        }
        consumer.dropsLateFrames = dropsLateFrames
        return .frames(consumer)
    }

    private func record(_ frame: borrowing VideoFrame) {
        let sample = frame.sample
        slot.withLock { state in
            state.latest = sample
            state.count += 1
        }
    }
}
