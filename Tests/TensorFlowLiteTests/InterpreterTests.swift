import Foundation
import Testing
@testable import TensorFlowLite
import TFLiteModel

/// The documented TensorFlowLiteSwift workflow, unchanged, on a real float model.
@Suite struct InterpreterWorkflowTests {
    // LiteRT 2.3.0, BUILTIN_REF kernels, input `Fixtures.sineImage`.
    static let reference: [Float] = [
        0.03094780445098877, 0.18071779608726501, 0.11994316428899765, 0.06073303893208504, 0.09577705711126328,
        0.09684178978204727, 0.1117638573050499, 0.09845764189958572, 0.04733901470899582, 0.15747883915901184,
    ]

    @Test func documentedWorkflowRunsAFloatModel() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        #expect(input.dataType == .float32)
        #expect(input.shape == [1, 32, 32, 3])
        let data = Fixtures.sineImage.withUnsafeBufferPointer { Data(buffer: $0) }
        try interpreter.copy(data, toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output.shape == [1, 10])
        let probabilities = try [Float](output)
        for (got, want) in zip(probabilities, Self.reference) {
            #expect(abs(got - want) <= 1e-4, "got \(got), want \(want)")
        }
    }

    @Test func modelDataAndSharedModelGiveTheSameResult() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.model("mobilenet_float")))
        let a = try Interpreter(modelData: bytes)
        let model = try Model(contentsOfFile: Fixtures.model("mobilenet_float"))
        let b = try Interpreter(
            model: model,
            options: {
                var o = Interpreter.Options(); o.threadCount = 2; return o
            }())
        var outputs: [[Float]] = []
        for interpreter in [a, b] {
            try interpreter.allocateTensors()
            try interpreter.copy(Fixtures.sineImage, toInputAt: 0)
            try interpreter.invoke()
            outputs.append(try [Float](interpreter.output(at: 0)))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func signatureRunnerUsesNames() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        #expect(interpreter.signatureKeys == ["serving_default"])
        let runner = try interpreter.signatureRunner(with: "serving_default")
        #expect(runner.inputs == ["image"])
        #expect(runner.outputs == ["probabilities"])
        let data = Fixtures.sineImage.withUnsafeBufferPointer { Data(buffer: $0) }
        try runner.invoke(with: ["image": data])
        let probabilities = try [Float](runner.output(named: "probabilities"))
        #expect(probabilities.count == 10)
        #expect(abs(probabilities[1] - Self.reference[1]) <= 1e-4)
        #expect(throws: SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: "nope")) {
            try runner.input(named: "nope")
        }
        #expect(throws: SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: "train")) {
            try interpreter.signatureRunner(with: "train")
        }
    }

    @Test func int8ModelExposesInt8TensorsWithQuantization() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_int8"))
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        #expect(input.dataType == .int8)
        let q = try #require(input.quantizationParameters)
        #expect(q.scale > 0)
    }
}

/// Every `InterpreterError` a caller can provoke, with TensorFlowLiteSwift's messages.
@Suite struct InterpreterMisuseTests {
    @Test func missingFileFailsToLoad() {
        #expect(throws: InterpreterError.failedToLoadModel) { try Interpreter(modelPath: "/nonexistent/model.tflite") }
    }

    @Test func garbageDataFailsToLoad() {
        #expect(throws: InterpreterError.failedToLoadModel) {
            try Interpreter(modelData: Data(repeating: 7, count: 100))
        }
    }

    @Test func indexesAreChecked() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invalidTensorIndex(index: 1, maxIndex: 0)) { try interpreter.input(at: 1) }
        #expect(throws: InterpreterError.invalidTensorIndex(index: -1, maxIndex: 0)) { try interpreter.output(at: -1) }
        #expect(throws: InterpreterError.invalidTensorIndex(index: 3, maxIndex: 0)) {
            try interpreter.copy(Data(), toInputAt: 3)
        }
        #expect(throws: InterpreterError.invalidTensorIndex(index: 2, maxIndex: 0)) {
            try interpreter.resizeInput(at: 2, to: [1])
        }
        #expect(
            InterpreterError.invalidTensorIndex(index: 1, maxIndex: 0).description
                == "Invalid tensor index 1, max index is 0.")
    }

    @Test func byteCountIsChecked() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        try interpreter.allocateTensors()
        let error = InterpreterError.invalidTensorDataCount(provided: 4, required: 12288)
        #expect(throws: error) { try interpreter.copy(Data(count: 4), toInputAt: 0) }
        #expect(error.description == "Provided data count 4 must match the required count 12288.")
    }

    @Test func orderOfCallsIsChecked() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.input(at: 0) }
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: 0) }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        #expect(throws: InterpreterError.allocateTensorsRequired) {
            try interpreter.copy(Data(count: 12288), toInputAt: 0)
        }
        try interpreter.allocateTensors()
        try interpreter.resizeInput(at: 0, to: [2, 32, 32, 3])
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        try interpreter.allocateTensors()
        #expect(try interpreter.input(at: 0).shape == [2, 32, 32, 3])
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).shape == [2, 10])
        #expect(InterpreterError.allocateTensorsRequired.description == "Must call allocateTensors().")
        #expect(InterpreterError.invokeInterpreterRequired.description == "Must call invoke().")
    }

    @Test func invalidResizeIsReported() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        #expect(throws: InterpreterError.failedToResizeInputTensor(index: 0)) {
            try interpreter.resizeInput(at: 0, to: [1, -3, 2, 3])
        }
        // A shape the graph cannot take fails at allocation, naming the operator.
        try interpreter.resizeInput(at: 0, to: [1, 32, 32, 4])
        do {
            try interpreter.allocateTensors()
            Issue.record("expected an error")
        } catch let error as InterpreterError {
            guard case .tensorFlowLiteError(let message) = error else { Issue.record("got \(error)"); return }
            #expect(message.contains("operator 0 (CONV_2D)"))
        }
    }

    @Test func typedCopyChecksTheType() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invalidTensorDataType) {
            try interpreter.copy([UInt8](repeating: 0, count: 12288), toInputAt: 0)
        }
    }
}

/// Errors at creation name the operator, its index and types.
@Suite struct InterpreterCreationErrorTests {
    static func model(op: BuiltinOperator, type: ElementType) -> Model {
        let bytes = ModelBytes([UInt8]())
        let tensors = [
            ModelTensor(index: 0, name: "x", type: type, shape: [1, 4]),
            ModelTensor(index: 1, name: "y", type: type, shape: [1, 4]),
        ]
        let op = Operator(index: 0, code: OperatorCode(builtin: op), inputs: [0], outputs: [1])
        let subgraph = Subgraph(name: "main", tensors: tensors, inputs: [0], outputs: [1], operators: [op])
        return Model(
            bytes: bytes, version: 3, modelDescription: nil, operatorCodes: [op.code],
            subgraphs: [subgraph], signatures: [], metadata: [])
    }

    @Test func unsupportedOperatorIsNamed() {
        let message =
            "Failed to create the interpreter. Didn't find op for builtin opcode 'CONCAT_EMBEDDINGS' version '1': "
            + "operator 0 (CONCAT_EMBEDDINGS) is not supported by this runtime"
        #expect(throws: InterpreterError.tensorFlowLiteError(message)) {
            try Interpreter(model: Self.model(op: .concatEmbeddings, type: .float32))
        }
        #expect(InterpreterError.tensorFlowLiteError(message).description == "TensorFlow Lite Error: " + message)
    }

    @Test func unsupportedTypesAreNamed() {
        #expect(
            throws: InterpreterError.tensorFlowLiteError(
                "Failed to create the interpreter. operator 0 (RELU6) does not support the types inputs (STRING) -> outputs (STRING)"
            )
        ) {
            try Interpreter(model: Self.model(op: .relu6, type: .string))
        }
    }
}
