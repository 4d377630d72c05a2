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
