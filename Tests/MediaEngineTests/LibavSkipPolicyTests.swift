import CMediaEngineLibavDecoder
import Testing

/// The engine's decoders' quality-of-service policy (`me_libav_skip_policy`, libavdecoder.c), fed
/// by hand: what they skip decoding as downstream says pictures come late, and when they decode
/// every picture again.
@Suite("Decoder QoS: what to skip")
struct LibavSkipPolicyTests {
    static let millisecond = 1_000_000
    static let noInformation = Int.max  // G_MAXINT64

    /// Pictures in a row far behind, kept by the policy between calls (a test's own).
    final class Streak {
        var pictures: UInt32 = 0
    }
    let streak = Streak()
    var farBehindStreak: UInt32 { streak.pictures }

    func policy(
        _ current: MeSkip, left: Int, keyframe: Bool = false, keyUnits: Bool = false, trick: Bool = false
    ) -> MeSkip {
        me_libav_skip_policy(current, keyUnits ? 1 : 0, trick ? 1 : 0, left, keyframe ? 1 : 0, &streak.pictures)
    }

    @Test("in time, or without word from downstream, every picture is decoded")
    func inTime() {
        #expect(policy(ME_SKIP_NOTHING, left: Self.noInformation) == ME_SKIP_NOTHING)
        #expect(policy(ME_SKIP_NOTHING, left: 5 * Self.millisecond) == ME_SKIP_NOTHING)
        #expect(policy(ME_SKIP_UNREFERENCED, left: 1) == ME_SKIP_NOTHING, "back at any picture")
        #expect(policy(ME_SKIP_UNREFERENCED, left: Self.noInformation) == ME_SKIP_NOTHING)
    }

    @Test("a little late: the pictures no other refers to are skipped, as avdec_h264 does")
    func aLittleLate() {
        #expect(policy(ME_SKIP_NOTHING, left: 0) == ME_SKIP_UNREFERENCED)
        #expect(policy(ME_SKIP_NOTHING, left: -100 * Self.millisecond) == ME_SKIP_UNREFERENCED)
        #expect(policy(ME_SKIP_NOTHING, left: -250 * Self.millisecond) == ME_SKIP_UNREFERENCED)
        #expect(policy(ME_SKIP_NOTHING, left: -900 * Self.millisecond) == ME_SKIP_UNREFERENCED, "once is a spike")
    }

    @Test("far behind for half a second: keyframes only, until a keyframe is in time again")
    func farBehindForHalfASecond() {
        // A spike: far behind for fewer than 15 pictures in a row, then a little late.
        for _ in 0..<14 { #expect(policy(ME_SKIP_UNREFERENCED, left: -400 * Self.millisecond) == ME_SKIP_UNREFERENCED) }
        #expect(policy(ME_SKIP_UNREFERENCED, left: -100 * Self.millisecond) == ME_SKIP_UNREFERENCED)
        #expect(farBehindStreak == 0)
        // Far behind for 15 pictures in a row.
        for _ in 0..<14 { _ = policy(ME_SKIP_UNREFERENCED, left: -251 * Self.millisecond) }
        #expect(policy(ME_SKIP_UNREFERENCED, left: -251 * Self.millisecond) == ME_SKIP_ALL_BUT_KEYFRAMES)
        // In time again, but mid-GOP: the pictures after a skipped one refer to it.
        #expect(policy(ME_SKIP_ALL_BUT_KEYFRAMES, left: 30 * Self.millisecond) == ME_SKIP_ALL_BUT_KEYFRAMES)
        #expect(policy(ME_SKIP_ALL_BUT_KEYFRAMES, left: -10 * Self.millisecond) == ME_SKIP_ALL_BUT_KEYFRAMES)
        #expect(policy(ME_SKIP_ALL_BUT_KEYFRAMES, left: Self.noInformation) == ME_SKIP_ALL_BUT_KEYFRAMES)
        // At a keyframe: whatever the time left says.
        #expect(policy(ME_SKIP_ALL_BUT_KEYFRAMES, left: 30 * Self.millisecond, keyframe: true) == ME_SKIP_NOTHING)
        #expect(
            policy(ME_SKIP_ALL_BUT_KEYFRAMES, left: -10 * Self.millisecond, keyframe: true) == ME_SKIP_UNREFERENCED)
        for _ in 0..<15 { _ = policy(ME_SKIP_UNREFERENCED, left: -300 * Self.millisecond) }
        #expect(
            policy(ME_SKIP_ALL_BUT_KEYFRAMES, left: -300 * Self.millisecond, keyframe: true)
                == ME_SKIP_ALL_BUT_KEYFRAMES)
    }

    @Test("trick modes: keyframes only for a key-unit scan, the referenced pictures for others")
    func trickModes() {
        #expect(policy(ME_SKIP_NOTHING, left: Self.noInformation, keyUnits: true) == ME_SKIP_ALL_BUT_KEYFRAMES)
        #expect(policy(ME_SKIP_NOTHING, left: 5 * Self.millisecond, trick: true) == ME_SKIP_UNREFERENCED)
        #expect(policy(ME_SKIP_NOTHING, left: -300 * Self.millisecond, trick: true) == ME_SKIP_UNREFERENCED)
        #expect(policy(ME_SKIP_ALL_BUT_KEYFRAMES, left: Self.noInformation, keyframe: true) == ME_SKIP_NOTHING)
    }
}
