/// Checks on runs of frame numbers of ``TestMedia/numbered`` played in a loop (59 is followed by 0).
enum FrameRun {
    /// The clip's frame count.
    static let length = 60

    /// Whether each number follows the one before it, across the clip's loops.
    static func isConsecutive(_ numbers: [Int]) -> Bool {
        zip(numbers.dropFirst(), numbers).allSatisfy { $0 == ($1 + 1) % length }
    }

    /// `number` moved on by `offset` frames, around the loop.
    static func after(_ number: Int, by offset: Int = 1) -> Int {
        ((number + offset) % length + length) % length
    }

    /// How many frames `later` is after `earlier`, around the loop (0-59).
    static func distance(from earlier: Int, to later: Int) -> Int {
        ((later - earlier) % length + length) % length
    }
}
