/// How many of LiteRT's builtin operators this runtime has kernels for, for the
/// "Coverage" section of `CONFORMANCE.md`.
public struct ConformanceCoverage: Sendable {
    /// Builtin operator names of the schema LiteRT reads, minus the codes that are no
    /// operator (`CUSTOM`, `DELEGATE`, the placeholder for larger codes).
    public let builtins: [String]
    /// The subset of `builtins` with a kernel here.
    public let supported: Set<String>

    public init(schemaBuiltins: [String], supported: Set<String>) {
        let notOperators: Set<String> = ["CUSTOM", "DELEGATE", "PLACEHOLDER_FOR_GREATER_OP_CODES"]
        builtins = schemaBuiltins.filter { !notOperators.contains($0) }
        self.supported = supported
    }

    /// The markdown section. `tested` names the operators that have conformance cases.
    public func section(tested: Set<String>) -> String {
        let stablehlo = builtins.filter { $0.hasPrefix("STABLEHLO_") }
        let tflite = builtins.filter { !$0.hasPrefix("STABLEHLO_") }
        let have = tflite.filter { supported.contains($0) }
        let missing = tflite.filter { !supported.contains($0) }
        let untested = have.filter { !tested.contains($0) }
        let hlo = stablehlo.filter { supported.contains($0) }.count
        var out = """

        ## Coverage

        The schema LiteRT 2.3.0 reads names \(tflite.count) TFLite builtin operators (not counting \
        `CUSTOM`, `DELEGATE` and the placeholder code) and \(stablehlo.count) StableHLO ones.
        This runtime has kernels for **\(have.count) of the \(tflite.count)** TFLite operators \
        (\(have.count - untested.count) of them with single-operator cases above) and for \(hlo) of the StableHLO ones.
        A model using any other operator is refused at load with an error naming what is missing.

        """
        if !untested.isEmpty {
            out += "\nWith kernels but no single-operator case: \(untested.map { "`\($0)`" }.joined(separator: ", ")).\n"
        }
        out += "\nWithout a kernel: \(missing.map { "`\($0)`" }.joined(separator: ", ")).\n"
        return out
    }
}
