import Foundation
import MLKit
import Testing
import TensorFlowLite

/// The Swift example of ML Kit's custom-model guide ("Use a custom TensorFlow Lite model
/// on iOS"), as written there apart from the model's sizes (a 32×32 float classifier with
/// 10 classes instead of 224×224 and 1000), run against this package.
@Suite struct CustomModelGuideTests {
    static let labels = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]

    /// A 32×32 RGB test image: what the guide draws from a `CGImage` into a bitmap context.
    static let pixels: [(UInt8, UInt8, UInt8)] = (0 ..< 32 * 32).map { i in
        (UInt8(truncatingIfNeeded: i * 7), UInt8(truncatingIfNeeded: 255 - i), UInt8(truncatingIfNeeded: i * i / 3))
    }

    @Test func guideExampleClassifiesAnImage() async throws {
        let directory = try MLKitFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let labelPath = directory.appendingPathComponent("labels.txt").path
        try Self.labels.joined(separator: "\n").write(toFile: labelPath, atomically: true, encoding: .utf8)

        // -- The guide's code --
        let localModel = CustomLocalModel(modelPath: MLKitFixtures.model("mobilenet_float"))
        let interpreter = ModelInterpreter.modelInterpreter(localModel: localModel)

        let ioOptions = ModelInputOutputOptions()
        do {
            try ioOptions.setInputFormat(index: 0, type: .float32, dimensions: [1, 32, 32, 3])
            try ioOptions.setOutputFormat(index: 0, type: .float32, dimensions: [1, 10])
        } catch let error as NSError {
            Issue.record("Failed to set input or output format with error: \(error.localizedDescription)")
        }

        var inputData = Data()
        for row in 0 ..< 32 {
            for col in 0 ..< 32 {
                let pixel = Self.pixels[row * 32 + col]
                // Normalize channel values to [0.0, 1.0].
                var red = Float32(pixel.0) / 255.0
                var green = Float32(pixel.1) / 255.0
                var blue = Float32(pixel.2) / 255.0
                let elementSize = MemoryLayout.size(ofValue: red)
                inputData.append(Data(bytes: &red, count: elementSize))
                inputData.append(Data(bytes: &green, count: elementSize))
                inputData.append(Data(bytes: &blue, count: elementSize))
            }
        }

        let inputs = ModelInputs()
        do {
            try inputs.addInput(inputData)
        } catch let error {
            Issue.record("Failed to add input: \(error)")
        }

        let printed = await withCheckedContinuation {
            (continuation: CheckedContinuation<[(String, NSNumber)], Never>) in
            interpreter.run(inputs: inputs, options: ioOptions) { outputs, error in
                guard error == nil, let outputs = outputs else {
                    Issue.record("run failed: \(String(describing: error))")
                    continuation.resume(returning: [])
                    return
                }
                // Process outputs
                let output = try? outputs.output(index: 0) as? [[NSNumber]]
                let probabilities = output?[0]

                guard let fileContents = try? String(contentsOfFile: labelPath, encoding: .utf8) else {
                    continuation.resume(returning: [])
                    return
                }
                let labels = fileContents.components(separatedBy: "\n")
                var lines: [(String, NSNumber)] = []
                for i in 0 ..< labels.count {
                    if let probability = probabilities?[i] {
                        print("\(labels[i]): \(probability)")
                        lines.append((labels[i], probability))
                    }
                }
                continuation.resume(returning: lines)
            }
        }
        // -- End of the guide's code --

        #expect(printed.map(\.0) == Self.labels)
        let expected = MLKitFixtures.floats(
            try MLKitFixtures.interpreterOutput(path: localModel.path, input: inputData))
        #expect(printed.map(\.1.floatValue) == expected)
        let total = printed.reduce(Float(0)) { $0 + $1.1.floatValue }
        #expect(abs(total - 1) < 1e-5, "softmax probabilities sum to \(total)")
    }

    /// The LiteRT reference (BUILTIN_REF kernels) for `MLKitFixtures.sineImage()`, as in
    /// the TensorFlowLite tests.
    static let reference: [Float] = [
        0.03094780445098877, 0.18071779608726501, 0.11994316428899765, 0.06073303893208504, 0.09577705711126328,
        0.09684178978204727, 0.1117638573050499, 0.09845764189958572, 0.04733901470899582, 0.15747883915901184,
    ]

    @Test func asyncRunMatchesInterpreterAndLiteRT() async throws {
        let path = MLKitFixtures.model("mobilenet_float")
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
        let options = ModelInputOutputOptions()
        try options.setInputFormat(index: 0, type: .float32, dimensions: [1, 32, 32, 3])
        try options.setOutputFormat(index: 0, type: .float32, dimensions: [1, 10])
        let image = MLKitFixtures.sineImage()
        let data = image.withUnsafeBufferPointer { Data(buffer: $0) }
        let inputs = ModelInputs()
        try inputs.addInput(data)
        let outputs = try await interpreter.run(inputs: inputs, options: options)
        let scores = try #require(try outputs.output(index: 0) as? [[NSNumber]])
        #expect(scores.count == 1)
        let values = scores[0].map(\.floatValue)
        #expect(values == MLKitFixtures.floats(try MLKitFixtures.interpreterOutput(path: path, input: data)))
        for (got, want) in zip(values, Self.reference) {
            #expect(abs(got - want) <= 1e-4, "got \(got), want \(want)")
        }
    }
}
