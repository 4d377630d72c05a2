import Foundation
import TFLiteModel
import TFLiteRuntime

/// Runs one `SignatureDef` of a model: named inputs and outputs instead of indices.
///
/// A runner for a signature of the main subgraph shares the interpreter's tensors; one for
/// another subgraph has its own. Every runner of an interpreter shares its variables, as
/// in LiteRT: a `prefill` signature that fills a key/value cache held in variables leaves
/// it for the `decode` signature. Like ``Interpreter``, it is not thread-safe.
public final class SignatureRunner {
    /// The signature key.
    public let signatureKey: String
    /// The interpreter that created this runner (kept alive by it).
    let interpreter: Interpreter
    private let signature: Signature
    let engine: Engine

    /// The signature's input names, in `SignatureDef` order.
    public var inputs: [String] { signature.inputs.map(\.name) }
    /// The signature's output names, in `SignatureDef` order.
    public var outputs: [String] { signature.outputs.map(\.name) }

    init(interpreter: Interpreter, signatureKey: String) throws {
        guard let signature = interpreter.model.signatures.first(where: { $0.key == signatureKey }) else {
            throw SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: signatureKey)
        }
        self.signatureKey = signatureKey
        self.interpreter = interpreter
        self.signature = signature
        if signature.subgraphIndex == interpreter.engine.subgraphIndex {
            engine = interpreter.engine
        } else {
            do {
                engine = try Engine(
                    model: interpreter.model, subgraphIndex: signature.subgraphIndex,
                    options: interpreter.engine.options, interpreterState: interpreter.engine.interpreterState)
            } catch {
                throw SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: signatureKey)
            }
        }
        try allocateTensors()
    }

    /// Allocates tensor memory if needed (after creation it already is; after
    /// ``resizeInput(named:toShape:)`` it is required).
    public func allocateTensors() throws {
        do {
            try engine.allocate()
        } catch {
            Interpreter.report(error.description, options: interpreter.options)
            throw SignatureRunnerError.failedToAllocateTensors
        }
    }

    /// Resizes the named input; call ``allocateTensors()`` (or ``invoke(with:)``) afterwards.
    ///
    /// - Throws: ``SignatureRunnerError/failedToResizeInputTensor(inputName:)`` if the
    ///   signature has no input `name` or the shape is invalid.
    public func resizeInput(named name: String, toShape shape: Tensor.Shape) throws {
        guard let t = signature.inputs.first(where: { $0.name == name })?.tensorIndex,
            let position = engine.inputs.firstIndex(of: t)
        else {
            throw SignatureRunnerError.failedToResizeInputTensor(inputName: name)
        }
        do {
            try engine.resizeInput(position, to: shape.dimensions)
        } catch {
            throw SignatureRunnerError.failedToResizeInputTensor(inputName: name)
        }
    }

    /// Copies raw bytes into the named input.
    ///
    /// - Throws: ``SignatureRunnerError/failedToGetTensor(tensorType:nameInSignature:)``
    ///   for an unknown name, ``SignatureRunnerError/invalidTensorDataCount(provided:required:)``
    ///   if the byte count differs from the input's current shape, and
    ///   ``SignatureRunnerError/allocateTensorsRequired`` after a resize that was not
    ///   followed by ``allocateTensors()``.
    public func copy(_ data: Data, toInputNamed name: String) throws {
        let t = try tensorIndex(input: name)
        if engine.tensors[t].type == .string {
            try copyStrings(data, toTensor: t)
            return
        }
        guard let buffer = engine.buffer(forTensor: t) else {
            if let required = engine.tensors[t].byteCount, data.count != required {
                throw SignatureRunnerError.invalidTensorDataCount(provided: data.count, required: required)
            }
            throw SignatureRunnerError.allocateTensorsRequired
        }
        guard data.count == buffer.count else {
            throw SignatureRunnerError.invalidTensorDataCount(provided: data.count, required: buffer.count)
        }
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress, raw.count > 0 {
                buffer.baseAddress?.copyMemory(from: base, byteCount: raw.count)
            }
        }
    }

    /// Allocates if needed, copies every given input, and runs the signature.
    public func invoke(with inputs: [String: Data]) throws {
        try allocateTensors()
        for (name, data) in inputs { try copy(data, toInputNamed: name) }
        do {
            try engine.invoke()
        } catch {
            Interpreter.report(error.description, options: interpreter.options)
            throw SignatureRunnerError.failedToInvokeSignature(signatureKey: signatureKey)
        }
    }

    /// A snapshot of the named input.
    public func input(named name: String) throws -> Tensor {
        try snapshot(try tensorIndex(input: name))
    }

    /// A snapshot of the named output.
    public func output(named name: String) throws -> Tensor {
        guard let entry = signature.outputs.first(where: { $0.name == name }) else {
            throw SignatureRunnerError.failedToGetTensor(tensorType: "output", nameInSignature: name)
        }
        return try snapshot(entry.tensorIndex)
    }

    func tensorIndex(input name: String) throws -> Int {
        guard let entry = signature.inputs.first(where: { $0.name == name }) else {
            throw SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: name)
        }
        return entry.tensorIndex
    }

    private func snapshot(_ t: Int) throws -> Tensor {
        if engine.tensors[t].type == .string {
            guard let buffer = engine.stringBuffer(forTensor: t) else {
                throw SignatureRunnerError.allocateTensorsRequired
            }
            let state = engine.tensors[t]
            return Tensor(name: state.name, dataType: .string, shape: Tensor.Shape(state.shape), data: Data(buffer))
        }
        guard let buffer = engine.buffer(forTensor: t) else { throw SignatureRunnerError.allocateTensorsRequired }
        let state = engine.tensors[t]
        guard let type = Tensor.DataType(state.type) else { throw SignatureRunnerError.invalidTensorDataType }
        return Tensor(
            name: state.name, dataType: type, shape: Tensor.Shape(state.shape),
            data: Data(UnsafeRawBufferPointer(buffer)),
            quantizationParameters: QuantizationParameters(state.quantization))
    }
}

extension Interpreter {
    /// A runner for the signature `key`.
    ///
    /// - Throws: ``SignatureRunnerError/failedToCreateSignatureRunner(signatureKey:)`` if
    ///   the model has no such signature.
    public func signatureRunner(with key: String) throws -> SignatureRunner {
        try SignatureRunner(interpreter: self, signatureKey: key)
    }
}
