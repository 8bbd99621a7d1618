import ParserFuzzing

/// libFuzzer's entry point: one input through `ParserFuzzing.closedCaptions`.
/// - Parameters:
///   - data: The input (nil when empty).
///   - size: Its length.
/// - Returns: 0 (the input is kept or dropped by libFuzzer's coverage alone).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ParserFuzzing.closedCaptions(FuzzDriver.bytes(data, size))
    return 0
}

/// `make fuzz` runs libFuzzer on `fuzz`; a normal build replays the files named on the command line.
@main
enum FuzzCaptions {
    static func main() {
        FuzzDriver.main(fuzz)
    }
}
