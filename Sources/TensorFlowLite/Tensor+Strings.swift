import Foundation
import TFLiteModel
import TFLiteRuntime

// String tensors (TFLite's STRING): additions to TensorFlowLiteSwift, which has none.

extension Array where Element == String {
    /// The strings of a ``Tensor/DataType/string`` tensor, in row-major order.
    ///
    ///     let replies = try [String](interpreter.output(at: 0))
    ///
    /// - Throws: ``InterpreterError/invalidTensorDataType`` if the tensor is not a string
    ///   tensor, its bytes are not TFLite's string layout, or a string is not valid UTF-8
    ///   (read such strings as `[Data]`).
    public init(_ tensor: Tensor) throws {
        self = try [Data](tensor).map { data in
            guard let text = String(validating: data, as: UTF8.self) else {
                throw InterpreterError.invalidTensorDataType
            }
            return text
        }
    }
}

extension Array where Element == Data {
    /// The strings of a ``Tensor/DataType/string`` tensor as bytes, in row-major order.
    ///
    /// - Throws: ``InterpreterError/invalidTensorDataType`` if the tensor is not a string
    ///   tensor or its bytes are not TFLite's string layout.
    public init(_ tensor: Tensor) throws {
        guard tensor.dataType == .string, let strings = Tensor.strings(inStringData: tensor.data) else {
            throw InterpreterError.invalidTensorDataType
        }
        self = strings
    }
}

extension Tensor {
    /// TFLite's layout of `strings` (an `Int32` count, the offsets, then the bytes): the
    /// `data` of a string tensor holding them, to pass to `Interpreter.copy(_:toInputAt:)`
    /// or ``SignatureRunner/invoke(with:)``. Nil past 2 GiB.
    public static func stringData(_ strings: [Data]) -> Data? {
        StringTensorLayout.encode(strings).map { Data($0) }
    }

    /// The strings of TFLite's string layout `data`, or nil when an offset or the count is
    /// malformed.
    package static func strings(inStringData data: Data) -> [Data]? {
        data.withUnsafeBytes { raw in
            guard case .success(let count) = StringTensorLayout.validate(raw) else { return nil }
            let view = StringTensorView(validated: raw, count: count)
            return (0 ..< count).map { Data(view[$0]) }
        }
    }

    /// TFLite's layout of the UTF-8 bytes of `strings`; nil past 2 GiB.
    public static func stringData(_ strings: [String]) -> Data? {
        StringTensorLayout.encode(strings.map { Array($0.utf8) }).map { Data($0) }
    }
}

extension Interpreter {
    /// Copies `strings` (UTF-8) into string input tensor `index`, one per element of its
    /// current shape (resize the input first for another count).
    ///
    /// - Throws: ``InterpreterError/invalidTensorDataType`` if the input is not a string
    ///   tensor; ``InterpreterError/invalidTensorDataCount(provided:required:)`` if the
    ///   count differs from the input's element count.
    @discardableResult
    public func copy(_ strings: [String], toInputAt index: Int) throws -> Tensor {
        try copy(strings.map { Data($0.utf8) }, toInputAt: index)
    }

    /// Copies byte strings into string input tensor `index`; errors as for `[String]`.
    @discardableResult
    public func copy(_ strings: [Data], toInputAt index: Int) throws -> Tensor {
        try checkIndex(index, count: inputTensorCount)
        let t = engine.inputs[index]
        let state = engine.tensors[t]
        guard state.type == .string else { throw InterpreterError.invalidTensorDataType }
        guard strings.count == state.elementCount else {
            throw InterpreterError.invalidTensorDataCount(provided: strings.count, required: state.elementCount)
        }
        guard let data = Tensor.stringData(strings) else { throw InterpreterError.failedToCopyDataToInputTensor }
        return try copy(data, toInputAt: index)
    }

    /// Sets string tensor `t` of `engine` to `data`, or returns why it cannot.
    static func setStrings(_ data: Data, tensor t: Int, of engine: Engine) -> RuntimeError? {
        data.withUnsafeBytes { raw in
            do throws(RuntimeError) {
                try engine.setStrings(forTensor: t, buffer: raw)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Writes TFLite's string layout `data` into string tensor `t`, checking every offset
    /// and the count.
    func copyStrings(_ data: Data, toTensor t: Int) throws {
        guard engine.isAllocated else { throw InterpreterError.allocateTensorsRequired }
        if let error = Self.setStrings(data, tensor: t, of: engine) {
            Self.report(error.description, options: options)
            throw InterpreterError.tensorFlowLiteError(error.description)
        }
    }
}

extension SignatureRunner {
    /// Copies `strings` (UTF-8) into the named string input, one per element of its shape.
    ///
    /// - Throws: ``SignatureRunnerError/failedToGetTensor(tensorType:nameInSignature:)``
    ///   for an unknown name, ``SignatureRunnerError/invalidTensorDataType`` if the input
    ///   is not a string tensor, ``SignatureRunnerError/invalidTensorDataCount(provided:required:)``
    ///   if the count differs from its element count.
    public func copy(_ strings: [String], toInputNamed name: String) throws {
        try copy(strings.map { Data($0.utf8) }, toInputNamed: name)
    }

    /// Copies byte strings into the named string input; errors as for `[String]`.
    public func copy(_ strings: [Data], toInputNamed name: String) throws {
        let t = try tensorIndex(input: name)
        let state = engine.tensors[t]
        guard state.type == .string else { throw SignatureRunnerError.invalidTensorDataType }
        guard strings.count == state.elementCount else {
            throw SignatureRunnerError.invalidTensorDataCount(provided: strings.count, required: state.elementCount)
        }
        guard let data = Tensor.stringData(strings) else { throw SignatureRunnerError.failedToCopyDataToInputTensor }
        try copy(data, toInputNamed: name)
    }

    /// Writes TFLite's string layout `data` into string tensor `t`.
    func copyStrings(_ data: Data, toTensor t: Int) throws {
        guard engine.isAllocated else { throw SignatureRunnerError.allocateTensorsRequired }
        if let error = Interpreter.setStrings(data, tensor: t, of: engine) {
            Interpreter.report(error.description, options: interpreter.options)
            throw SignatureRunnerError.failedToCopyDataToInputTensor
        }
    }
}
