import Foundation
import ParserFuzzing
import Testing

/// Every input kept from `make fuzz` for the manifest fuzzer (`Inputs/Manifests/`), replayed through
/// `ParserFuzzing.manifest`, the function the fuzzer ran on it: each must now end in a result or a
/// typed error, not a trap or a hang. The same pattern as MediaEngineTests' `FuzzRegressionTests`.
@Suite("manifest fuzz regressions")
struct ManifestFuzzRegressionTests {
    private static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Inputs/Manifests")

    @Test("every kept manifest fuzz input runs through its parser without a trap")
    func replay() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.inputs.path)) ?? []
        var replayed = 0
        for name in names.sorted() where !name.hasPrefix(".") {
            ParserFuzzing.manifest(Array(try Data(contentsOf: Self.inputs.appendingPathComponent(name))))
            replayed += 1
        }
        // The folder moved, or lost its inputs: the test would pass without testing anything.
        #expect(replayed > 0, "no inputs under \(Self.inputs.path)")
    }
}
