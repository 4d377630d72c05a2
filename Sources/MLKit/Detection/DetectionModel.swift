import Foundation
import TensorFlowLite

/// An object-detection bundle loaded for running: model, labels, metadata.
final class DetectionModel: @unchecked Sendable {
    let runner: VisionModelRunner
    let labels: [String]
    let metadata: DetectionMetadata
    let preprocessor: ImagePreprocessor
    /// Output index of boxes, classes, scores and count.
    let outputIndex: (boxes: Int, classes: Int, scores: Int, count: Int)
    /// Where the bundle's metadata did not match the model and the model's structure was
    /// used instead (``DetectionTensorBinding``).
    let warnings: [String]

    /// Files of a bundle at `path` (see ``ObjectDetectorOptions/init(localModel:)``).
    static func files(_ path: String) throws(ModelBundleError) -> (model: String, labels: String, metadata: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file or directory")
        }
        if !isDirectory.boolValue {
            let dir = BundleFiles.directory(of: path)
            let model = path.hasSuffix(".json") ? BundleFiles.resolve("model.tflite", in: dir) : path
            return (
                model, BundleFiles.resolve("dict.txt", in: dir), BundleFiles.resolve("tflite_metadata.json", in: dir)
            )
        }
        var model = BundleFiles.resolve("model.tflite", in: path)
        if !FileManager.default.fileExists(atPath: model) {
            let all = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
                $0.hasSuffix(".tflite")
            }
            guard all.count == 1, let only = all.first else {
                throw .unreadable(
                    path: path,
                    reason: all.isEmpty ? "no .tflite model in the bundle" : "several .tflite files and no model.tflite"
                )
            }
            model = BundleFiles.resolve(only, in: path)
        }
        return (model, BundleFiles.resolve("dict.txt", in: path), BundleFiles.resolve("tflite_metadata.json", in: path))
    }

    /// `normalization`: the caller's override (see ``InputNormalization/resolved(override:model:convention:)``).
    init(bundlePath: String, normalization: InputNormalization?) throws {
        let files = try Self.files(bundlePath)
        metadata = try DetectionMetadata(contentsOfFile: files.metadata)
        labels = try LabelDictionary.read(contentsOfFile: files.labels)
        runner = try VisionModelRunner(modelPath: files.model)
        preprocessor = ImagePreprocessor(
            fit: .stretch,
            normalization: .resolved(
                override: normalization, model: runner.interpreter.model, convention: .symmetricUnitRange))
        let input = try runner.interpreter.input(at: 0)
        if input.shape.dimensions != metadata.inputShape {
            throw VisionError.invalidModel(
                "tflite_metadata.json says inputShape \(metadata.inputShape) but the model's input is \(input.shape.dimensions)"
            )
        }
        let binding = try DetectionTensorBinding(metadata: metadata, interpreter: runner.interpreter)
        outputIndex = (binding.boxes, binding.classes, binding.scores, binding.count)
        warnings = binding.warnings
    }

    /// Runs the model and maps its boxes to `image` pixels.
    ///
    /// Boxes are `[ymin, xmin, ymax, xmax]` normalized to the model input; with the stretch
    /// fit, `x = xmin * W` and `y = ymin * H` in the upright image, clamped to it.
    func detect(_ image: RGBImage, threshold: Float, maxCount: Int) throws -> [DetectedObject] {
        let spec = runner.input
        let outputs = try runner.run(preprocessor.tensorData(image, spec))
        let boxes = try VisionModelRunner.realValues(outputs[outputIndex.boxes])
        let classes = try VisionModelRunner.realValues(outputs[outputIndex.classes])
        let scores = try VisionModelRunner.realValues(outputs[outputIndex.scores])
        let countValues = try VisionModelRunner.realValues(outputs[outputIndex.count])
        let slots = scores.count
        guard boxes.count == 4 * slots, classes.count == slots, let countValue = countValues.first else {
            throw VisionError.unexpectedOutput(
                "detection outputs have \(boxes.count) box values, \(classes.count) classes, \(scores.count) scores")
        }
        let count = countValue.isFinite ? min(max(Int(countValue), 0), slots) : 0
        let layout = preprocessor.layout(for: image, spec)
        var found: [(score: Float, object: DetectedObject)] = []
        for i in 0 ..< count where scores[i] >= threshold {
            let frame = Self.frame(
                boxes[4 * i ..< 4 * i + 4], layout: layout, imageWidth: image.width, imageHeight: image.height)
            let c = classes[i]
            // Class values are integers stored as floats; anything else maps to -1 / no text.
            let index = c.isFinite ? Int(min(max(c, -1), 1e9)) : -1
            let text = (0 ..< labels.count).contains(index) ? labels[index] : ""
            let label = ObjectLabel(text: text, index: index, confidence: scores[i])
            found.append((scores[i], DetectedObject(frame: frame, labels: [label])))
        }
        found.sort { $0.score > $1.score }
        return found.prefix(max(maxCount, 0)).map(\.object)
    }

    /// A normalized `[ymin, xmin, ymax, xmax]` box on the model input, in image pixels.
    static func frame(_ box: ArraySlice<Float>, layout: ResampleLayout, imageWidth: Int, imageHeight: Int) -> CGRect {
        let v = Array(box)
        func px(_ n: Float, _ canvas: Int, _ offset: Int, _ limit: Int) -> Double {
            let p = Double(n.isFinite ? n : 0) * Double(canvas) - Double(offset)
            return min(max(p, 0), Double(limit))
        }
        let top = px(min(v[0], v[2]), layout.canvasHeight, layout.imageY, imageHeight)
        let bottom = px(max(v[0], v[2]), layout.canvasHeight, layout.imageY, imageHeight)
        let left = px(min(v[1], v[3]), layout.canvasWidth, layout.imageX, imageWidth)
        let right = px(max(v[1], v[3]), layout.canvasWidth, layout.imageX, imageWidth)
        return CGRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
