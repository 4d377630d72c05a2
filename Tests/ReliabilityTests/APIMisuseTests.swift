import Foundation
import Testing
import TensorFlowLite

/// Calls in the wrong order, repeated, or interleaved between an interpreter and its
/// signature runner: each gives a typed error or a defined result, never a crash, a
/// read of stale memory, or a changed model.
@Suite("API misuse")
struct APIMisuseTests {
    static func image(_ value: Float = 0.5) -> Data {
        [Float](repeating: value, count: 32 * 32 * 3).withUnsafeBufferPointer { Data(buffer: $0) }
    }

    @Test func repeatedAndOutOfOrderCalls() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        // Everything before allocation.
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        #expect(throws: InterpreterError.invalidTensorDataCount(provided: 3, required: 12288)) {
            try interpreter.copy(Data(count: 3), toInputAt: 0)
        }
        // Allocating twice, invoking many times, resizing to the same shape: all harmless.
        try interpreter.allocateTensors()
        try interpreter.allocateTensors()
        try interpreter.copy(Self.image(), toInputAt: 0)
        try interpreter.invoke()
        let first = try interpreter.output(at: 0)
        try interpreter.invoke()
        try interpreter.resizeInput(at: 0, to: [1, 32, 32, 3])
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0) == first)

        // A real resize invalidates the buffers until the next allocation.
        try interpreter.resizeInput(at: 0, to: [3, 32, 32, 3])
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.input(at: 0) }
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: 0) }
        #expect(throws: InterpreterError.invalidTensorDataCount(provided: 12288, required: 36864)) {
            try interpreter.copy(Self.image(), toInputAt: 0)
        }
        #expect(throws: InterpreterError.allocateTensorsRequired) {
            try interpreter.copy(Data(count: 36864), toInputAt: 0)
        }
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        try interpreter.allocateTensors()
        #expect(try interpreter.output(at: 0).shape == [3, 10])
    }

    @Test func wrongRankFailsAtAllocateNamingTheOperator() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        try interpreter.resizeInput(at: 0, to: [32, 32, 3])
        do {
            try interpreter.allocateTensors()
            Issue.record("expected an error")
        } catch let error as InterpreterError {
            guard case .tensorFlowLiteError(let message) = error else { Issue.record("got \(error)"); return }
            #expect(message.contains("operator 0 (CONV_2D)"), "\(message)")
        }
    }

    @Test func signatureRunnerAndInterpreterInterleaved() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.model("mobilenet_float"))
        let runner = try interpreter.signatureRunner(with: "serving_default") // allocates
        try runner.copy(Self.image(), toInputNamed: "image")
        // The interpreter resizes behind the runner's back: the runner checks bytes against
        // the new shape (as TensorFlow Lite does) and sees unallocated buffers, not the old ones.
        try interpreter.resizeInput(at: 0, to: [2, 32, 32, 3])
        #expect(throws: SignatureRunnerError.invalidTensorDataCount(provided: 12288, required: 24576)) {
            try runner.copy(Self.image(), toInputNamed: "image")
        }
        #expect(throws: SignatureRunnerError.allocateTensorsRequired) {
            try runner.copy(Self.image() + Self.image(), toInputNamed: "image")
        }
        #expect(throws: SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: "nope")) {
            try runner.copy(Self.image(), toInputNamed: "nope")
        }
        // invoke(with:) allocates for the current (resized) shape, then checks the count.
        #expect(throws: SignatureRunnerError.invalidTensorDataCount(provided: 12288, required: 24576)) {
            try runner.invoke(with: ["image": Self.image()])
        }
        try runner.resizeInput(named: "image", toShape: [1, 32, 32, 3])
        try runner.invoke(with: ["image": Self.image()])
        #expect(try runner.output(named: "probabilities").shape == [1, 10])
    }

    @Test func failedCallsLeaveTheSharedModelUsable() throws {
        let model = try Model(contentsOfFile: Fixtures.model("mobilenet_float"))
        let broken = try Interpreter(model: model)
        try broken.resizeInput(at: 0, to: [1, 32, 32, 7])
        #expect(throws: (any Error).self) { try broken.allocateTensors() }
        let healthy = try Interpreter(model: model)
        try healthy.allocateTensors()
        try healthy.copy(Self.image(), toInputAt: 0)
        try healthy.invoke()
        #expect(try healthy.output(at: 0).shape == [1, 10])
    }
}
