import ArgumentParser
import TensorFlowLite
import TFLiteRuntime

/// `--requantization exact|float32` and `--kernel-level portable|avx2`, shared by the
/// commands that run models (`@OptionGroup var engineArguments: EngineArguments`).
struct EngineArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "exact (default: TFLite's reference arithmetic, bit for bit) or float32 (XNNPACK's, may differ by one code)",
            valueName: "mode"),
        completion: .list(["exact", "float32"]),
        transform: { text in
            switch text {
            case "exact": return .exact
            case "float32": return .float32
            default: throw ValidationError("expected exact or float32")
            }
        })
    var requantization: Requantization = .exact

    @Option(
        help: ArgumentHelp(
            "Highest kernel instruction-set level: portable, avx2, avx512 (x86-64), neon, dotprod, i8mm (aarch64) (default: the best this CPU has, or $TFLITE_KERNEL_LEVEL)",
            valueName: "level"),
        completion: .list(KernelLevel.allCases.map(\.description)),
        transform: { text in
            guard let level = KernelLevel(name: text) else {
                let names = KernelLevel.allCases.map(\.description)
                throw ValidationError(
                    "expected " + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? ""))
            }
            return level
        })
    var kernelLevel: KernelLevel?

    /// The `--kernel-level` cap for ``Interpreter/Options``; nil when absent.
    var interpreterKernelLevel: Interpreter.Options.KernelLevel? {
        kernelLevel.flatMap { Interpreter.Options.KernelLevel(rawValue: $0.description) }
    }

    /// The `--requantization` mode for ``Interpreter/Options``.
    var interpreterRequantization: Interpreter.Options.Requantization {
        requantization == .float32 ? .float32 : .exact
    }
}
