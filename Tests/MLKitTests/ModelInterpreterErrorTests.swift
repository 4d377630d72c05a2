import Foundation
@testable import MLKit
import Testing

/// Each misuse gets the code and message ML Kit reports (or, where ML Kit's text is not
/// known, one that states what was expected and what was found).
@Suite struct ModelInterpreterErrorTests {
    typealias T = ModelInterpreterTests

    // MARK: - Formats

    @Test func formatRejectsUnknownTypeEmptyAndNonPositiveDimensions() {
        let options = ModelInputOutputOptions()
        expectError(
            nsError { try options.setInputFormat(index: 0, type: .unknown, dimensions: [1, 10]) }, .invalidArgument,
            "The input format at index 0 has type unknown; expected float32, int32, uInt8, int64 or string.")
        expectError(
            nsError { try options.setOutputFormat(index: 2, type: .float32, dimensions: []) }, .invalidArgument,
            "The output format at index 2 has no dimensions; expected at least one.")
        expectError(
            nsError { try options.setInputFormat(index: 0, type: .float32, dimensions: [1, 0, 3]) }, .invalidArgument,
            "The input format at index 0 has dimension 0 at axis 1; every dimension must be a positive integer.")
        expectError(
            nsError { try options.setInputFormat(index: 0, type: .float32, dimensions: [1, -4]) }, .invalidArgument,
            "The input format at index 0 has dimension -4 at axis 1; every dimension must be a positive integer.")
        expectError(
            nsError {
                try options.setInputFormat(index: 0, type: .int64, dimensions: [NSNumber(value: Int64.max), 4])
            }, .invalidArgument,
            "The input format at index 0 has dimensions [9223372036854775807, 4] whose element count overflows.")
        expectError(
            nsError {
                try options.setInputFormat(index: 0, type: .int64, dimensions: [NSNumber(value: Int64.max / 4)])
            }, .invalidArgument,
            "The input format at index 0 has dimensions [2305843009213693951] whose byte size overflows.")
        expectError(
            nsError { try options.setInputFormat(index: 0, type: .float32, dimensions: [1, 2.5]) }, .invalidArgument,
            "The input format at index 0 has dimension 2.5 at axis 1; every dimension must be a positive integer.")
    }

    // MARK: - addInput

    @Test func addInputRejectsNonArraysNonNumbersAndRaggedArrays() {
        let inputs = ModelInputs()
        expectError(
            nsError { try inputs.addInput("pixels") }, .invalidArgument,
            "Input 0 has type String; expected Data or an array of numbers.")
        expectError(
            nsError { try inputs.addInput([[1, 2], [3, "4"]] as [[Any]]) }, .invalidArgument,
            "Input 0 has a non-numeric element of type String at [1, 1]; expected NSNumber or a Swift integer or floating-point number."
        )
        expectError(
            nsError { try inputs.addInput([[1, 2], [3]]) }, .invalidArgument,
            "Input 0 is a ragged array: the array at [1] has 1 elements, but the first array at that depth has 2.")
        expectError(
            nsError { try inputs.addInput([[1, 2], 3] as [Any]) }, .invalidArgument,
            "Input 0 is a ragged array: the element at [1] is nested to a different depth than the first element.")
        expectError(
            nsError { try inputs.addInput([1, [2]] as [Any]) }, .invalidArgument,
            "Input 0 is a ragged array: the element at [1] is nested to a different depth than the first element.")
        // Nothing was added: the next input is still input 0.
        #expect(nsError { try inputs.addInput([[1.5, 2], [3, 4]]) } == nil)
        expectError(
            nsError { try inputs.addInput(NSObject()) }, .invalidArgument, containing: ["Input 1 has type NSObject"])
    }

    @Test func arrayValueTheDeclaredTypeCannotHold() async throws {
        let dir = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CastModel.write(input: .uint8, output: .float32, shape: [1, 6], to: dir)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .uInt8, dimensions: [1, 6])
        try options.setOutputFormat(index: 0, type: .float32, dimensions: [1, 6])
        for (values, message) in [
            ([1, 2, 3, 4, 5, 300] as [Any], "Input 0 element 5 is 300, which uInt8 cannot represent."),
            ([1, 2, -1, 4, 5, 6] as [Any], "Input 0 element 2 is -1, which uInt8 cannot represent."),
            ([1, 2.5, 3, 4, 5, 6] as [Any], "Input 0 element 1 is 2.5, which uInt8 cannot represent."),
        ] {
            let inputs = ModelInputs()
            try inputs.addInput([values])
            expectError(await T.runError(interpreter, inputs, options), .invalidArgument, message)
        }
    }

    // MARK: - Run

    @Test func wrongInputByteCount() async throws {
        expectError(
            try await T.runError(T.floatInputs([Float](repeating: 0, count: 16 * 16 * 3)), try T.floatOptions()),
            .invalidArgument,
            "Input 0 should have 12288 bytes, but found 3072 bytes.")
    }

    @Test func wrongArrayElementCount() async throws {
        let inputs = ModelInputs()
        try inputs.addInput([[Float]](repeating: [0, 0, 0], count: 1000))
        expectError(
            try await T.runError(inputs, T.floatOptions()), .invalidArgument,
            "Input 0 should have 3072 elements (dimensions [1, 32, 32, 3]), but found 3000 elements (array shape [1000, 3])."
        )
    }

    @Test func declaredInputTypeDiffersFromTheModel() async throws {
        expectError(
            try await T.runError(T.floatInputs(), try T.floatOptions(inputType: .uInt8)), .invalidArgument,
            "Input 0 has type float32 in the model, but uInt8 expected by data options.")
    }

    @Test func declaredInputShapeDiffersFromTheModel() async throws {
        expectError(
            try await T.runError(
                T.floatInputs([Float](repeating: 0, count: 16 * 16 * 3)), try T.floatOptions(input: [1, 16, 16, 3])),
            .invalidArgument,
            "Input 0 has dimensions [1, 32, 32, 3] in the model, but [1, 16, 16, 3] expected by data options.")
        expectError(
            try await T.runError(T.floatInputs(), try T.floatOptions(input: [32, 32, 3])), .invalidArgument,
            "Input 0 has dimensions [1, 32, 32, 3] in the model, but [32, 32, 3] expected by data options.")
    }

    @Test func declaredOutputSizeDiffersFromTheModel() async throws {
        // The message of firebase/quickstart-ios#564.
        expectError(
            try await T.runError(T.floatInputs(), try T.floatOptions(output: [1, 1001])), .invalidArgument,
            "Total size of model output 0 is 40, but 4004 expected by data options.")
    }

    @Test func declaredOutputTypeDiffersFromTheModel() async throws {
        expectError(
            try await T.runError(T.floatInputs(), try T.floatOptions(outputType: .int32)), .invalidArgument,
            "Output 0 has type float32 in the model, but int32 expected by data options.")
    }

    @Test func modelTypeTheAPICannotPass() async throws {
        let dir = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CastModel.write(input: .int8, output: .float32, shape: [1, 4], to: dir)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .uInt8, dimensions: [1, 4])
        try options.setOutputFormat(index: 0, type: .float32, dimensions: [1, 4])
        let inputs = ModelInputs()
        try inputs.addInput(Data(count: 4))
        expectError(
            await T.runError(interpreter, inputs, options), .invalidArgument,
            "Input 0 has type int8 in the model, which the custom model API cannot pass (it supports float32, int32, uInt8, int64 and string)."
        )
    }

    @Test func modelThisRuntimeCannotRun() async throws {
        // CAST has no string kernel: the error names the operator and types.
        let dir = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CastModel.write(input: .string, output: .float32, shape: [1, 4], to: dir)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        expectError(
            try await T.runError(interpreter, T.floatInputs(), T.floatOptions()), .invalidArgument,
            containing: [
                "The custom model at \(path) cannot run: TensorFlow Lite Error: Failed to create the interpreter. operator 0 (CAST)"
            ])
    }

    @Test func wrongNumberOfInputs() async throws {
        let inputs = try T.floatInputs()
        try inputs.addInput([1, 2, 3])
        expectError(
            try await T.runError(inputs, T.floatOptions()), .invalidArgument,
            "The model has 1 input(s), but 2 were added to the model inputs.")
        expectError(
            try await T.runError(ModelInputs(), T.floatOptions()), .invalidArgument,
            "The model has 1 input(s), but 0 were added to the model inputs.")
    }

    @Test func missingFormats() async throws {
        let noInputs = ModelInputOutputOptions()
        try noInputs.setOutputFormat(index: 0, type: .float32, dimensions: [1, 10])
        expectError(
            try await T.runError(T.floatInputs(), noInputs), .invalidArgument,
            "The options declare no input formats, but the model has 1 input(s).")
        let noOutputs = ModelInputOutputOptions()
        try noOutputs.setInputFormat(index: 0, type: .float32, dimensions: [1, 32, 32, 3])
        expectError(
            try await T.runError(T.floatInputs(), noOutputs), .invalidArgument,
            "The options declare no output formats; declare at least one of the model's 1 output(s).")
    }

    @Test func indexOutOfRange() async throws {
        let inputIndex = try T.floatOptions()
        try inputIndex.setInputFormat(index: 1, type: .float32, dimensions: [4])
        expectError(
            try await T.runError(T.floatInputs(), inputIndex), .outOfRange,
            "Input index 1 is out of range: the model has 1 input(s).")
        let outputIndex = try T.floatOptions()
        try outputIndex.setOutputFormat(index: 3, type: .float32, dimensions: [4])
        expectError(
            try await T.runError(T.floatInputs(), outputIndex), .outOfRange,
            "Output index 3 is out of range: the model has 1 output(s).")
    }

    @Test func outputIndexNotDeclared() async throws {
        let outputs = try await T.floatInterpreter.run(inputs: try T.floatInputs(), options: try T.floatOptions())
        expectError(
            nsError { _ = try outputs.output(index: 1) }, .invalidArgument,
            "There is no model output with index 1; the options declare output formats for indices [0].")
    }

    // MARK: - Models

    @Test func missingLocalModelFile() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(
            localModel: CustomLocalModel(modelPath: "/nonexistent/model.tflite"))
        expectError(
            try await T.runError(interpreter, T.floatInputs(), try T.floatOptions()), .invalidArgument,
            containing: ["Failed to load the custom model at /nonexistent/model.tflite: "])
    }

    @Test func remoteModelNotDownloaded() async throws {
        let cache = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let manager = ModelManager.modelManager(
            source: try #require(URL(string: "http://127.0.0.1:9/")), cacheDirectory: cache)
        let interpreter = ModelInterpreter.modelInterpreter(
            remoteModel: CustomRemoteModel(name: "classifier"), modelManager: manager)
        expectError(
            try await T.runError(interpreter, T.floatInputs(), try T.floatOptions()), .failedPrecondition,
            "Failed to load the custom model as no models currently exist on the device for the given model options: remote model 'classifier' has not been downloaded to \(cache.path); download it with ModelManager first."
        )
        let index = await withCheckedContinuation { c in
            interpreter.inputIndex(opName: "x") { c.resume(returning: ($0, $1)) }
        }
        #expect(index.0 == nil)
        expectError(index.1, .failedPrecondition, containing: ["no models currently exist on the device"])
    }
}
