import Foundation
import Testing
import TFLiteConformance

@Suite struct ConformanceCoverageTests {
    @Test func countsTFLiteOperatorsApartFromStableHLOAndNonOperators() {
        let coverage = ConformanceCoverage(
            schemaBuiltins: ["ADD", "CUSTOM", "SIN", "TILE", "DELEGATE", "STABLEHLO_ADD"],
            supported: ["ADD", "TILE"])
        let text = coverage.section(tested: ["ADD"])
        #expect(text.contains("names 3 TFLite builtin operators"))
        #expect(text.contains("and 1 StableHLO ones"))
        #expect(
            text.contains(
                "**2 of the 3** TFLite operators (1 of them with single-operator cases above) and for 0 of the StableHLO ones"
            ))
        #expect(text.contains("With kernels but no single-operator case: `TILE`."))
        #expect(text.contains("Without a kernel: `SIN`."))
    }

    @Test func listsCustomOperatorsWithTheirReferences() {
        let coverage = ConformanceCoverage(
            schemaBuiltins: ["ADD"], supported: ["ADD"],
            customs: ["MaxUnpooling2D", "Convolution2DTransposeBias"])
        let text = coverage.section(tested: ["ADD"])
        #expect(text.contains("Built-in kernels for 2 custom operators"))
        #expect(
            text.contains(
                "| `Convolution2DTransposeBias` | LiteRT `BUILTIN_REF` on the same model with the operator rewritten"))
        #expect(text.contains("| `MaxUnpooling2D` | hand-worked cases"))
        #expect(
            !ConformanceCoverage(schemaBuiltins: ["ADD"], supported: ["ADD"]).section(tested: []).contains(
                "Custom operators"))
    }
}

@Suite struct LiteRTCoverageTableTests {
    @Test func tellsMissingHereFromAbsentInLiteRT() throws {
        let json = """
            {"litert_version": "2.3.0", "operators": [
              {"op": "ADD", "litert": "kernel"}, {"op": "LSTM", "litert": "kernel"},
              {"op": "CALL", "litert": "none"}, {"op": "STABLEHLO_ADD", "litert": "kernel"}]}
            """
        let litert = try LiteRTKernels(json: Data(json.utf8))
        #expect(litert.version == "2.3.0")
        #expect(litert.withKernel == ["ADD", "LSTM", "STABLEHLO_ADD"])
        let coverage = ConformanceCoverage(
            schemaBuiltins: ["ADD", "LSTM", "CALL", "STABLEHLO_ADD"], supported: ["ADD"], litert: litert)
        let text = coverage.section(tested: ["ADD"])
        #expect(text.contains("LiteRT 2.3.0 has kernels for 2 of the 3 TFLite operators and 1 of the 1 StableHLO ones"))
        #expect(text.contains("LiteRT runs 2 operators this runtime has no kernel for: `LSTM`, `STABLEHLO_ADD`."))
        #expect(text.contains("| `ADD` | kernel |"))
        #expect(text.contains("| `LSTM` | **missing here** (LiteRT runs it) |"))
        #expect(text.contains("| `CALL` | LiteRT has none either |"))
    }

    @Test func rejectsEntriesWithoutAStatus() {
        #expect(throws: ConformanceError.self) {
            try LiteRTKernels(json: Data(#"{"litert_version": "2.3.0", "operators": [{"op": "ADD"}]}"#.utf8))
        }
    }
}
