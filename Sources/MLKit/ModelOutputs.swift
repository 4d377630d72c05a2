import Foundation

/// The outputs of one run: Firebase's `ModelOutputs`. Immutable.
public final class ModelOutputs: NSObject, @unchecked Sendable {
    /// Output index → (declared type, declared dimensions, raw bytes).
    private let outputs: [UInt: (format: ModelTensorFormat, data: Data)]

    init(outputs: [UInt: (format: ModelTensorFormat, data: Data)]) {
        self.outputs = outputs
        super.init()
    }

    /// Output `index` as nested arrays of `NSNumber` shaped by the dimensions declared
    /// with ``ModelInputOutputOptions/setOutputFormat(index:type:dimensions:)``: `[1, 10]`
    /// gives a `[[NSNumber]]`, read as `try outputs.output(index: 0) as? [[NSNumber]]`.
    /// An output whose shape depends on the input values (the coordinates of WHERE) has
    /// the run's size on its dynamic axes, so `[1, 2]` may come back with any number of
    /// rows, none included. Quantized `uInt8` outputs are the raw quantized values, not
    /// dequantized.
    ///
    /// - Throws: an `NSError` with ``MachineLearningErrorCode/invalidArgument`` when no
    ///   output format was declared for `index`.
    public func output(index: UInt) throws -> Any {
        guard let output = outputs[index] else {
            let declared = outputs.keys.sorted().map(String.init).joined(separator: ", ")
            throw MachineLearningErrorCode.invalidArgument.error(
                "There is no model output with index \(index); the options declare output formats for indices [\(declared)]."
            )
        }
        return ModelTensorCoding.decode(output.data, type: output.format.type, dimensions: output.format.dimensions)
    }
}
