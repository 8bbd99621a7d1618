internal import CMediaEnginePipeline

/// The threads that carry a player's sound, which ask the kernel for a short scheduler slice so
/// that they run first when they wake on a starved CPU (audiothreads.c): read by the tests.
enum AudioThreads {
    /// The Linux thread ids of `playbin`'s threads that hold the short slice now.
    static func identifiers(in playbin: Element) -> [Int32] {
        var threads = [Int32](repeating: 0, count: 32)
        let count = me_audio_thread_ids(playbin.pointer, &threads, Int32(threads.count))
        return Array(threads.prefix(Int(min(count, Int32(threads.count)))))
    }

    /// The scheduler slice of thread `thread` (a Linux thread id), in nanoseconds, or nil where
    /// it cannot be read (the thread has ended).
    static func slice(ofThread thread: Int32) -> UInt64? {
        let slice = me_thread_slice(thread)
        return slice == 0 ? nil : UInt64(slice)
    }

    /// The slice the sound's threads ask for: the shortest the kernel grants, 0.1 ms.
    static let shortSlice: UInt64 = 100_000

    /// Whether this kernel keeps a slice a thread asks for (Linux 6.12 and later); where it does
    /// not, the request changes nothing.
    static var slicesSupported: Bool { me_thread_slices_supported() != 0 }
}
