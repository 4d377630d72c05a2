import Foundation

/// Options shared by ML Kit's image labelers.
public class CommonImageLabelerOptions: NSObject, @unchecked Sendable {
    /// Labels with a lower confidence are dropped. `nil` (default) means 0.0 (this
    /// runtime does not read a threshold from model metadata).
    public var confidenceThreshold: NSNumber?
    /// Where completions run (an addition). `nil` (default):
    /// ``ModelInterpreter/defaultCompletionQueue`` if set, else the main queue when
    /// `process` is called on the main thread (as in ML Kit), else the labeler's private
    /// serial queue.
    /// Set a queue in a command-line program that never runs the main queue.
    public var completionQueue: DispatchQueue?

    override init() { super.init() }
}

/// Options for a labeler running a custom (e.g. AutoML Vision Edge) model.
public final class CustomImageLabelerOptions: CommonImageLabelerOptions, @unchecked Sendable {
    /// At most this many labels are returned; values ≤ 0 mean the default 10.
    public var maxResultCount: Int = 10
    /// Float (and int8, before quantizing) models' input normalization (an addition).
    /// `nil` (default): the `NormalizationOptions` input 0 declares in the model's TFLite
    /// metadata, else `[0, 1]`. Unreadable metadata, or a declaration that is not 1 or 3
    /// finite means and non-zero stds, is ignored (`[0, 1]`).
    public var inputNormalization: InputNormalization?
    /// Center-crop to the model's aspect ratio instead of stretching (an addition;
    /// default `false`).
    public var centerCrop = false

    /// The manager whose cache a remote model is read from (an addition); `nil` (default)
    /// is ``ModelManager/modelManager()``.
    public var modelManager: ModelManager?

    let localModel: LocalModel?
    let remoteModel: CustomRemoteModel?

    /// Options for `localModel`: from ``LocalModel/init(manifestPath:)`` (labels from the
    /// manifest's labels file) or ``LocalModel/init(path:)`` (labels from a `dict.txt`
    /// next to the model if there is one, else label texts are empty and only the
    /// ``ImageLabel/index`` identifies the class).
    public init(localModel: LocalModel) {
        self.localModel = localModel
        self.remoteModel = nil
        super.init()
    }

    /// Options for a remote model ``ModelManager`` downloads: a bundle published from an
    /// AutoML export (labels from its manifest), or a single model file. Until it is
    /// downloaded, labeling fails with ``VisionError/modelNotDownloaded(name:)``.
    public init(remoteModel: CustomRemoteModel) {
        self.localModel = nil
        self.remoteModel = remoteModel
        super.init()
    }

    var effectiveMaxCount: Int { maxResultCount > 0 ? maxResultCount : 10 }
}

/// A label ML Kit reports.
public final class ImageLabel: NSObject, @unchecked Sendable {
    /// The label text (empty when the model has no labels file).
    public let text: String
    /// The class index in the model's output (= line in `dict.txt`).
    public let index: Int
    /// Confidence in `[0, 1]`.
    public let confidence: Float

    init(text: String, index: Int, confidence: Float) {
        self.text = text
        self.index = index
        self.confidence = confidence
        super.init()
    }

    public override var description: String { "ImageLabel(\(index) \(text), \(confidence))" }
}

/// ML Kit's image labeler for custom models. Thread-safe.
public final class ImageLabeler: NSObject, @unchecked Sendable {
    private let threshold: Float
    private let maxCount: Int
    private let classifier: LazyModel<ImageClassifier>
    private let delivery: CompletionDelivery

    /// A labeler with `options` (a ``CustomImageLabelerOptions``; other options give a
    /// labeler whose every call fails, as there is no built-in base model here).
    public class func imageLabeler(options: CommonImageLabelerOptions) -> ImageLabeler {
        ImageLabeler(options: options)
    }

    private init(options: CommonImageLabelerOptions) {
        threshold = options.confidenceThreshold?.floatValue ?? 0
        delivery = CompletionDelivery(label: "image-labeler", completionQueue: options.completionQueue)
        let custom = options as? CustomImageLabelerOptions
        maxCount = custom?.effectiveMaxCount ?? 10
        let remote = custom?.remoteModel, manager = custom?.modelManager
        let local = custom?.localModel, normalization = custom?.inputNormalization
        let fit: ImageFit = custom?.centerCrop == true ? .centerCrop : .stretch
        classifier = LazyModel {
            let model: LocalModel
            if let remote {
                model = try LocalModel.downloaded(remote, by: manager ?? .modelManager())
            } else if let local {
                model = local
            } else {
                throw VisionError.invalidModel("no base model; use CustomImageLabelerOptions")
            }
            let labelsPath: String?
            if let manifest = try model.manifest()?.requireImageLabeling() {
                labelsPath = manifest.labelsPath
            } else {
                let beside = BundleFiles.resolve("dict.txt", in: BundleFiles.directory(of: model.path))
                labelsPath = FileManager.default.fileExists(atPath: beside) ? beside : nil
            }
            return try ImageClassifier(
                modelPath: model.path, labelsPath: labelsPath, fit: fit, normalization: normalization)
        }
        super.init()
    }

    /// Labels `image`; `completion` gets the labels at or above the threshold, most
    /// confident first (ties: lower index first), at most `maxResultCount` — or an error.
    /// Runs on a private serial queue; `completion` runs later, on the options'
    /// `completionQueue` (by default the main queue when called on the main thread).
    public func process(_ image: VisionImage, completion: @escaping ([ImageLabel]?, (any Error)?) -> Void) {
        delivery.deliver({ try self.results(in: image) }, completion: completion)
    }

    /// The labels for `image`, synchronously (callable from any thread on Linux).
    public func results(in image: VisionImage) throws -> [ImageLabel] {
        let scores = try classifier.get().scores(image.upright())
        return ImageClassifier.select(scores, threshold: threshold, maxCount: maxCount).map {
            ImageLabel(text: $0.text, index: $0.index, confidence: $0.confidence)
        }
    }
}
