import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// `GStreamer.returnFreeMemory()`: the engine leaves freed memory with malloc (a trim stalls
/// every thread that allocates meanwhile), and gives it back when the app asks.
@Suite("Returning free memory")
struct FreeMemoryTests {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Whether ThreadSanitizer or AddressSanitizer runs this process (`make tsan`, `make asan`):
    /// their runtimes replace malloc, and glibc's trim has none of their memory to give back.
    static let underSanitizer = ["__tsan_init", "__asan_init"].contains { (name: String) in
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != nil
    }

    /// How many of the whole pages inside the blocks at `addresses` (each `size` bytes) are
    /// resident (`mincore`); a page no longer mapped counts as not resident.
    static func residentPages(_ addresses: [UInt], size: Int) -> Int {
        var resident = 0
        var vector = [UInt8](repeating: 0, count: size / pageSize + 1)
        for address in addresses {
            let first = (Int(address) + pageSize - 1) / pageSize * pageSize
            let end = (Int(address) + size) / pageSize * pageSize
            guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { continue }
            guard mincore(start, end - first, &vector) == 0 else { continue }
            resident += vector.prefix((end - first) / pageSize).filter { $0 & 1 != 0 }.count
        }
        return resident
    }

    @Test(
        "200 MB freed but kept by malloc goes back to the system",
        .disabled(if: underSanitizer, "a sanitizer's runtime replaces malloc, so there is nothing of glibc's to trim"))
    func returnsFreedMemory() async throws {
        let chunk = 64 * 1024
        // 200 MB in blocks below malloc's mmap threshold, written so that they are resident, and
        // one more block after them that stays: freed, they are free memory inside malloc's heap,
        // below a block in use, which free() does not give back by itself. Their pages are looked
        // at one by one: the process's resident size moves with the other suites running beside.
        let (addresses, kept, residentBefore) = try await OwnThread.run { () -> ([UInt], UInt, Int) in
            let blocks = (0..<3200).map { _ in malloc(chunk)! }
            for block in blocks { memset(block, 0x5A, chunk) }
            let kept = UInt(bitPattern: malloc(chunk))
            let addresses = blocks.map { UInt(bitPattern: $0) }
            for block in blocks { free(block) }
            return (addresses, kept, Self.residentPages(addresses, size: chunk))
        }
        defer { free(UnsafeMutableRawPointer(bitPattern: kept)) }
        await GStreamer.returnFreeMemory()
        let residentAfter = Self.residentPages(addresses, size: chunk)
        // Before: nearly all of the ~48,000 pages. After: malloc may have handed some of that
        // memory to other threads meanwhile, which touched it again; most must be gone.
        #expect(residentBefore > 40_000, "\(residentBefore) pages resident before")
        #expect(residentAfter < residentBefore / 2, "\(residentBefore) pages resident before, \(residentAfter) after")
    }
}
