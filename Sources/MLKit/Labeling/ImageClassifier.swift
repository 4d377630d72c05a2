import Foundation
import TensorFlowLite

/// A label and its confidence, before conversion to an API's label type.
struct ClassScore: Equatable, Sendable {
    var index: Int
    var text: String
    var confidence: Float
}

/// The shared core of the image labelers: an image-classification model and its labels.
///
/// The model has one image input and one output of `N` class scores (`[1, N]` or `[N]`),
/// float32 or quantized uint8/int8 (dequantized, see ``VisionModelRunner/realValues(_:)``).
final class ImageClassifier: @unchecked Sendable {
    let runner: VisionModelRunner
    /// Class labels; `nil` when the model came without a labels file (texts are then empty).
    let labels: [String]?
    let preprocessor: ImagePreprocessor

    init(modelPath: String, labelsPath: String?, fit: ImageFit, normalization: InputNormalization?) throws {
        runner = try VisionModelRunner(modelPath: modelPath)
        labels = try labelsPath.map { path throws(ModelBundleError) in try LabelDictionary.read(contentsOfFile: path) }
        // The caller's choice, else the model's metadata, else [0, 1]: labeler bundles have no convention.
        preprocessor = ImagePreprocessor(
            fit: fit,
            normalization: .resolved(override: normalization, model: runner.interpreter.model, convention: nil))
        let out = try runner.interpreter.output(at: 0)
        let classes = out.shape.dimensions.last ?? 0
        guard out.shape.dimensions.reduce(1, *) == classes, classes > 0 else {
            throw VisionError.unexpectedOutput(
                "output '\(out.name)' has shape \(out.shape.dimensions); expected [1, classes]")
        }
        if let labels, labels.count != classes {
            throw ModelBundleError.labelCountMismatch(labels: labels.count, classes: classes)
        }
    }

    /// Every class's confidence for `image` (upright), in class order.
    func scores(_ image: RGBImage) throws -> [ClassScore] {
        let outputs = try runner.run(preprocessor.tensorData(image, runner.input))
        guard let first = outputs.first else { throw VisionError.unexpectedOutput("the model has no output") }
        let values = try VisionModelRunner.realValues(first)
        return values.enumerated().map { i, v in ClassScore(index: i, text: labels?[i] ?? "", confidence: v) }
    }

    /// Scores at or above `threshold`, by decreasing confidence (ties: lower index first),
    /// at most `maxCount` of them (`nil`: no cap).
    static func select(_ scores: [ClassScore], threshold: Float, maxCount: Int?) -> [ClassScore] {
        let kept = scores.filter { $0.confidence >= threshold }
            .sorted { $0.confidence != $1.confidence ? $0.confidence > $1.confidence : $0.index < $1.index }
        guard let maxCount else { return kept }
        return Array(kept.prefix(max(maxCount, 0)))
    }
}

/// A detector's model, loaded on first use so that creating a detector never fails
/// (errors reach the completion, as in ML Kit). Only a successful load is cached: a
/// remote model downloaded later, or a fixed file, is picked up on the next call.
final class LazyModel<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    private let make: @Sendable () throws -> Value

    init(_ make: @escaping @Sendable () throws -> Value) { self.make = make }

    func get() throws -> Value {
        try lock.withLock {
            if let value { return value }
            let made = try make()
            value = made
            return made
        }
    }
}
