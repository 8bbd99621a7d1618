import MediaEngineCore

/// How a network sink encodes the video: H.264 with x264 tuned for zero latency (no B-frames,
/// no look-ahead, so each frame leaves as soon as it is encoded).
public struct H264Encoding: Sendable, Hashable {
    /// x264's speed presets, fastest first: a faster preset costs less CPU and gives a larger
    /// stream at the same quality.
    public enum Preset: String, Sendable, Hashable, CaseIterable {
        /// The least CPU: what a live stream of a large movie on a small machine can afford.
        case ultrafast
        /// A little more CPU for a smaller stream.
        case superfast
        /// x264's usual choice for live streaming.
        case veryfast
        /// More CPU, a smaller stream.
        case faster
        /// More again.
        case fast
        /// x264's default; rarely fast enough for live high-definition video.
        case medium
    }

    /// The target bitrate in kbit/s, from 16 to ``largestBitrate``.
    public var bitrate: Int
    /// At most this many frames between keyframes (1 to ``largestKeyframeInterval``): how long a
    /// receiver that joins late waits for its first picture, at the movie's frame rate.
    public var keyframeInterval: Int
    /// x264's speed preset.
    public var preset: Preset

    /// The largest bitrate, kbit/s.
    public static let largestBitrate = 100_000
    /// The largest keyframe interval, in frames.
    public static let largestKeyframeInterval = 1000

    /// Creates an encoding.
    /// - Parameters:
    ///   - bitrate: Target kbit/s (default 2000: 720p at 30 fps looks fine).
    ///   - keyframeInterval: Frames between keyframes at most (default 30: a second at 30 fps).
    ///   - preset: x264's speed preset (default `ultrafast`).
    public init(bitrate: Int = 2000, keyframeInterval: Int = 30, preset: Preset = .ultrafast) {
        self.bitrate = bitrate
        self.keyframeInterval = keyframeInterval
        self.preset = preset
    }

    /// The element factories of ``launchLine()``, in its order.
    static let elements = ["videoconvert", "x264enc"]

    /// `videoconvert ! x264enc ...`, checked.
    /// - Throws: `MediaError.Code.invalidArgument` for a bitrate or keyframe interval out of range.
    func launchLine() throws(MediaError) -> String {
        guard (16...Self.largestBitrate).contains(bitrate) else {
            throw MediaError(.invalidArgument, "bitrate=\(bitrate): from 16 to \(Self.largestBitrate) kbit/s")
        }
        guard (1...Self.largestKeyframeInterval).contains(keyframeInterval) else {
            throw MediaError(
                .invalidArgument,
                "keyframe-interval=\(keyframeInterval): from 1 to \(Self.largestKeyframeInterval) frames")
        }
        // videoconvert passes I420 (what the engine's decoders give) through untouched.
        return "videoconvert ! x264enc tune=zerolatency speed-preset=\(preset.rawValue) bitrate=\(bitrate) "
            + "key-int-max=\(keyframeInterval)"
    }
}
