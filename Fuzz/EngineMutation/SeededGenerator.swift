/// SplitMix64: a small pseudo-random generator whose sequence depends on its seed alone, on
/// every platform and Swift version (the standard library's generator is seeded by the system).
/// Each input of a run has a generator of its own, seeded from the run's seed and the input's
/// index, so one input reproduces without the others.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator for input `index` of the run seeded with `seed`.
    init(seed: UInt64, index: Int) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: index) &* 0xBF58_476D_1CE4_E5B9
        // A few rounds so that neighbouring seeds and indexes start far apart.
        for _ in 0..<4 { _ = next() }
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
