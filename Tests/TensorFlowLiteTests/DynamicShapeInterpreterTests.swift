import Foundation
import Testing
import TensorFlowLite

/// Outputs whose shape depends on the input values (WHERE's coordinates, and what follows
/// them) through the public API: no data before an invoke, then each invoke's shape.
@Suite struct DynamicShapeInterpreterTests {
    /// `tf.cast(tf.where(mask), tf.float32) + y`: mask bool [2, 3, 2], y float [1, 3],
    /// output [number of true elements, 3].
    static let path = Fixtures.root.appendingPathComponent("Fixtures/conformance/WHERE/b_then_cast_add/model.tflite")
        .path

    static func maskData(_ mask: [Bool]) -> Data { Data(mask.map { $0 ? 1 : 0 }) }
    static let y: [Float] = [0.5, 10, -2]
    static var yData: Data { y.withUnsafeBufferPointer { Data(buffer: $0) } }

    /// Coordinates of the true elements of a [2, 3, 2] mask, plus y.
    static func expected(_ mask: [Bool]) -> [Float] {
        mask.indices.filter { mask[$0] }.flatMap { i in
            [Float(i / 6) + y[0], Float(i / 2 % 3) + y[1], Float(i % 2) + y[2]]
        }
    }

    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func interpreterReportsEachInvokesShape() throws {
        var options = Interpreter.Options()
        options.isErrorLoggingEnabled = false
        let interpreter = try Interpreter(modelPath: Self.path, options: options)
        try interpreter.allocateTensors()
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: 0) }
        try interpreter.copy(Self.yData, toInputAt: 1)
        let masks: [[Bool]] = [
            [true, false, false, true, true, false, false, false, true, false, false, true],
            [false, true, false, false, false, false, false, false, false, false, false, false],
            [Bool](repeating: false, count: 12),
            [Bool](repeating: true, count: 12),
        ]
        for mask in masks {
            try interpreter.copy(Self.maskData(mask), toInputAt: 0)
            try interpreter.invoke()
            let output = try interpreter.output(at: 0)
            #expect(output.shape == Tensor.Shape([mask.filter { $0 }.count, 3]))
            #expect(output.dataType == .float32)
            #expect(Self.floats(output.data) == Self.expected(mask))
        }
    }

    @Test func signatureRunnerReportsTheShape() throws {
        var options = Interpreter.Options()
        options.isErrorLoggingEnabled = false
        let interpreter = try Interpreter(modelPath: Self.path, options: options)
        let runner = try interpreter.signatureRunner(with: "serving_default")
        for mask in [
            [true, true, false, false, false, false, false, false, false, false, false, true],
            [false, false, false, false, false, false, true, false, false, false, false, false],
        ] {
            try runner.invoke(with: ["in0": Self.maskData(mask), "in1": Self.yData])
            let output = try runner.output(named: "output_0")
            #expect(output.shape == Tensor.Shape([mask.filter { $0 }.count, 3]))
            #expect(Self.floats(output.data) == Self.expected(mask))
        }
    }

    @Test func aResultOverTheMemoryBudgetFailsTheInvokeNamingWhere() throws {
        var options = Interpreter.Options()
        options.isErrorLoggingEnabled = false
        // The inputs (64 bytes each in the arena) and one row of results fit; 12 rows do not.
        options.memoryBudget = 320
        let interpreter = try Interpreter(modelPath: Self.path, options: options)
        try interpreter.allocateTensors()
        try interpreter.copy(Self.yData, toInputAt: 1)
        try interpreter.copy(Self.maskData([Bool](repeating: true, count: 12)), toInputAt: 0)
        #expect {
            try interpreter.invoke()
        } throws: { error in
            guard case .tensorFlowLiteError(let message) = error as? InterpreterError else { return false }
            return message.contains("(WHERE) failed") && message.contains("memory")
        }
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: 0) }
        let one = [true] + [Bool](repeating: false, count: 11)
        try interpreter.copy(Self.maskData(one), toInputAt: 0)
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).shape == Tensor.Shape([1, 3]))
    }
}
