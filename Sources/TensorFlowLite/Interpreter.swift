import Foundation
import TFLiteModel
import TFLiteRuntime

/// A TensorFlow Lite model, decoded and validated once, shareable by many interpreters
/// on many threads (an addition to TensorFlowLiteSwift, where `Model` is internal).
public typealias Model = TFLiteModel.Model
/// A model's TFLite metadata (`Model.tfliteMetadata`): names, descriptions and the
/// pre-/post-processing its inputs and outputs declare.
public typealias ModelMetadata = TFLiteModel.ModelMetadata
/// Why `Model.tfliteMetadata` could not be read (the model itself still loads).
public typealias ModelMetadataError = TFLiteModel.ModelMetadataError

/// Runs a TensorFlow Lite model: the `Interpreter` of TensorFlowLiteSwift.
///
/// Typical use:
///
///     let interpreter = try Interpreter(modelPath: path)
///     try interpreter.allocateTensors()
///     try interpreter.copy(inputData, toInputAt: 0)
///     try interpreter.invoke()
///     let output = try interpreter.output(at: 0)
///
/// - Important: An `Interpreter` is not thread-safe: serialize access to it. To run one
///   model on several threads, create one interpreter per thread from a shared
///   ``Model`` with ``init(model:options:delegates:)``.
public final class Interpreter {
    /// The configuration options for the interpreter.
    public let options: Options?
    /// Delegates; accepted for source compatibility and not used on Linux.
    public let delegates: [Delegate]?
    /// The model this interpreter runs.
    public let model: Model

    let engine: Engine
    private var hasInvoked = false
    private lazy var signatureCache: [String] = model.signatures.map(\.key)

    /// The total number of input tensors associated with the model.
    public var inputTensorCount: Int { engine.inputs.count }
    /// The total number of output tensors associated with the model.
    public var outputTensorCount: Int { engine.outputs.count }
    /// The signature keys of the model's `SignatureDef`s.
    public var signatureKeys: [String] { signatureCache }

    /// Creates an interpreter for the model file at `modelPath` (memory-mapped).
    ///
    /// - Throws: ``InterpreterError/failedToLoadModel`` if the file cannot be read or is
    ///   not a valid model; ``InterpreterError/tensorFlowLiteError(_:)`` if the model uses
    ///   an operator or type combination this runtime does not support. Its message starts
    ///   as TensorFlowLiteSwift's `failedToCreateInterpreter` does and goes on with
    ///   TensorFlow Lite's log line and the operator's index: `Failed to create the
    ///   interpreter. Didn't find op for builtin opcode 'CONCAT_EMBEDDINGS' version '1':
    ///   operator 0 (CONCAT_EMBEDDINGS) is not supported by this runtime`.
    public convenience init(modelPath: String, options: Options? = nil, delegates: [Delegate]? = nil) throws {
        let model: Model
        do {
            model = try Model(contentsOfFile: modelPath)
        } catch {
            Self.report(error.description, options: options)
            throw InterpreterError.failedToLoadModel
        }
        try self.init(model: model, options: options, delegates: delegates)
    }

    /// Creates an interpreter for a model held in memory. The bytes are kept alive by the
    /// interpreter's ``model``.
    public convenience init(modelData: Data, options: Options? = nil, delegates: [Delegate]? = nil) throws {
        let model: Model
        do {
            model = try Model(data: modelData)
        } catch {
            Self.report(error.description, options: options)
            throw InterpreterError.failedToLoadModel
        }
        try self.init(model: model, options: options, delegates: delegates)
    }

    /// Creates an interpreter for an already-decoded, shareable ``Model``.
    public init(model: Model, options: Options? = nil, delegates: [Delegate]? = nil) throws {
        self.model = model
        self.options = options
        self.delegates = delegates
        var engineOptions = EngineOptions()
        if let threads = options?.threadCount, threads > 0 { engineOptions.threadCount = threads }
        if let budget = options?.memoryBudget { engineOptions.memoryBudget = budget }
        if let budget = options?.workBudget { engineOptions.workBudget = budget }
        if options?.requantization == .float32 { engineOptions.requantization = .float32 }
        engineOptions.kernelLevel = options?.kernelLevel.map(\.runtimeLevel)
        engineOptions.customKernels = options?.customKernels ?? CustomKernelTable()
        do {
            engine = try Engine(model: model, subgraphIndex: 0, options: engineOptions)
        } catch {
            let failure = Self.interpreterError(error, options: options)
            if case .customOperatorFailed = failure {
                Self.report(error.description, options: options)
                throw failure
            }
            let message = Self.creationFailureMessage(error, model: model)
            Self.report(message, options: options)
            throw InterpreterError.tensorFlowLiteError(message)
        }
    }

    /// Why an interpreter could not be created, worded as TensorFlowLiteSwift and
    /// TensorFlow Lite word it, then our detail: for an operator without a kernel,
    /// `Failed to create the interpreter. Didn't find op for builtin opcode 'CONCAT_EMBEDDINGS'
    /// version '1': operator 0 (CONCAT_EMBEDDINGS) is not supported by this runtime` (custom
    /// operators: `Encountered unresolved custom op: <name>`); for other failures,
    /// `Failed to create the interpreter. ` followed by the runtime's message.
    static func creationFailureMessage(_ error: RuntimeError, model: Model) -> String {
        let lead = InterpreterError.failedToCreateInterpreter.description
        let missing = error.unsupportedOperators
        guard missing.count == 1, let first = missing.first, first.subgraph >= 0,
            first.subgraph < model.subgraphs.count, first.index >= 0,
            first.index < model.subgraphs[first.subgraph].operators.count
        else {
            return "\(lead) \(error.description)"
        }
        let code = model.subgraphs[first.subgraph].operators[first.index].code
        let tflite =
            code.builtin == .custom
            ? "Encountered unresolved custom op: \(code.customName ?? "")"
            : "Didn't find op for builtin opcode '\(code.builtin.name)' version '\(code.version)'"
        return "\(lead) \(tflite): \(error.description)"
    }

    /// The error the caller sees for a runtime error: an operator's error as
    /// ``InterpreterError/tensorFlowLiteError(_:)``, except that of a registered custom
    /// operator, which is ``InterpreterError/customOperatorFailed(name:operatorIndex:reason:)``.
    static func interpreterError(_ error: RuntimeError, options: Options?) -> InterpreterError {
        switch error {
        case .invalidOperator(let index, let op, let reason), .unsupportedTypes(let index, let op, let reason),
            .invokeFailed(let index, let op, let reason):
            if op.hasPrefix("CUSTOM:"), let names = options?.customKernels.names,
                case let name = String(op.dropFirst("CUSTOM:".count)), names.contains(name)
            {
                return .customOperatorFailed(name: name, operatorIndex: index, reason: reason)
            }
        default:
            break
        }
        return .tensorFlowLiteError(error.description)
    }

    /// Prints `TensorFlow Lite Error: <message>` when options were given, as
    /// TensorFlowLiteSwift's error reporter does.
    static func report(_ message: String, options: Options?) {
        guard let options, options.isErrorLoggingEnabled else { return }
        print("TensorFlow Lite Error: \(message)")
    }

    // MARK: - Running

    /// Invokes the interpreter to perform inference from the loaded graph.
    ///
    /// - Throws: ``InterpreterError/allocateTensorsRequired`` if tensors are not
    ///   allocated; ``InterpreterError/tensorFlowLiteError(_:)`` with the failing
    ///   operator when a kernel rejects its run-time data (TensorFlowLiteSwift reports
    ///   every invoke failure as `allocateTensorsRequired`).
    public func invoke() throws {
        guard engine.isAllocated else { throw InterpreterError.allocateTensorsRequired }
        do {
            try engine.invoke()
        } catch {
            Self.report(error.description, options: options)
            throw Self.interpreterError(error, options: options)
        }
        hasInvoked = true
    }

    /// Allocates memory for all input, output and intermediate tensors.
    ///
    /// Call it after creating the interpreter and after every ``resizeInput(at:to:)``.
    /// - Throws: ``InterpreterError/tensorFlowLiteError(_:)`` naming the operator when
    ///   the graph is invalid for the current input shapes, or
    ///   ``InterpreterError/failedToAllocateTensors`` when memory cannot be allocated.
    public func allocateTensors() throws {
        do {
            try engine.allocate()
        } catch {
            Self.report(error.description, options: options)
            switch error {
            case .memoryBudgetExceeded, .allocationFailed:
                throw InterpreterError.failedToAllocateTensors
            default:
                throw Self.interpreterError(error, options: options)
            }
        }
        hasInvoked = false
    }

    /// Resizes input tensor `index` to `shape`; call ``allocateTensors()`` afterwards.
    public func resizeInput(at index: Int, to shape: Tensor.Shape) throws {
        try checkIndex(index, count: inputTensorCount)
        do {
            try engine.resizeInput(index, to: shape.dimensions)
        } catch {
            Self.report(error.description, options: options)
            throw InterpreterError.failedToResizeInputTensor(index: index)
        }
    }

    // MARK: - Tensors

    /// The input tensor at `index`.
    ///
    /// - Throws: ``InterpreterError/allocateTensorsRequired`` before ``allocateTensors()``.
    public func input(at index: Int) throws -> Tensor {
        try checkIndex(index, count: inputTensorCount)
        return try snapshot(engine.inputs[index], missing: .allocateTensorsRequired)
    }

    /// The output tensor at `index`. Read it again after each ``invoke()``: an output whose
    /// shape depends on the input values (the coordinates WHERE lists, and what is computed
    /// from them) takes the shape of each invoke.
    ///
    /// - Throws: ``InterpreterError/invokeInterpreterRequired`` before tensors are allocated,
    ///   and for such an output until an ``invoke()`` has computed it.
    public func output(at index: Int) throws -> Tensor {
        try checkIndex(index, count: outputTensorCount)
        return try snapshot(engine.outputs[index], missing: .invokeInterpreterRequired)
    }

    /// Copies `data` (raw little-endian bytes) into input tensor `index`.
    ///
    /// - Throws: ``InterpreterError/invalidTensorDataCount(provided:required:)`` if the
    ///   byte count differs; ``InterpreterError/allocateTensorsRequired`` before
    ///   ``allocateTensors()`` (TensorFlowLiteSwift would write through a null buffer).
    @discardableResult
    public func copy(_ data: Data, toInputAt index: Int) throws -> Tensor {
        try checkIndex(index, count: inputTensorCount)
        let t = engine.inputs[index]
        if engine.tensors[t].type == .string {
            try copyStrings(data, toTensor: t)
            return try input(at: index)
        }
        guard let buffer = engine.buffer(forTensor: t) else {
            if let required = engine.tensors[t].byteCount, data.count != required {
                throw InterpreterError.invalidTensorDataCount(provided: data.count, required: required)
            }
            throw InterpreterError.allocateTensorsRequired
        }
        guard data.count == buffer.count else {
            throw InterpreterError.invalidTensorDataCount(provided: data.count, required: buffer.count)
        }
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress, raw.count > 0 {
                buffer.baseAddress?.copyMemory(from: base, byteCount: raw.count)
            }
        }
        return try input(at: index)
    }

    func checkIndex(_ index: Int, count: Int) throws {
        guard index >= 0, index < count else {
            throw InterpreterError.invalidTensorIndex(index: index, maxIndex: count - 1)
        }
    }

    func snapshot(_ tensorIndex: Int, missing: InterpreterError) throws -> Tensor {
        let state = engine.tensors[tensorIndex]
        if state.type == .string {
            guard let buffer = engine.stringBuffer(forTensor: tensorIndex) else { throw missing }
            return Tensor(name: state.name, dataType: .string, shape: Tensor.Shape(state.shape), data: Data(buffer))
        }
        guard let buffer = engine.buffer(forTensor: tensorIndex) else { throw missing }
        guard let type = Tensor.DataType(state.type) else { throw InterpreterError.invalidTensorDataType }
        return Tensor(
            name: state.name, dataType: type, shape: Tensor.Shape(state.shape),
            data: Data(UnsafeRawBufferPointer(buffer)),
            quantizationParameters: QuantizationParameters(state.quantization))
    }

    /// Returns every variable of the model to its value before the first invoke (an
    /// addition, like Python's `Interpreter.reset_all_variables()`): the state tensors of
    /// recurrent operators (LSTM, RNN, SVDF) become zero, and resource variables
    /// (`tf.Variable`s a model updates between invokes) lose their values, so the
    /// initialization subgraph that gives them their first values runs again at the next
    /// ``invoke()``. Resets the variables shared with this interpreter's
    /// ``SignatureRunner``s too. A streaming model (audio, text) calls it between
    /// independent streams.
    public func resetVariableTensors() {
        engine.interpreterState.resetVariables()
    }

    /// Whether ``invoke()`` has run since the last allocation.
    var isInvoked: Bool { hasInvoked }
}

extension Interpreter {
    /// Options for configuring the ``Interpreter``.
    public struct Options: Equatable, Hashable {
        /// Maximum number of CPU threads for the runtime's parallel loops and for BLAS;
        /// `nil` or values ≤ 0 mean one thread.
        public var threadCount: Int? = nil
        /// Accepted for source compatibility; this runtime has its own CPU kernels.
        public var isXNNPackEnabled: Bool = false
        /// Largest amount of tensor memory, in bytes, that the interpreter may allocate:
        /// the arena ``Interpreter/allocateTensors()`` plans plus the constants it computes
        /// while preparing (an addition). Exceeding it fails with
        /// ``InterpreterError/failedToAllocateTensors`` before anything large is
        /// allocated. `nil` means 4 GiB.
        public var memoryBudget: Int? = nil
        /// Largest work one ``Interpreter/invoke()`` may take, counted as the
        /// multiply-accumulates of convolutions, fully connected layers and matrix
        /// products plus the comparisons of non-max suppression (an addition). A graph
        /// declaring more fails when the interpreter is created or tensors are allocated,
        /// with ``InterpreterError/tensorFlowLiteError(_:)``, before anything runs. Use it
        /// with untrusted models under a time limit: their memory budget does not bound
        /// this work (a 1 KB file can ask for a filter as large as its input). `nil` means
        /// unbounded. MobileNet v1 at 224 needs about 5.7 × 10^8.
        public var workBudget: Int? = nil
        /// Whether errors are also printed as `TensorFlow Lite Error: <message>`, as
        /// TensorFlowLiteSwift's error reporter does when options are given (an addition:
        /// set it to false to keep standard output clean; thrown errors carry the message).
        public var isErrorLoggingEnabled: Bool = true
        /// How quantized convolutions and fully connected layers rescale their accumulators
        /// to 8-bit outputs (an addition). ``Requantization/exact``, the default, matches
        /// TensorFlow Lite's reference kernels bit for bit; ``Requantization/float32`` is
        /// XNNPACK's faster floating-point arithmetic, which can differ by one code.
        public var requantization: Requantization = .exact
        /// Highest instruction-set level of kernels to use (an addition); `nil`, the
        /// default, picks the best the CPU and the OS report, capped by the
        /// `TFLITE_KERNEL_LEVEL` environment variable (a level's name, such as `portable`,
        /// `avx2` or `neon`) when set. A level the CPU lacks, or a level of the other
        /// architecture, is lowered to the CPU's best. 8-bit outputs are identical on every
        /// level; forcing a lower one is for comparisons and for working around a platform
        /// problem.
        public var kernelLevel: KernelLevel? = nil
        /// Kernels registered with ``registerCustomOperator(_:_:)``.
        var customKernels = CustomKernelTable()

        public init() {}

        /// An instruction-set level of the interpreter's kernels: ``portable``, then the
        /// x86-64 levels and the aarch64 levels, each architecture's lowest first.
        public enum KernelLevel: String, CaseIterable, Hashable, Sendable {
            /// The architecture's baseline (SSE2 on x86-64, Advanced SIMD on aarch64),
            /// without level-specific microkernels: runs on every CPU.
            case portable
            /// x86-64-v3: AVX2 and FMA.
            case avx2
            /// x86-64: AVX-512 (F, BW, DQ, VL) with VNNI integer dot products.
            case avx512
            /// aarch64: Advanced SIMD (ARMv8.0) microkernels.
            case neon
            /// aarch64: ``neon`` and the ARMv8.2 8-bit dot product (SDOT/UDOT).
            case dotprod
            /// aarch64: ``dotprod`` and the ARMv8.6 8-bit matrix multiply (SMMLA/UMMLA).
            case i8mm

            var runtimeLevel: TFLiteRuntime.KernelLevel {
                switch self {
                case .portable: .portable
                case .avx2: .avx2
                case .avx512: .avx512
                case .neon: .neon
                case .dotprod: .dotprod
                case .i8mm: .i8mm
                }
            }
        }

        /// The arithmetic that rescales a quantized operator's `Int32` accumulator to its
        /// 8-bit output (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED).
        public enum Requantization: Hashable, Sendable {
            /// TensorFlow Lite's reference arithmetic, bit for bit: a Q31 fixed-point
            /// multiplier and a rounding shift per channel.
            case exact
            /// XNNPACK's arithmetic: the accumulator as `Float` times the scale
            /// `s_in · s_w / s_out` (computed in `Float`), clamped, rounded to nearest with
            /// ties to even. Faster; an output may differ from the reference by one code
            /// (CONFORMANCE.md reports how often).
            case float32
        }
    }
}

/// Deprecated name of ``Interpreter/Options``.
@available(*, deprecated, renamed: "Interpreter.Options")
public typealias InterpreterOptions = Interpreter.Options
