import Foundation
import MLKit
import Testing
import TensorFlowLite

/// `ModelInterpreter` on the real fixture models: inputs as `Data` and as arrays, raw
/// quantized outputs, operator indices, concurrency, and every run-time error.
@Suite struct ModelInterpreterTests {
    static let floatPath = MLKitFixtures.model("mobilenet_float")

    static func floatOptions(
        input: [NSNumber] = [1, 32, 32, 3], output: [NSNumber] = [1, 10],
        inputType: ModelElementType = .float32, outputType: ModelElementType = .float32
    ) throws -> ModelInputOutputOptions {
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: inputType, dimensions: input)
        try options.setOutputFormat(index: 0, type: outputType, dimensions: output)
        return options
    }

    static func floatInputs(_ image: [Float] = MLKitFixtures.sineImage()) throws -> ModelInputs {
        let inputs = ModelInputs()
        try inputs.addInput(image.withUnsafeBufferPointer { Data(buffer: $0) })
        return inputs
    }

    static let floatInterpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: floatPath))

    /// The error a run reports, through the completion handler.
    static func runError(_ inputs: ModelInputs, _ options: ModelInputOutputOptions) async -> (any Error)? {
        await runError(floatInterpreter, inputs, options)
    }

    static func runError(_ interpreter: ModelInterpreter, _ inputs: ModelInputs, _ options: ModelInputOutputOptions)
        async -> (any Error)?
    {
        let (outputs, error) = await interpreter.runWithCompletion(inputs: inputs, options: options)
        #expect((outputs == nil) != (error == nil))
        return error
    }

    // MARK: - Inputs and outputs

    @Test func nestedArrayInputsEqualDataInputs() async throws {
        let image = MLKitFixtures.sineImage()
        let expected = MLKitFixtures.floats(
            try MLKitFixtures.interpreterOutput(
                path: Self.floatPath, input: image.withUnsafeBufferPointer { Data(buffer: $0) }))
        // [1][32][32][3] of Float, of NSNumber, and flat Doubles.
        let nested: [[[[Float]]]] = [
            (0 ..< 32).map { y in (0 ..< 32).map { x in (0 ..< 3).map { c in image[(y * 32 + x) * 3 + c] } } }
        ]
        let numbers: [[[[NSNumber]]]] = nested.map { $0.map { $0.map { $0.map { NSNumber(value: $0) } } } }
        let doubles: [Double] = image.map(Double.init)
        for input in [nested as Any, numbers as Any, doubles as Any] {
            let inputs = ModelInputs()
            try inputs.addInput(input)
            let outputs = try await Self.floatInterpreter.run(inputs: inputs, options: try Self.floatOptions())
            let scores = try #require(try outputs.output(index: 0) as? [[NSNumber]])
            #expect(scores[0].map(\.floatValue) == expected)
        }
    }

    @Test func uint8OutputsAreRawQuantizedValues() async throws {
        let dir = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // float32 → CAST → uint8 quantized with scale 1/256: ML Kit returns the stored bytes.
        let path = try CastModel.write(input: .float32, output: .uint8, shape: [1, 6], outputScale: 1.0 / 256, to: dir)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .float32, dimensions: [1, 6])
        try options.setOutputFormat(index: 0, type: .uInt8, dimensions: [1, 6])
        let inputs = ModelInputs()
        try inputs.addInput([[0, 7, 200, 255, 13, 42]])
        let outputs = try await interpreter.run(inputs: inputs, options: options)
        let scores = try #require(try outputs.output(index: 0) as? [[NSNumber]])
        #expect(scores[0].map(\.intValue) == [0, 7, 200, 255, 13, 42])
    }

    /// Every element type of the API in and out, from Data and from arrays of
    /// NSNumber and Swift numbers.
    @Test(arguments: [
        (CastModel.TensorType.int32, ModelElementType.int32, CastModel.TensorType.int64, ModelElementType.int64),
        (.int64, .int64, .int32, .int32),
        (.uint8, .uInt8, .float32, .float32),
        (.float32, .float32, .int32, .int32),
    ])
    func elementTypesRoundTrip(
        inType: CastModel.TensorType, inDeclared: ModelElementType, outType: CastModel.TensorType,
        outDeclared: ModelElementType
    ) async throws {
        let dir = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CastModel.write(input: inType, output: outType, shape: [2, 3], to: dir)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: inDeclared, dimensions: [2, 3])
        try options.setOutputFormat(index: 0, type: outDeclared, dimensions: [2, 3])
        let values: [[Int]] = [[0, 1, 2], [3, 100, 255]]
        let asNumbers: [[NSNumber]] = values.map { $0.map { NSNumber(value: $0) } }
        for input in [values as Any, asNumbers as Any] {
            let inputs = ModelInputs()
            try inputs.addInput(input)
            let outputs = try await interpreter.run(inputs: inputs, options: options)
            let result = try #require(try outputs.output(index: 0) as? [[NSNumber]])
            #expect(result.map { $0.map(\.doubleValue) } == values.map { $0.map(Double.init) })
        }
    }

    /// A dimension the model marks dynamic (-1 in its shape signature) takes the declared size.
    @Test func dynamicDimensionTakesTheDeclaredSize() async throws {
        let dir = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CastModel.write(input: .float32, output: .int32, shape: [1, 2], signature: [-1, 2], to: dir)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        for rows in [3, 1, 5] {
            let options = ModelInputOutputOptions()
            try options.setInputFormat(index: 0, type: .float32, dimensions: [NSNumber(value: rows), 2])
            try options.setOutputFormat(index: 0, type: .int32, dimensions: [NSNumber(value: rows), 2])
            let inputs = ModelInputs()
            try inputs.addInput((0 ..< rows).map { [Float($0), Float($0) + 0.5] })
            let outputs = try await interpreter.run(inputs: inputs, options: options)
            let result = try #require(try outputs.output(index: 0) as? [[NSNumber]])
            #expect(result.map { $0.map(\.intValue) } == (0 ..< rows).map { [$0, $0] })
        }
        let fixed = ModelInputOutputOptions()
        try fixed.setInputFormat(index: 0, type: .float32, dimensions: [3, 4])
        try fixed.setOutputFormat(index: 0, type: .int32, dimensions: [3, 4])
        let inputs = ModelInputs()
        try inputs.addInput(Data(count: 48))
        expectError(
            await Self.runError(interpreter, inputs, fixed), .invalidArgument,
            "Input 0 has dimensions [1, 2] in the model, but [3, 4] expected by data options.")
    }

    @Test func outputsAreShapedByTheDeclaredDimensions() async throws {
        let outputs = try await Self.floatInterpreter.run(
            inputs: try Self.floatInputs(), options: try Self.floatOptions(output: [2, 5]))
        let output = try outputs.output(index: 0)
        #expect(output as? [[NSNumber]] != nil)
        let scores = try #require(output as? [[NSNumber]])
        #expect(scores.map(\.count) == [5, 5])
        let flat = try await Self.floatInterpreter.run(
            inputs: try Self.floatInputs(), options: try Self.floatOptions(output: [10]))
        let vector = try #require(try flat.output(index: 0) as? [NSNumber])
        #expect(vector.map(\.floatValue) == scores.flatMap { $0.map(\.floatValue) })
        let deep = try await Self.floatInterpreter.run(
            inputs: try Self.floatInputs(), options: try Self.floatOptions(output: [1, 1, 2, 5]))
        #expect(try deep.output(index: 0) as? [[[[NSNumber]]]] != nil)
    }

    @Test func operatorIndicesByTensorName() async throws {
        let interpreter = Self.floatInterpreter
        let input = await withCheckedContinuation { c in
            interpreter.inputIndex(opName: "serving_default_image:0") { c.resume(returning: ($0, $1)) }
        }
        #expect(input.0 == 0)
        #expect(input.1 == nil)
        let output = await withCheckedContinuation { c in
            interpreter.outputIndex(opName: "PartitionedCall:0") { c.resume(returning: ($0, $1)) }
        }
        #expect(output.0 == 0)
        let missing = await withCheckedContinuation { c in
            interpreter.inputIndex(opName: "image") { c.resume(returning: ($0, $1)) }
        }
        #expect(missing.0 == nil)
        expectError(
            missing.1, .invalidArgument,
            "The model has no input named 'image'; its inputs are ['serving_default_image:0'].")
    }

    @Test func statsCollectionAndCompletionQueueAreSettable() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: Self.floatPath))
        #expect(interpreter.isStatsCollectionEnabled)
        interpreter.isStatsCollectionEnabled = false
        #expect(!interpreter.isStatsCollectionEnabled)
        let queue = DispatchQueue(label: "test.completion")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        interpreter.completionQueue = queue
        let inputs = try Self.floatInputs()
        let options = try Self.floatOptions()
        let onQueue = await withCheckedContinuation { c in
            interpreter.run(inputs: inputs, options: options) { outputs, _ in
                c.resume(returning: outputs != nil && DispatchQueue.getSpecific(key: key) == 42)
            }
        }
        #expect(onQueue)
    }

    // MARK: - Concurrency

    @Test func concurrentRunsFromManyThreadsEachGetTheirOwnOutputs() throws {
        let count = 24
        let images = (0 ..< count).map { MLKitFixtures.sineImage(scale: 0.25 + Float($0) * 0.1) }
        let expected = try images.map { image in
            MLKitFixtures.floats(
                try MLKitFixtures.interpreterOutput(
                    path: Self.floatPath, input: image.withUnsafeBufferPointer { Data(buffer: $0) }))
        }
        #expect(Set(expected.map { $0.map(\.bitPattern) }).count == count, "inputs give distinct outputs")
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: Self.floatPath))
        let options = try Self.floatOptions()
        let results = Results(count: count)
        let group = DispatchGroup()
        for threadIndex in 0 ..< 8 {
            group.enter()
            Thread.detachNewThread {
                for i in stride(from: threadIndex, to: count, by: 8) {
                    let done = DispatchSemaphore(value: 0)
                    do {
                        interpreter.run(inputs: try Self.floatInputs(images[i]), options: options) { outputs, error in
                            let scores = (try? outputs?.output(index: 0)) as? [[NSNumber]]
                            results.set(i, scores?.first?.map(\.floatValue), error)
                            done.signal()
                        }
                    } catch {
                        results.set(i, nil, error)
                        done.signal()
                    }
                    _ = done.wait(timeout: .now() + 60)
                }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        for i in 0 ..< count {
            let (scores, error) = results.get(i)
            #expect(error == nil)
            #expect(scores == expected[i], "run \(i)")
        }
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [([Float]?, (any Error)?)]
        init(count: Int) { values = Array(repeating: (nil, nil), count: count) }
        func set(_ i: Int, _ v: [Float]?, _ e: (any Error)?) { lock.lock(); values[i] = (v, e); lock.unlock() }
        func get(_ i: Int) -> ([Float]?, (any Error)?) { lock.lock(); defer { lock.unlock() }; return values[i] }
    }
}
