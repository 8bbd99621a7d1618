/// How precisely a seek lands.
public enum SeekOption: Sendable, Hashable {
    /// On the keyframe at or before the time asked for: the fastest seek.
    case nearestKeyFrame
    /// On the frame at the time asked for, decoding from the keyframe before it.
    case exact
}
