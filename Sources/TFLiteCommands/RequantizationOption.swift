import TensorFlowLite
import TFLiteRuntime

/// `--requantization exact|float32`, shared by the commands that run models.
extension ArgumentSpec.Option {
    static let requantization = ArgumentSpec.Option(
        "requantization", valueName: "MODE",
        help: "exact (default: TFLite's reference arithmetic, bit for bit) or float32 (XNNPACK's, may differ by one code)")
}

extension ArgumentSpec.Option {
    /// `--kernel-level portable|avx2`, shared by the commands that run models.
    static let kernelLevel = ArgumentSpec.Option(
        "kernel-level", valueName: "LEVEL",
        help: "Highest kernel instruction-set level: portable or avx2 (default: the best this CPU has, or $TFLITE_KERNEL_LEVEL)")
}

extension ParsedArguments {
    /// The `--kernel-level` cap; nil when absent.
    func kernelLevel() throws(UsageError) -> KernelLevel? {
        guard let text = value("kernel-level") else { return nil }
        guard let level = KernelLevel(name: text) else {
            throw .invalidValue(option: "--kernel-level", value: text,
                                expected: KernelLevel.allCases.map(\.description).joined(separator: " or "))
        }
        return level
    }

    /// The same, for ``Interpreter/Options``.
    func interpreterKernelLevel() throws(UsageError) -> Interpreter.Options.KernelLevel? {
        try kernelLevel().flatMap { Interpreter.Options.KernelLevel(rawValue: $0.description) }
    }

    /// The `--requantization` mode; `exact` when absent.
    func requantization() throws(UsageError) -> Requantization {
        switch value("requantization") {
        case nil, "exact": return .exact
        case "float32": return .float32
        case let text?: throw .invalidValue(option: "--requantization", value: text, expected: "exact or float32")
        }
    }

    /// The same, for ``Interpreter/Options``.
    func interpreterRequantization() throws(UsageError) -> Interpreter.Options.Requantization {
        try requantization() == .float32 ? .float32 : .exact
    }
}
