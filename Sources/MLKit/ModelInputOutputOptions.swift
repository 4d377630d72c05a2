import Foundation
import TensorFlowLite

/// The element type of a model input or output, as declared in ``ModelInputOutputOptions``.
public enum ModelElementType: UInt, Sendable {
    /// Not a valid type; rejected by ``ModelInputOutputOptions``.
    case unknown = 0
    case float32 = 1
    case int32 = 2
    case uInt8 = 3
    case int64 = 4
    /// Strings, one per element (TFLite's `STRING`): an addition to Firebase's types. Inputs
    /// are given as arrays of `String` (or `Data`), outputs come back as arrays of `String`
    /// (`Data` for an element that is not UTF-8).
    case string = 5

    /// Bytes per element (0 for ``unknown`` and ``string``, whose elements vary in size).
    var byteSize: Int {
        switch self {
        case .unknown, .string: return 0
        case .uInt8: return 1
        case .float32, .int32: return 4
        case .int64: return 8
        }
    }

    /// The type as the options declare it, for messages.
    var name: String {
        switch self {
        case .unknown: return "unknown"
        case .float32: return "float32"
        case .int32: return "int32"
        case .uInt8: return "uInt8"
        case .int64: return "int64"
        case .string: return "string"
        }
    }

    /// The type of a tensor type named as TFLite names it (`INT64`), or `nil` when the
    /// custom-model API has no such type.
    init?(tfliteName: String) {
        switch tfliteName {
        case "FLOAT32": self = .float32
        case "INT32": self = .int32
        case "UINT8": self = .uInt8
        case "INT64": self = .int64
        case "STRING": self = .string
        default: return nil
        }
    }

    /// The declared type matching a model tensor type, or `nil` when the custom-model API
    /// has no such type (int8, int16, float16, float64, bool).
    init?(_ type: Tensor.DataType) {
        switch type {
        case .string: self = .string
        case .float32: self = .float32
        case .int32: self = .int32
        case .uInt8: self = .uInt8
        case .int64: self = .int64
        default: return nil
        }
    }
}

/// The declared type and dimensions of one input or output.
struct ModelTensorFormat: Sendable, Equatable {
    var type: ModelElementType
    var dimensions: [Int]

    /// Number of elements; validated positive and overflow-free at construction.
    let elementCount: Int
    /// Number of bytes.
    let byteCount: Int

    /// Validates a format as Firebase does: a known type, at least one dimension, every
    /// dimension positive; and, ours, a byte count that fits in `Int`.
    init(type: ModelElementType, dimensions: [NSNumber], role: String, index: UInt) throws {
        guard type != .unknown else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The \(role) format at index \(index) has type unknown; expected float32, int32, uInt8, int64 or string."
            )
        }
        guard !dimensions.isEmpty else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The \(role) format at index \(index) has no dimensions; expected at least one.")
        }
        var dims: [Int] = []
        var count = 1
        for (axis, number) in dimensions.enumerated() {
            let value = number.int64Value
            guard value > 0, Double(value) == number.doubleValue, let dim = Int(exactly: value) else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "The \(role) format at index \(index) has dimension \(number) at axis \(axis); every dimension must be a positive integer."
                )
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: dim)
            guard !overflow else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "The \(role) format at index \(index) has dimensions \(dimensions.map(\.int64Value)) whose element count overflows."
                )
            }
            dims.append(dim)
            count = product
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: type.byteSize)
        guard !overflow else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "The \(role) format at index \(index) has dimensions \(dims) whose byte size overflows.")
        }
        self.type = type
        self.dimensions = dims
        self.elementCount = count
        self.byteCount = bytes
    }

    private init(type: ModelElementType, dimensions: [Int], elementCount: Int, byteCount: Int) {
        self.type = type
        self.dimensions = dimensions
        self.elementCount = elementCount
        self.byteCount = byteCount
    }

    /// The same type with the dimensions of an output a run produced (which may include
    /// 0), or nil if they are negative or their byte size overflows.
    func resized(to dimensions: [Int]) -> ModelTensorFormat? {
        var count = 1
        for d in dimensions {
            guard d >= 0 else { return nil }
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow else { return nil }
            count = product
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: type.byteSize)
        guard !overflow else { return nil }
        return ModelTensorFormat(type: type, dimensions: dimensions, elementCount: count, byteCount: bytes)
    }
}

/// The declared types and shapes of a model's inputs and outputs: Firebase's
/// `ModelInputOutputOptions`.
///
///     let ioOptions = ModelInputOutputOptions()
///     try ioOptions.setInputFormat(index: 0, type: .float32, dimensions: [1, 224, 224, 3])
///     try ioOptions.setOutputFormat(index: 0, type: .float32, dimensions: [1, 1000])
///
/// Every model input needs a format. Outputs without a format are not returned. The
/// declared types must equal the model's; an input's dimensions must equal the model's
/// (a dimension the model marks dynamic takes the declared size); an output's byte size
/// must equal the model's, and ``ModelOutputs`` shapes it by the declared dimensions. An
/// output whose shape depends on the input values (a dimension its shape signature marks
/// dynamic, like the row count of WHERE's coordinates) takes the size the run produced on
/// those axes, as long as the other axes agree with the declared dimensions.
///
/// Safe to use from several threads; ``ModelInterpreter/run(inputs:options:completion:)``
/// reads the formats once, when it starts.
public final class ModelInputOutputOptions: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var inputs: [UInt: ModelTensorFormat] = [:]
    private var outputs: [UInt: ModelTensorFormat] = [:]

    public override init() { super.init() }

    /// Sets the type and dimensions of input `index`.
    ///
    /// - Throws: an `NSError` with ``MachineLearningErrorCode/invalidArgument`` if `type`
    ///   is ``ModelElementType/unknown``, `dimensions` is empty, or a dimension is not a
    ///   positive integer.
    public func setInputFormat(index: UInt, type: ModelElementType, dimensions: [NSNumber]) throws {
        let format = try ModelTensorFormat(type: type, dimensions: dimensions, role: "input", index: index)
        lock.lock(); defer { lock.unlock() }
        inputs[index] = format
    }

    /// Sets the type and dimensions of output `index`; errors as in ``setInputFormat(index:type:dimensions:)``.
    public func setOutputFormat(index: UInt, type: ModelElementType, dimensions: [NSNumber]) throws {
        let format = try ModelTensorFormat(type: type, dimensions: dimensions, role: "output", index: index)
        lock.lock(); defer { lock.unlock() }
        outputs[index] = format
    }

    /// A consistent copy of the formats, taken when a run starts.
    var snapshot: (inputs: [UInt: ModelTensorFormat], outputs: [UInt: ModelTensorFormat]) {
        lock.lock(); defer { lock.unlock() }
        return (inputs, outputs)
    }
}
