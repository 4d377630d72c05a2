import Foundation
import Testing
import TensorFlowLite

/// State kept between invokes through the public API: resource variables and the
/// recurrent state of a loop-converted model, `resetVariableTensors()`, and signature
/// runners sharing their interpreter's variables.
@Suite struct StatefulInterpreterTests {
    static let corpus = Fixtures.root.appendingPathComponent("Fixtures/conformance")

    static func floats(_ data: Data) -> [Float] { data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
    static func data(_ values: [Float]) -> Data { values.withUnsafeBufferPointer { Data(buffer: $0) } }

    static func options() -> Interpreter.Options {
        var options = Interpreter.Options()
        options.isErrorLoggingEnabled = false
        return options
    }

    /// `v += x·c` from a random initial value: after a reset the sequence starts over.
    @Test func resetStartsTheVariablesOver() throws {
        let path = Self.corpus.appendingPathComponent("ASSIGN_VARIABLE/f32_accumulate/model.tflite").path
        let interpreter = try Interpreter(modelPath: path, options: Self.options())
        try interpreter.allocateTensors()
        let x = Self.data([0.5, -1, 2, 0.25, 1, -0.5])
        var first: [[Float]] = []
        for _ in 0 ..< 3 {
            try interpreter.copy(x, toInputAt: 0)
            try interpreter.invoke()
            first.append(Self.floats(try interpreter.output(at: 0).data))
        }
        #expect(first[0] != first[1] && first[1] != first[2])
        interpreter.resetVariableTensors()
        for k in 0 ..< 3 {
            try interpreter.copy(x, toInputAt: 0)
            try interpreter.invoke()
            #expect(Self.floats(try interpreter.output(at: 0).data) == first[k], "invoke \(k) after the reset")
        }
    }

    /// The `add` signature assigns what the `total` signature reads; each runner is the
    /// interpreter's, so a reset clears both.
    @Test func signatureRunnersShareVariables() throws {
        let path = Self.corpus.appendingPathComponent("models/shared_accumulator/f32/model.tflite").path
        let interpreter = try Interpreter(modelPath: path, options: Self.options())
        let add = try interpreter.signatureRunner(with: "add")
        let total = try interpreter.signatureRunner(with: "total")
        let scale = Self.data([1])
        try total.invoke(with: ["scale": scale])
        #expect(Self.floats(try total.output(named: "scaled").data) == [1, -2, 0.5])
        try add.invoke(with: ["x": Self.data([1, 1, 1])])
        try add.invoke(with: ["x": Self.data([0.5, 0, -1])])
        try total.invoke(with: ["scale": scale])
        #expect(Self.floats(try total.output(named: "scaled").data) == [4, 0, 0.5])
        #expect(Self.floats(try total.output(named: "calls").data) == [2])
        interpreter.resetVariableTensors()
        try total.invoke(with: ["scale": scale])
        #expect(Self.floats(try total.output(named: "calls").data) == [0])
    }
}
