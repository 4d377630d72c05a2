/// How many of LiteRT's builtin operators this runtime has kernels for, for the
/// "Coverage" section of `CONFORMANCE.md`.
public struct ConformanceCoverage: Sendable {
    /// Builtin operator names of the schema LiteRT reads, minus the codes that are no
    /// operator (`CUSTOM`, `DELEGATE`, the placeholder for larger codes).
    public let builtins: [String]
    /// The subset of `builtins` with a kernel here.
    public let supported: Set<String>
    /// Custom operator names with a built-in kernel here, sorted.
    public let customs: [String]
    /// Which operators LiteRT has kernels for (nil: not known, no per-operator table).
    public let litert: LiteRTKernels?

    public init(
        schemaBuiltins: [String], supported: Set<String>, customs: [String] = [], litert: LiteRTKernels? = nil
    ) {
        let notOperators: Set<String> = ["CUSTOM", "DELEGATE", "PLACEHOLDER_FOR_GREATER_OP_CODES"]
        builtins = schemaBuiltins.filter { !notOperators.contains($0) }
        self.supported = supported
        self.customs = customs.sorted()
        self.litert = litert
    }

    /// One operator's line in the per-operator table: "kernel" here, else whether LiteRT
    /// has one ("missing here" when it does, "LiteRT has none either" when it has not).
    func status(of op: String, tested: Set<String>, litert: LiteRTKernels) -> String {
        if supported.contains(op) { return tested.contains(op) ? "kernel" : "kernel (no single-operator case)" }
        guard litert.probed.contains(op) else { return "no kernel (LiteRT not probed)" }
        return litert.withKernel.contains(op) ? "**missing here** (LiteRT runs it)" : "LiteRT has none either"
    }

    /// The per-operator table and the summary of what LiteRT has that this runtime lacks.
    func operatorTable(tested: Set<String>, litert: LiteRTKernels) -> String {
        let stablehlo = builtins.filter { $0.hasPrefix("STABLEHLO_") }
        let tflite = builtins.filter { !$0.hasPrefix("STABLEHLO_") }
        let theirs = tflite.filter { litert.withKernel.contains($0) }
        let theirsHLO = stablehlo.filter { litert.withKernel.contains($0) }
        let missing = builtins.filter { !supported.contains($0) && litert.withKernel.contains($0) }
        let gap =
            missing.isEmpty
            ? "This runtime has a kernel for every operator LiteRT runs."
            : "LiteRT runs \(missing.count) operators this runtime has no kernel for: "
                + missing.map { "`\($0)`" }.joined(separator: ", ") + "."
        var out = """

            ### Every schema operator

            LiteRT \(litert.version) has kernels for \(theirs.count) of the \(tflite.count) TFLite operators and \
            \(theirsHLO.count) of the \(stablehlo.count) StableHLO ones: `scripts/fixtures/litert_builtin_kernels.py` \
            loads a one-operator model of each code with its reference and its default resolver \
            (`Fixtures/conformance/litert-builtin-kernels.json`). \(gap)

            | operator | here |
            |---|---|

            """
        for op in builtins { out += "| `\(op)` | \(status(of: op, tested: tested, litert: litert)) |\n" }
        return out
    }

    /// Where each built-in custom kernel's reference comes from. The MediaPipe operators
    /// have no single-operator cases in this corpus: LiteRT cannot run them without
    /// MediaPipe's op resolver, so they are checked against references made otherwise.
    static func reference(ofCustom name: String) -> String {
        switch name {
        case "TFLite_Detection_PostProcess":
            return "LiteRT's reference kernel, in the cases above"
        case "Convolution2DTransposeBias":
            return "LiteRT `BUILTIN_REF` on the same model with the operator rewritten as TRANSPOSE_CONV + bias, "
                + "and MediaPipe's own inference on whole selfie-segmentation models"
        case "TransformTensor":
            return "a NumPy transcription of MediaPipe's kernel (version 1), op by op"
        case "MaxPoolingWithArgmax2D", "MaxUnpooling2D":
            return "hand-worked cases of MediaPipe's window-relative indices (`MediaPipePoolingTests`)"
        default:
            return "a NumPy transcription of MediaPipe's kernel, op by op, and MediaPipe's own inference "
                + "on the whole face-landmark model"
        }
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
            out +=
                "\nWith kernels but no single-operator case: \(untested.map { "`\($0)`" }.joined(separator: ", ")).\n"
        }
        out += "\nWithout a kernel: \(missing.map { "`\($0)`" }.joined(separator: ", ")).\n"
        if let litert { out += operatorTable(tested: tested, litert: litert) }
        if !customs.isEmpty {
            out += """

                ### Custom operators

                Built-in kernels for \(customs.count) custom operators (users register their own with \
                `Interpreter.Options.registerCustomOperator`). Each is compared with the reference named \
                here; the MediaPipe ones are specified in spec/mediapipe-ops.md, their references are \
                committed in `Fixtures/mediapipe/` and checked by `MediaPipeModelTests`.

                | custom operator | reference |
                |---|---|

                """
            for name in customs { out += "| `\(name)` | \(Self.reference(ofCustom: name)) |\n" }
        }
        return out
    }
}
