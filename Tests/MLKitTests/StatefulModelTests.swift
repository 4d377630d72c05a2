import Foundation
import MLKit
import Testing

/// A custom model that keeps state between runs (a streaming average and a step counter in
/// variables): runs on one `ModelInterpreter` continue from each other, even when they are
/// started concurrently, as with Firebase's single interpreter.
@Suite struct StatefulModelTests {
    static let folder = MLKitFixtures.root.appendingPathComponent(
        "Fixtures/conformance/ASSIGN_VARIABLE/f32_streaming_average")

    static func array(_ name: String) throws -> [Float] {
        // The corpus's .npy files: a 128-byte header (numpy 1.0 format) then little-endian floats.
        let bytes = try Data(contentsOf: folder.appendingPathComponent(name)).dropFirst(128)
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func run(_ interpreter: ModelInterpreter, _ x: [Float]) async throws -> [Float] {
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .float32, dimensions: [4])
        try options.setOutputFormat(index: 0, type: .float32, dimensions: [4])
        let inputs = ModelInputs()
        try inputs.addInput(x.withUnsafeBufferPointer { Data(buffer: $0) })
        let output = try await interpreter.run(inputs: inputs, options: options).output(index: 0)
        return try #require(output as? [NSNumber]).map(\.floatValue)
    }

    @Test func runsContinueFromTheLastRunsState() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(
            localModel: CustomLocalModel(modelPath: Self.folder.appendingPathComponent("model.tflite").path))
        for k in 0 ..< 6 {
            let got = try await Self.run(interpreter, try Self.array("step\(k)/input_0.npy"))
            let want = try Self.array("step\(k)/expected_0.npy")
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) }, "run \(k): \(got) vs \(want)")
        }
    }

    /// Eight runs started at once are serialized on one interpreter: the step counter the
    /// model keeps (it scales the output) reaches eight, whichever order they ran in.
    @Test func concurrentRunsShareOneState() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(
            localModel: CustomLocalModel(modelPath: Self.folder.appendingPathComponent("model.tflite").path))
        let ones: [Float] = [1, 1, 1, 1]
        let results = try await withThrowingTaskGroup(of: [Float].self) { group in
            for _ in 0 ..< 8 { group.addTask { try await Self.run(interpreter, ones) } }
            return try await group.reduce(into: [[Float]]()) { $0.append($1) }
        }
        // With x = 1 always, the average after n runs is 1 - 0.75^n and the output is
        // n · (1 - 0.75^n): the largest is the eighth run's.
        let last = results.map { $0[0] }.max() ?? 0
        #expect(abs(last - 8 * (1 - pow(0.75, 8))) < 1e-4, "\(results)")
    }
}
