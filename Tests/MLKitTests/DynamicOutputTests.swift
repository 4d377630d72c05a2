import Foundation
import MLKit
import Testing

/// A custom model whose output shape depends on the input values: WHERE over an int32
/// [3, 5] input gives int64 coordinates [number of nonzero elements, 2].
@Suite struct DynamicOutputTests {
    static let path = MLKitFixtures.root.appendingPathComponent(
        "Fixtures/conformance/WHERE/i32_nonzero/model.tflite"
    ).path

    static func run(_ values: [Int32], rows: Int) async throws -> Any {
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .int32, dimensions: [3, 5])
        try options.setOutputFormat(index: 0, type: .int64, dimensions: [NSNumber(value: max(rows, 1)), 2])
        let inputs = ModelInputs()
        try inputs.addInput(values.withUnsafeBufferPointer { Data(buffer: $0) })
        return try await interpreter.run(inputs: inputs, options: options).output(index: 0)
    }

    @Test func outputsTakeTheRowCountOfTheRun() async throws {
        var values = [Int32](repeating: 0, count: 15)
        values[1] = 4
        values[7] = -2
        values[14] = 9
        // Declared with one row; the run gives three.
        let output = try #require(try await Self.run(values, rows: 1) as? [[NSNumber]])
        #expect(output.map { $0.map(\.int64Value) } == [[0, 1], [1, 2], [2, 4]])
    }

    @Test func noNonzeroElementsGiveNoRows() async throws {
        let output = try #require(try await Self.run([Int32](repeating: 0, count: 15), rows: 1) as? [[NSNumber]])
        #expect(output.isEmpty)
    }

    @Test func theFixedAxisMustStillMatch() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: Self.path))
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .int32, dimensions: [3, 5])
        try options.setOutputFormat(index: 0, type: .int64, dimensions: [2, 3])
        let inputs = ModelInputs()
        try inputs.addInput([Int32](repeating: 1, count: 15).withUnsafeBufferPointer { Data(buffer: $0) })
        await #expect(throws: (any Error).self) { try await interpreter.run(inputs: inputs, options: options) }
    }
}
