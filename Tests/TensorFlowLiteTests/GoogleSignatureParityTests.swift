import Foundation
import Testing
@testable import TensorFlowLite
import TFLiteModel

/// SignatureRunnerTest's behaviours on `multi_signatures.bin` (signatures "add": x + 2 and
/// "sub": x - 2, each on a float32 [1] input `x`).
@Suite struct GoogleSignatureParityTests {
    static let path = Fixtures.google("multi_signatures")
    static let input = [Float32(2), 4].withUnsafeBufferPointer { Data(buffer: $0) }
    static let output = [Float32(4), 6].withUnsafeBufferPointer { Data(buffer: $0) }

    @Test func listsKeysAndRefusesUnknownOnes() throws {
        let interpreter = try Interpreter(modelPath: Self.path)
        #expect(interpreter.signatureKeys == ["add", "sub"])
        _ = try interpreter.signatureRunner(with: "add")
        #expect(throws: SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: "dummy")) {
            try interpreter.signatureRunner(with: "dummy")
        }
    }

    @Test func resizesThenCopies() throws {
        let runner = try Interpreter(modelPath: Self.path).signatureRunner(with: "add")
        #expect(runner.inputs == ["x"])
        let before = try runner.input(named: "x")
        #expect(before.name == "add_x:0" && before.dataType == .float32 && before.shape == [1])
        #expect(throws: SignatureRunnerError.invalidTensorDataCount(provided: 8, required: 4)) {
            try runner.copy(Self.input, toInputNamed: "x")
        }
        try runner.resizeInput(named: "x", toShape: [2])
        try runner.allocateTensors()
        try runner.copy(Self.input, toInputNamed: "x")
        #expect(
            try runner.input(named: "x") == Tensor(name: "add_x:0", dataType: .float32, shape: [2], data: Self.input))
    }

    @Test func unknownNamesThrowTheirOwnCases() throws {
        let runner = try Interpreter(modelPath: Self.path).signatureRunner(with: "add")
        #expect(throws: SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: "dummy")) {
            try runner.input(named: "dummy")
        }
        #expect(throws: SignatureRunnerError.failedToResizeInputTensor(inputName: "dummy")) {
            try runner.resizeInput(named: "dummy", toShape: [2])
        }
        #expect(throws: SignatureRunnerError.failedToGetTensor(tensorType: "output", nameInSignature: "dummy")) {
            try runner.output(named: "dummy")
        }
        #expect(throws: SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: "dummy")) {
            try runner.copy(Data(count: 4), toInputNamed: "dummy")
        }
        #expect(throws: SignatureRunnerError.failedToResizeInputTensor(inputName: "x")) {
            try runner.resizeInput(named: "x", toShape: [-1])
        }
        #expect(
            SignatureRunnerError.failedToResizeInputTensor(inputName: "dummy").description
                == "Failed to resize input tensor with input name (dummy).")
    }

    @Test func invokesWithInputs() throws {
        let runner = try Interpreter(modelPath: Self.path).signatureRunner(with: "add")
        #expect(runner.outputs == ["output_0"])
        let before = try runner.output(named: "output_0")
        #expect(before.name == "StatefulPartitionedCall:0" && before.dataType == .float32 && before.shape == [1])
        try runner.resizeInput(named: "x", toShape: [2])
        try runner.invoke(with: ["x": Self.input])
        #expect(
            try runner.output(named: "output_0")
                == Tensor(name: "StatefulPartitionedCall:0", dataType: .float32, shape: [2], data: Self.output))
    }

    @Test func otherSignatureRunsItsOwnSubgraph() throws {
        let runner = try Interpreter(modelPath: Self.path).signatureRunner(with: "sub")
        try runner.invoke(with: ["x": [Float32(5)].withUnsafeBufferPointer { Data(buffer: $0) }])
        #expect(try [Float32](runner.output(named: "output_0")) == [3])
    }
}

/// MetalDelegateTests and MetalDelegateOptionsTests, plus the CoreML delegate's options.
@Suite struct GoogleDelegateParityTests {
    @Test func metalOptionsDefaultsCustomValuesAndEquality() {
        #expect(MetalDelegate().options.isPrecisionLossAllowed == false)
        #expect(MetalDelegate().options.waitType == .passive)
        var options = MetalDelegate.Options()
        options.isPrecisionLossAllowed = true
        options.waitType = .active
        let delegate = MetalDelegate(options: options)
        #expect(delegate.options.isPrecisionLossAllowed && delegate.options.waitType == .active)

        var a = MetalDelegate.Options(), b = MetalDelegate.Options()
        #expect(a == b)
        a.isPrecisionLossAllowed = true; b.isPrecisionLossAllowed = true
        a.waitType = .none; b.waitType = .none
        #expect(a == b)
        b.isPrecisionLossAllowed = false
        #expect(a != b)
        a.isPrecisionLossAllowed = false
        a.waitType = .aggressive
        #expect(a != b)
        // TensorFlowLiteSwift declares the wait type at the top level.
        let wait: ThreadWaitType = .active
        #expect(wait == MetalDelegate.ThreadWaitType.active)
    }

    /// Google's two Metal-device tests, minus the GPU: the interpreter keeps the delegate
    /// (ignored here) and its options, and `multi_add` then runs on the CPU.
    @Test func interpreterKeepsDelegatesAndRunsMultiAdd() throws {
        let plain = try Interpreter(modelPath: Fixtures.google("multi_add"), delegates: [MetalDelegate()])
        #expect(plain.delegates?.count == 1)
        #expect(plain.options == nil)
        var options = Interpreter.Options()
        options.threadCount = 1
        let interpreter = try Interpreter(
            modelPath: Fixtures.google("multi_add"), options: options,
            delegates: [MetalDelegate()])
        #expect(interpreter.options != nil && interpreter.delegates?.count == 1)
        try interpreter.allocateTensors()
        for k in 0 ..< 4 {
            try interpreter.copy([Float32](repeating: Float32(k + 1), count: 192), toInputAt: k)
        }
        try interpreter.invoke()
        // x = a + (b + c), y = d + (b + c).
        #expect(try [Float32](interpreter.output(at: 0)) == [Float32](repeating: 6, count: 192))
        #expect(try [Float32](interpreter.output(at: 1)) == [Float32](repeating: 9, count: 192))
    }

    @Test func coreMLOptionsAreDocumentedNoOps() {
        let options = CoreMLDelegate.Options()
        #expect(options.enabledDevices == .neuralEngine)
        #expect(options.coreMLVersion == 0 && options.maxDelegatedPartitions == 0 && options.minNodesPerPartition == 2)
        var all = options
        all.enabledDevices = .all
        #expect(all != options)
        #expect(CoreMLDelegate(options: all) == nil)
    }
}

/// Output types TFLite's kernels decide at prepare (spec/derived-output-types.md).
@Suite struct DerivedOutputTypeTests {
    /// One binary operator on int32 [1, 4] operands whose output the file calls FLOAT32.
    static func binary(_ op: BuiltinOperator, inputType: ElementType = .int32, outputType: ElementType = .float32)
        -> Model
    {
        let tensors = [
            ModelTensor(index: 0, name: "a", type: inputType, shape: [1, 4]),
            ModelTensor(index: 1, name: "b", type: inputType, shape: [1, 4]),
            ModelTensor(index: 2, name: "y", type: outputType, shape: [1, 4]),
        ]
        let node = Operator(index: 0, code: OperatorCode(builtin: op), inputs: [0, 1], outputs: [2])
        let subgraph = Subgraph(name: "main", tensors: tensors, inputs: [0, 1], outputs: [2], operators: [node])
        return Model(
            bytes: ModelBytes([UInt8]()), version: 3, modelDescription: nil, operatorCodes: [node.code],
            subgraphs: [subgraph], signatures: [], metadata: [])
    }

    @Test(arguments: [BuiltinOperator.add, .sub, .maximum, .minimum])
    func operandsDecideTheOutputType(op: BuiltinOperator) throws {
        let interpreter = try Interpreter(model: Self.binary(op))
        try interpreter.allocateTensors()
        try interpreter.copy([Int32](arrayLiteral: 7, -2, 3, 0), toInputAt: 0)
        try interpreter.copy([Int32](arrayLiteral: 1, 5, -3, 0), toInputAt: 1)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output.dataType == .int32)
        let want: [Int32] =
            switch op {
            case .add: [8, 3, 0, 0]
            case .sub: [6, -7, 6, 0]
            case .maximum: [7, 5, 3, 0]
            default: [1, -2, -3, 0]
            }
        #expect(try [Int32](output) == want)
    }

    /// MUL keeps the file's output type in TFLite, which then refuses the model; so do we.
    @Test func mulKeepsTheFilesTypeAndIsRefused() throws {
        #expect(
            throws: InterpreterError.tensorFlowLiteError(
                "Failed to create the interpreter. operator 0 (MUL) does not support the types inputs (INT32, INT32) -> outputs (FLOAT32)"
            )
        ) {
            try Interpreter(model: Self.binary(.mul))
        }
        // TensorFlow's add_quantized graph with MUL: LiteRT refuses it at the second MUL,
        // whose operands are FLOAT32 and UINT8; we refuse the first, whose output the file
        // calls FLOAT32 for UINT8 operands.
        do {
            _ = try Interpreter(modelPath: Fixtures.google("mul_quantized"))
            Issue.record("mul_quantized was accepted")
        } catch let InterpreterError.tensorFlowLiteError(message) {
            #expect(
                message.hasSuffix(
                    "operator 0 (MUL) does not support the types inputs (UINT8, UINT8) -> outputs (FLOAT32)"))
        }
    }

    /// Operands of different types are refused whatever the operator derives.
    @Test func mismatchedOperandsAreStillRefused() throws {
        let tensors = [
            ModelTensor(index: 0, name: "a", type: .int32, shape: [1, 4]),
            ModelTensor(index: 1, name: "b", type: .float32, shape: [1, 4]),
            ModelTensor(index: 2, name: "y", type: .float32, shape: [1, 4]),
        ]
        let node = Operator(index: 0, code: OperatorCode(builtin: .add), inputs: [0, 1], outputs: [2])
        let subgraph = Subgraph(name: "main", tensors: tensors, inputs: [0, 1], outputs: [2], operators: [node])
        let model = Model(
            bytes: ModelBytes([UInt8]()), version: 3, modelDescription: nil, operatorCodes: [node.code],
            subgraphs: [subgraph], signatures: [], metadata: [])
        #expect(throws: InterpreterError.self) { try Interpreter(model: model) }
    }
}
