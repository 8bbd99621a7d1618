import Foundation
import ParserFuzzing
import Testing

/// Every input kept from `make fuzz` (`Inputs/<Parser>/`), replayed through the function the
/// fuzzer ran on it: each must now end in a result or a typed error, not a trap.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    private static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Inputs")

    private static let parsers: [(folder: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("ContainerInspector", ParserFuzzing.containerInspector),
        ("Subtitles", ParserFuzzing.subtitles),
        ("SinkOptions", ParserFuzzing.sinkOptions),
        ("TimedMetadata", ParserFuzzing.timedMetadata),
        ("Captions", ParserFuzzing.closedCaptions),
    ]

    @Test("every kept fuzz input runs through its parser without a trap")
    func replay() throws {
        var replayed = 0
        for parser in Self.parsers {
            let folder = Self.inputs.appendingPathComponent(parser.folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                parser.run(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
                replayed += 1
            }
        }
        // The folder moved, or lost its inputs: the test would pass without testing anything.
        #expect(replayed > 0, "no inputs under \(Self.inputs.path)")
    }
}
