import Foundation
import MLKit
import Testing

/// ML Kit's custom-model API with a string model: TFLite's Smart Reply model takes one
/// string (declared `.string`, an addition) and gives reply texts and their scores.
@Suite struct StringModelTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/smartreply/smartreply.tflite").path

    static func options() throws -> ModelInputOutputOptions {
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .string, dimensions: [1])
        try options.setOutputFormat(index: 0, type: .string, dimensions: [30])
        try options.setOutputFormat(index: 1, type: .float32, dimensions: [30])
        return options
    }

    @Test func stringsGoInAndComeOut() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: Self.path))
        let inputs = ModelInputs()
        try inputs.addInput(["how are you"])
        let outputs = try await interpreter.run(inputs: inputs, options: try Self.options())
        let texts = try #require(try outputs.output(index: 0) as? [String])
        let scores = try #require(try outputs.output(index: 1) as? [NSNumber])
        #expect(texts.count == 30 && scores.count == 30)
        #expect(texts.contains("I am well, thank you"))
        #expect(scores[0].floatValue > 0)
    }

    @Test func numbersForAStringInputAreRefused() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: Self.path))
        let inputs = ModelInputs()
        try inputs.addInput([1.5])
        let (_, error) = await interpreter.runWithCompletion(inputs: inputs, options: try Self.options())
        #expect("\(String(describing: error))".contains("has type string"))
    }
}
