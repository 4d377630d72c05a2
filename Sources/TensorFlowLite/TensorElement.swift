import Foundation

/// A Swift type that can be read from or written to a tensor's bytes.
public protocol TensorElement {
    /// The tensor type this Swift type corresponds to.
    static var tensorDataType: Tensor.DataType { get }
}

extension Float: TensorElement { public static var tensorDataType: Tensor.DataType { .float32 } }
extension Double: TensorElement { public static var tensorDataType: Tensor.DataType { .float64 } }
extension Int8: TensorElement { public static var tensorDataType: Tensor.DataType { .int8 } }
extension UInt8: TensorElement { public static var tensorDataType: Tensor.DataType { .uInt8 } }
extension Int16: TensorElement { public static var tensorDataType: Tensor.DataType { .int16 } }
extension Int32: TensorElement { public static var tensorDataType: Tensor.DataType { .int32 } }
extension Int64: TensorElement { public static var tensorDataType: Tensor.DataType { .int64 } }
extension Bool: TensorElement { public static var tensorDataType: Tensor.DataType { .bool } }

extension Array where Element: TensorElement {
    /// The elements of `tensor`, which must have `Element`'s data type.
    ///
    ///     let scores = try [Float](interpreter.output(at: 0))
    ///
    /// - Throws: ``InterpreterError/invalidTensorDataType`` if the types differ.
    public init(_ tensor: Tensor) throws {
        guard tensor.dataType == Element.tensorDataType else { throw InterpreterError.invalidTensorDataType }
        let count = tensor.data.count / MemoryLayout<Element>.stride
        self = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            tensor.data.withUnsafeBytes { raw in
                for i in 0 ..< count {
                    buffer[i] = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Element>.stride, as: Element.self)
                }
            }
            initialized = count
        }
    }

    /// The quantized values of `tensor` converted to real numbers with its quantization
    /// parameters (`scale * (q - zeroPoint)`, per axis when it is per-axis quantized).
    public static func dequantized(_ tensor: Tensor) throws -> [Float] where Element == Float {
        guard let q = tensor.quantizationParameters else { return try [Float](tensor) }
        let values: [Float]
        switch tensor.dataType {
        case .uInt8: values = try [UInt8](tensor).map { Float($0) }
        case .int8: values = try [Int8](tensor).map { Float($0) }
        case .int16: values = try [Int16](tensor).map { Float($0) }
        case .int32: values = try [Int32](tensor).map { Float($0) }
        default: return try [Float](tensor)
        }
        guard q.isPerAxis else {
            return values.map { q.scale * ($0 - Float(q.zeroPoint)) }
        }
        let dims = tensor.shape.dimensions
        guard q.quantizedDimension < dims.count, dims[q.quantizedDimension] == q.scales.count else {
            throw InterpreterError.invalidTensorDataType
        }
        let inner = dims[(q.quantizedDimension + 1)...].reduce(1, *)
        let axis = dims[q.quantizedDimension]
        return values.enumerated().map { i, v in
            let c = (i / Swift.max(inner, 1)) % axis
            return q.scales[c] * (v - Float(q.zeroPoints[c]))
        }
    }
}

extension Interpreter {
    /// Copies typed `values` into input tensor `index` (an addition: no `Data` plumbing).
    ///
    /// - Throws: ``InterpreterError/invalidTensorDataType`` if the tensor's type is not
    ///   `T`'s; ``InterpreterError/invalidTensorDataCount(provided:required:)`` if the
    ///   number of bytes differs.
    @discardableResult
    public func copy<T: TensorElement>(_ values: [T], toInputAt index: Int) throws -> Tensor {
        _ = try checkedInputType(index, T.tensorDataType)
        let data = values.withUnsafeBytes { Data($0) }
        return try copy(data, toInputAt: index)
    }

    private func checkedInputType(_ index: Int, _ type: Tensor.DataType) throws -> Int {
        try checkIndex(index, count: inputTensorCount)
        let t = engine.inputs[index]
        guard Tensor.DataType(engine.tensors[t].type) == type else { throw InterpreterError.invalidTensorDataType }
        return t
    }

    /// Calls `body` with the bytes of output tensor `index`, without copying them.
    ///
    /// The buffer is only valid inside `body` and is overwritten by the next
    /// ``invoke()``; do not let it escape.
    public func withUnsafeOutputBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try checkIndex(index, count: outputTensorCount)
        guard let buffer = engine.buffer(forTensor: engine.outputs[index]) else {
            throw InterpreterError.invokeInterpreterRequired
        }
        return try body(UnsafeRawBufferPointer(buffer))
    }
}
