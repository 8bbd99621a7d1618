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
        // 200 MB in blocks below malloc's mmap threshold, written so that they are resident;
        // every 16th block stays, so the freed ones are runs of 15 between blocks in use: free
        // memory inside malloc's heap, which free() does not give back by itself. (One block kept
        // after all the others was not enough: malloc may take it from a hole lower down, and the
        // freed blocks then join the heap's top, which free() trims at once: 12,378 pages of
        // 48,000 were left in one `make stress` run.) Their pages are looked at one by one: the
        // process's resident size moves with the other suites running beside.
        let (addresses, kept, residentBefore) = try await OwnThread.run { () -> ([UInt], [UInt], Int) in
            let blocks = (0..<3400).map { _ in malloc(chunk)! }
            for block in blocks { memset(block, 0x5A, chunk) }
            var kept: [UInt] = []
            var freed: [UInt] = []
            for (index, block) in blocks.enumerated() {
                if index % 16 == 15 {
                    kept.append(UInt(bitPattern: block))
                } else {
                    freed.append(UInt(bitPattern: block))
                    free(block)
                }
            }
            return (freed, kept, Self.residentPages(freed, size: chunk))
        }
        defer { for block in kept { free(UnsafeMutableRawPointer(bitPattern: block)) } }
        await GStreamer.returnFreeMemory()
        let residentAfter = Self.residentPages(addresses, size: chunk)
        // Before: nearly all of the ~47,800 pages. After: malloc may have handed some of that
        // memory to other threads meanwhile, which touched it again; most must be gone.
        #expect(residentBefore > 40_000, "\(residentBefore) pages resident before")
        #expect(residentAfter < residentBefore / 2, "\(residentBefore) pages resident before, \(residentAfter) after")
    }
}
