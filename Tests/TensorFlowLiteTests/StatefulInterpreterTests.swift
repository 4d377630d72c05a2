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

    /// Greedy generation through the decoder's two signatures, its key/value cache in
    /// variables: prefill the prompt, then feed each step the token the last one chose. The
    /// 16 tokens equal LiteRT's (the corpus case records, as each decode step's input, the
    /// token LiteRT's reference kernels chose at the step before).
    @Test(arguments: ["f32", "hyb"])
    func decoderGeneratesLiteRTsTokens(_ dtype: String) throws {
        let folder = Self.corpus.appendingPathComponent("models/decoder_kv_cache/\(dtype)")
        func npyInt32(_ name: String) throws -> [Int32] {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name)).dropFirst(128)
            return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        }
        let interpreter = try Interpreter(
            modelPath: folder.appendingPathComponent("model.tflite").path, options: Self.options())
        let prefill = try interpreter.signatureRunner(with: "prefill")
        let decode = try interpreter.signatureRunner(with: "decode")
        func argmax(_ runner: SignatureRunner) throws -> Int32 {
            let logits = Self.floats(try runner.output(named: "logits").data)
            return Int32(logits.indices.max { logits[$0] < logits[$1] } ?? 0)
        }
        let prompt = try npyInt32("step0/input_0.npy")
        try prefill.invoke(with: ["tokens": prompt.withUnsafeBufferPointer { Data(buffer: $0) }])
        var token = try argmax(prefill)
        var generated: [Int32] = []
        var expected: [Int32] = []
        for step in 1 ... 16 {
            expected += try npyInt32("step\(step)/input_0.npy")
            generated.append(token)
            let position = Int32(prompt.count + step - 1)
            try decode.invoke(with: [
                "token": withUnsafeBytes(of: token) { Data($0) },
                "position": withUnsafeBytes(of: position) { Data($0) },
            ])
            token = try argmax(decode)
        }
        #expect(generated == expected)
        #expect(Set(generated).count > 3, "\(generated)")
    }
}
