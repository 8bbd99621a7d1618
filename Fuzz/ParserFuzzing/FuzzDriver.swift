internal import CMediaEngineFuzzerDriver
import Foundation

/// The `main` of every fuzz target. Built by `make fuzz` (`-sanitize=fuzzer,address -DFUZZING`),
/// it hands the target's input function to libFuzzer's driver with the command line's libFuzzer
/// flags; in a normal build it reads each file (or each file of each folder) named on the
/// command line and runs the same function on it, so a crash input reproduces without libFuzzer.
package enum FuzzDriver {
    /// libFuzzer's `LLVMFuzzerTestOneInput`: one input's bytes (`data` may be nil when `size` is 0).
    package typealias TestOneInput = @convention(c) (_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt

    /// Runs the fuzzer, or replays files.
    /// - Parameters:
    ///   - setUp: Work done once before the first input (so one-time allocations are not leaks).
    ///   - testOneInput: The target's input function.
    /// - Returns: Never: exits with libFuzzer's status, or 0 after replaying every file.
    package static func main(setUp: () -> Void = {}, _ testOneInput: TestOneInput) -> Never {
        setUp()
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
            for path in CommandLine.arguments.dropFirst() {
                for file in files(at: path) {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        print("\(file): cannot be read")
                        exit(2)
                    }
                    let bytes = [UInt8](data)
                    _ = bytes.withUnsafeBufferPointer { testOneInput($0.baseAddress, $0.count) }
                    print("\(file): \(bytes.count) bytes, ran")
                }
            }
            exit(0)
        #endif
    }

    /// The bytes libFuzzer lends, copied.
    /// - Parameters:
    ///   - data: The input, or nil when empty.
    ///   - size: Its length.
    /// - Returns: The bytes.
    package static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// `path` itself, or the regular files in it when it is a folder, by name.
    private static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
            let names = try? FileManager.default.contentsOfDirectory(atPath: path)
        else { return [path] }
        return names.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}
