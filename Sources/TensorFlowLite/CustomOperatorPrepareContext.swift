import Foundation
import TFLiteFormat
import TFLiteRuntime

/// A decoded FlexBuffers value: the usual format of a custom operator's options
/// (``CustomOperatorPrepareContext/flexBufferOptions()``).
public indirect enum FlexBufferValue: Hashable, Sendable {
    case null
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case bool(Bool)
    case string(String)
    /// A map key stored as a value.
    case key(String)
    case blob([UInt8])
    case vector([FlexBufferValue])
    /// Entries in stored order (FlexBuffers sorts them by key).
    case map([MapEntry])

    /// One entry of a map value.
    public struct MapEntry: Hashable, Sendable {
        public var key: String
        public var value: FlexBufferValue
        public init(key: String, value: FlexBufferValue) { self.key = key; self.value = value }
    }

    init(_ tree: FlexTree) {
        switch tree {
        case .null: self = .null
        case .int(let v): self = .int(v)
        case .uint(let v): self = .uint(v)
        case .float(let v): self = .float(v)
        case .bool(let v): self = .bool(v)
        case .string(let v): self = .string(v)
        case .key(let v): self = .key(v)
        case .blob(let v): self = .blob(v)
        case .vector(let items): self = .vector(items.map(FlexBufferValue.init))
        case .map(let entries): self = .map(entries.map { MapEntry(key: $0.key, value: FlexBufferValue($0.value)) })
        }
    }
}

extension FlexBufferValue {
    /// The value stored under `key` when this is a map, else nil.
    public subscript(key: String) -> FlexBufferValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value as an integer, when it is a signed or unsigned integer (or a boolean)
    /// that fits `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let v): Int(exactly: v)
        case .uint(let v): Int(exactly: v)
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// The value as a `Double`, when it is a number.
    public var doubleValue: Double? {
        switch self {
        case .float(let v): v
        case .int(let v): Double(v)
        case .uint(let v): Double(v)
        default: nil
        }
    }
}

/// What a ``CustomOperator`` sees while preparing: its inputs' and outputs' types and
/// shapes, its custom options, and the output shapes it decides.
///
/// Indices are the operator's own input and output positions (0 is its first input).
/// Every accessor checks the position and throws ``CustomOperatorError`` when it is out
/// of range or the tensor is absent (an optional input given as `-1`).
public struct CustomOperatorPrepareContext {
    /// The custom operator's name (`custom_code`).
    public let name: String
    /// The operator's index in the model's main subgraph.
    public let operatorIndex: Int
    /// The operator's `custom_options` bytes, as stored in the model (empty when absent).
    public let customOptions: Data
    /// How ``customOptions`` is encoded: 0 is FlexBuffers, the converter's format.
    public let customOptionsFormat: Int

    let inputs: [TensorState?]
    let outputs: [TensorState?]
    /// Output shapes set by ``setOutputShape(_:_:)``.
    var outputShapes: [Int: [Int]] = [:]

    /// Number of inputs, counting absent optional ones.
    public var inputCount: Int { inputs.count }
    /// Number of outputs.
    public var outputCount: Int { outputs.count }

    init(name: String, context: PrepareContext) {
        self.name = name
        operatorIndex = context.op.index
        customOptions = context.op.customOptions.map { Data($0.bytes) } ?? Data()
        customOptionsFormat = Int(context.op.customOptionsFormat)
        inputs = (0 ..< context.inputCount).map { context.optionalInput($0) }
        outputs = (0 ..< context.outputCount).map { try? context.output($0) }
    }

    /// The element type of input `index`.
    public func inputType(_ index: Int) throws -> Tensor.DataType {
        try Self.dataType(try input(index), what: "input \(index)")
    }

    /// The shape of input `index`.
    public func inputShape(_ index: Int) throws -> Tensor.Shape {
        Tensor.Shape(try input(index).shape)
    }

    /// Whether input `index` is a constant of the model (its value is known before invoke).
    public func isInputConstant(_ index: Int) throws -> Bool {
        try input(index).isConstant
    }

    /// The element type of output `index` (fixed by the model).
    public func outputType(_ index: Int) throws -> Tensor.DataType {
        try Self.dataType(try output(index), what: "output \(index)")
    }

    /// The shape of output `index`: the one set by ``setOutputShape(_:_:)``, else the
    /// model's.
    public func outputShape(_ index: Int) throws -> Tensor.Shape {
        if let shape = outputShapes[index] { return Tensor.Shape(shape) }
        return Tensor.Shape(try output(index).shape)
    }

    /// Sets the shape of output `index`. Each output needs one: the model's shape is kept
    /// for outputs left unset.
    public mutating func setOutputShape(_ index: Int, _ shape: Tensor.Shape) throws {
        let state = try output(index)
        guard let size = state.type.byteSize, Shape.byteCount(shape.dimensions, elementSize: size) != nil else {
            throw CustomOperatorError(
                "output \(index): shape \(shape.dimensions) is invalid or too large for type \(state.type)")
        }
        outputShapes[index] = shape.dimensions
    }

    /// The custom options decoded as FlexBuffers (the format TensorFlow's converter
    /// writes). Malformed bytes throw; absent options throw as well.
    public func flexBufferOptions() throws -> FlexBufferValue {
        guard customOptionsFormat == 0 else {
            throw CustomOperatorError("custom options format \(customOptionsFormat) is not FlexBuffers")
        }
        guard !customOptions.isEmpty else { throw CustomOperatorError("the operator has no custom options") }
        do {
            return FlexBufferValue(try FlexBuffer([UInt8](customOptions)).tree())
        } catch {
            throw CustomOperatorError("custom options: \(error.message)")
        }
    }

    func input(_ index: Int) throws -> TensorState {
        guard index >= 0, index < inputs.count else {
            throw CustomOperatorError("input \(index) does not exist (the operator has \(inputs.count) inputs)")
        }
        guard let state = inputs[index] else { throw CustomOperatorError("input \(index) is absent") }
        return state
    }

    func output(_ index: Int) throws -> TensorState {
        guard index >= 0, index < outputs.count, let state = outputs[index] else {
            throw CustomOperatorError("output \(index) does not exist (the operator has \(outputs.count) outputs)")
        }
        return state
    }

    static func dataType(_ state: TensorState, what: String) throws -> Tensor.DataType {
        guard let type = Tensor.DataType(state.type) else {
            throw CustomOperatorError("\(what) has type \(state.type), which custom operators cannot access")
        }
        return type
    }
}

/// A misuse of the custom-operator API (an input position that does not exist, a
/// type that does not match), thrown to the kernel, which may let it propagate.
public struct CustomOperatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
