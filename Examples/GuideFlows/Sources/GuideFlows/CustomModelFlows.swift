import Firebase
import Foundation
import TensorFlowLite

// Guide: "Use a custom TensorFlow Lite model" (Firebase ML, ModelInterpreter), and
// "Detect objects with AutoML Vision Edge" through the TensorFlowLite Interpreter.

/// The classifier's probabilities for the sine image (LiteRT, reference kernels), from
/// Tests/TensorFlowLiteTests.
let referenceProbabilities: [Float] = [
    0.03094780445098877, 0.18071779608726501, 0.11994316428899765, 0.06073303893208504, 0.09577705711126328,
    0.09684178978204727, 0.1117638573050499, 0.09845764189958572, 0.04733901470899582, 0.15747883915901184,
]

extension GuideViewController {
    func runCustomModelFlow() {
        let localModel = CustomLocalModel(modelPath: path("Fixtures/models/mobilenet_float.tflite"))
        let remoteModel = CustomRemoteModel(name: "classifier")
        let interpreter: ModelInterpreter
        if ModelManager.modelManager().isModelDownloaded(remoteModel) {
            interpreter = ModelInterpreter.modelInterpreter(remoteModel: remoteModel)
        } else {
            interpreter = ModelInterpreter.modelInterpreter(localModel: localModel)
        }
        check(ModelManager.modelManager().isModelDownloaded(remoteModel), "the remote model is downloaded")

        let ioOptions = ModelInputOutputOptions()
        do {
            try ioOptions.setInputFormat(index: 0, type: .float32, dimensions: [1, 32, 32, 3])
            try ioOptions.setOutputFormat(index: 0, type: .float32, dimensions: [1, 10])
        } catch let error as NSError {
            check(false, "Failed to set input or output format with error: \(error.localizedDescription)")
        }

        var inputData = Data()
        for i in 0 ..< 32 * 32 * 3 {
            var value = Float32(sin(0.1 * Double(i)))
            inputData.append(Data(bytes: &value, count: MemoryLayout<Float32>.size))
        }
        let inputs = ModelInputs()
        do {
            try inputs.addInput(inputData)
        } catch let error {
            check(false, "Failed to add input: \(error)")
        }

        interpreter.run(inputs: inputs, options: ioOptions) { outputs, error in
            // Called from the main thread, so called back on it, as Firebase does.
            self.check(Thread.isMainThread, "the completion runs on the main thread")
            guard error == nil, let outputs = outputs else {
                self.check(false, "run failed: \(String(describing: error))")
                return self.next()
            }
            // Modern Swift flattens `try?`: the guide's `output??[0]` reads `output?[0]`.
            let output = try? outputs.output(index: 0) as? [[NSNumber]]
            let probabilities = output?[0] ?? []
            self.check(probabilities.count == 10, "10 probabilities, got \(probabilities.count)")
            for (got, want) in zip(probabilities, referenceProbabilities) {
                self.check(abs(got.floatValue - want) <= 1e-4, "probability \(got) vs \(want)")
            }
            // The same model bundled with the app gives the same answer.
            ModelInterpreter.modelInterpreter(localModel: localModel).run(inputs: inputs, options: ioOptions) {
                local, error in
                let localProbabilities = (try? local?.output(index: 0) as? [[NSNumber]])?.first ?? []
                self.check(error == nil && localProbabilities == probabilities, "local and remote models agree")
                self.next()
            }
        }
    }

    func runIndexLookUps() {
        let interpreter = ModelInterpreter.modelInterpreter(
            localModel: CustomLocalModel(modelPath: path("Fixtures/models/mobilenet_float.tflite")))
        interpreter.inputIndex(opName: "serving_default_image:0") { index, error in
            self.check(
                index == 0 && error == nil,
                "input index 0, got \(String(describing: index)) \(String(describing: error))")
            // The model has been read now: the answer comes before the call returns.
            var outputIndex: NSNumber?
            interpreter.outputIndex(opName: "PartitionedCall:0") { index, _ in
                outputIndex = index
            }
            self.check(outputIndex == 0, "output index known at once, got \(String(describing: outputIndex))")
            self.next()
        }
    }

    func runInterpreterDetectionFlow() {
        let remoteModel = CustomRemoteModel(name: "shapes")
        var modelPath: String?
        ModelManager.modelManager().getLatestModelFilePath(remoteModel) { remoteModelPath, error in
            guard error == nil, let remoteModelPath = remoteModelPath else { return }
            modelPath = remoteModelPath
        }
        // The guide reads the path right after the call: it is known by now.
        check(modelPath != nil, "the downloaded model's path is known when the call returns")
        let path = modelPath ?? self.path("Fixtures/bundles/shapes/model.tflite")
        do {
            let interpreter = try Interpreter(modelPath: path)
            try interpreter.allocateTensors()
            let image = try VisionImage(contentsOfFile: self.path("Fixtures/images/shapes/scene_5.png"))
            let rgbData = Data(image.rgbPixels())
            try interpreter.copy(rgbData, toInputAt: 0)
            try interpreter.invoke()
            func floats(_ tensor: Tensor) -> [Float32] {
                tensor.data.withUnsafeBytes { Array($0.bindMemory(to: Float32.self)) }
            }
            let boxes = floats(try interpreter.output(at: 0))
            let classes = floats(try interpreter.output(at: 1))
            let scores = floats(try interpreter.output(at: 2))
            let labelsPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("dict.txt")
                .path
            let labels = try String(contentsOfFile: labelsPath, encoding: .utf8).split(separator: "\n").map(String.init)
            var found: [String] = []
            for i in 0 ..< scores.count where scores[i] > 0.5 {
                let box = (top: boxes[4 * i], left: boxes[4 * i + 1], bottom: boxes[4 * i + 2], right: boxes[4 * i + 3])
                check(box.top < box.bottom && box.left < box.right, "box \(box)")
                found.append(labels[Int(classes[i])])
            }
            check(!found.isEmpty, "objects found")
            interpreterDetections = found.sorted()
        } catch {
            check(false, "interpreter flow: \(error)")
        }
        next()
    }
}
