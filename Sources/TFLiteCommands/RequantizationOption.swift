import TensorFlowLite
import TFLiteRuntime

/// `--requantization exact|float32`, shared by the commands that run models.
extension ArgumentSpec.Option {
    static let requantization = ArgumentSpec.Option(
        "requantization", valueName: "MODE",
        help: "exact (default: TFLite's reference arithmetic, bit for bit) or float32 (XNNPACK's, may differ by one code)")
}

extension ParsedArguments {
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
