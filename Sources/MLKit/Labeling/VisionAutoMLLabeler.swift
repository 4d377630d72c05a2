import Foundation

/// Entry point of the legacy Firebase ML Vision API.
public final class Vision: NSObject, @unchecked Sendable {
    private static let shared = Vision()

    /// The shared instance (Firebase's default app).
    public class func vision() -> Vision { shared }

    /// An image labeler for an AutoML Vision Edge model.
    public func onDeviceAutoMLImageLabeler(options: VisionOnDeviceAutoMLImageLabelerOptions) -> VisionImageLabeler {
        VisionImageLabeler(options: options)
    }
}

/// Options of ``Vision/onDeviceAutoMLImageLabeler(options:)``.
public final class VisionOnDeviceAutoMLImageLabelerOptions: NSObject, @unchecked Sendable {
    /// Labels with a lower confidence are dropped; in `[0, 1]`, values outside (or NaN)
    /// mean the default 0.5. There is no cap on the number of labels.
    public var confidenceThreshold: Float = 0.5
    /// Where completions run (an addition). `nil` (default):
    /// ``ModelInterpreter/defaultCompletionQueue`` if set, else the main queue when
    /// `process` is called on the main thread (as in ML Kit), else the labeler's private
    /// serial queue.
    /// Set a queue in a command-line program that never runs the main queue.
    public var completionQueue: DispatchQueue?
    /// Float (and int8) models' input normalization (an addition; AutoML exports are
    /// uint8 models that take raw pixels). `nil` (default): the `NormalizationOptions`
    /// input 0 declares in the model's TFLite metadata, else `[0, 1]`; unreadable or
    /// unusable metadata is ignored.
    public var inputNormalization: InputNormalization?

    /// The manager whose cache a remote model is read from (an addition); `nil` (default)
    /// is ``ModelManager/modelManager()``.
    public var modelManager: ModelManager?

    let localModel: AutoMLLocalModel?
    let remoteModel: AutoMLRemoteModel?

    public init(localModel: AutoMLLocalModel) {
        self.localModel = localModel
        self.remoteModel = nil
        super.init()
    }

    public init(remoteModel: AutoMLRemoteModel) {
        self.localModel = nil
        self.remoteModel = remoteModel
        super.init()
    }

    var effectiveThreshold: Float {
        (0 ... 1).contains(confidenceThreshold) ? confidenceThreshold : 0.5
    }
}

/// The kind of a ``VisionImageLabeler``.
public enum VisionImageLabelerType: UInt, Sendable {
    case onDevice, cloud, onDeviceAutoML
}

/// A label the legacy API reports.
public final class VisionImageLabel: NSObject, @unchecked Sendable {
    /// The label text from the model's labels file.
    public let text: String
    /// Confidence in `[0, 1]` (a float `NSNumber`).
    public let confidence: NSNumber?
    /// Always `nil` for AutoML models (Knowledge Graph IDs belong to the cloud labeler).
    public let entityID: String?

    init(text: String, confidence: Float) {
        self.text = text
        self.confidence = NSNumber(value: confidence)
        self.entityID = nil
        super.init()
    }

    public override var description: String { "VisionImageLabel(\(text), \(confidence?.floatValue ?? 0))" }
}

/// Labels images with an AutoML Vision Edge model (legacy Firebase API). Thread-safe.
public final class VisionImageLabeler: NSObject, @unchecked Sendable {
    /// Always ``VisionImageLabelerType/onDeviceAutoML``.
    public let type: VisionImageLabelerType = .onDeviceAutoML
    private let threshold: Float
    private let classifier: LazyModel<ImageClassifier>
    private let delivery: CompletionDelivery

    init(options: VisionOnDeviceAutoMLImageLabelerOptions) {
        threshold = options.effectiveThreshold
        delivery = CompletionDelivery(label: "automl-labeler", completionQueue: options.completionQueue)
        let local = options.localModel, remote = options.remoteModel, normalization = options.inputNormalization
        let manager = options.modelManager
        classifier = LazyModel {
            let manifest: AutoMLManifest
            if let local {
                manifest = try local.parsedManifest.get().requireImageLabeling()
            } else if let remote {
                let path =
                    try remote.downloadedManifestPath
                    ?? (manager ?? .modelManager()).installedFiles(remote).directory + "/manifest.json"
                manifest = try AutoMLManifest(contentsOfFile: path).requireImageLabeling()
            } else {
                throw VisionError.invalidModel("no model")
            }
            return try ImageClassifier(
                modelPath: manifest.modelPath, labelsPath: manifest.labelsPath, fit: .stretch,
                normalization: normalization)
        }
        super.init()
    }

    /// Labels `image` and calls `completion` with the labels at or above the confidence
    /// threshold, most confident first, or with an error (unreadable bundle, model that is
    /// not an image classifier, remote model not downloaded…).
    ///
    /// Runs on a private serial queue; `completion` runs later, on the options'
    /// `completionQueue`: by default the main queue when called on the main thread, as
    /// in Firebase, else the labeler's private queue (Completion.swift has the rules).
    public func process(_ image: VisionImage, completion: @escaping ([VisionImageLabel]?, (any Error)?) -> Void) {
        delivery.deliver({ try self.results(in: image) }, completion: completion)
    }

    /// The labels for `image`, synchronously (an addition).
    public func results(in image: VisionImage) throws -> [VisionImageLabel] {
        let scores = try classifier.get().scores(image.upright())
        return ImageClassifier.select(scores, threshold: threshold, maxCount: nil).map {
            VisionImageLabel(text: $0.text, confidence: $0.confidence)
        }
    }
}
