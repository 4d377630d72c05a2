import Foundation
import TensorFlowLite

/// How an ``ObjectDetector`` is used: ML Kit's `ObjectDetectorMode`.
public enum ObjectDetectorMode: UInt, Sendable {
    /// Frames of a video stream, one after another.
    case stream
    /// Independent images.
    case singleImage
}

/// Options every ML Kit object detector has: ML Kit's `CommonObjectDetectorOptions`.
public class CommonObjectDetectorOptions: NSObject, @unchecked Sendable {
    /// Stream or single images (default ``ObjectDetectorMode/stream``, as in ML Kit). The
    /// mode changes nothing here: each image is detected on its own, and
    /// ``Object/trackingID`` is always `nil` (there is no tracker across frames).
    public var detectorMode: ObjectDetectorMode = .stream
    /// Whether objects carry labels (default `false`, as in ML Kit); without
    /// classification, ``Object/labels`` is empty.
    public var shouldEnableClassification = false
    /// Whether every object is reported (default `false`, as in ML Kit: only the most
    /// confident one).
    public var shouldEnableMultipleObjects = false
    /// Where completions run (an addition). `nil` (default):
    /// ``ModelInterpreter/defaultCompletionQueue`` if set, else the main queue when
    /// `process` is called on the main thread (as in ML Kit), else the detector's private
    /// serial queue. Set a queue in a command-line program that never runs the main queue.
    public var completionQueue: DispatchQueue?

    override init() { super.init() }
}

/// ML Kit's options for its base detection model, which does not exist here: a detector
/// made with them fails every call. Use ``CustomObjectDetectorOptions``.
public final class ObjectDetectorOptions: CommonObjectDetectorOptions, @unchecked Sendable {
    /// ML Kit's defaults; a detector made with them reports that there is no base model.
    public override init() { super.init() }
}

/// Options of an ``ObjectDetector`` running a custom model: ML Kit's
/// `CustomObjectDetectorOptions`. The model is an AutoML Vision Edge object-detection
/// bundle (an SSD ending in `TFLite_Detection_PostProcess`, with `tflite_metadata.json`
/// and `dict.txt`); each detection's class and score become the object's one label.
public final class CustomObjectDetectorOptions: CommonObjectDetectorOptions, @unchecked Sendable {
    /// Labels with a lower confidence are dropped (the object stays); `nil` (default)
    /// means 0.
    public var classificationConfidenceThreshold: NSNumber?
    /// At most this many labels per object; values ≤ 0 mean the default 10. A detection
    /// model gives each object one label.
    public var maxPerObjectLabelCount = 10
    /// Detections with a lower score are not reported as objects (an addition; default 0.5).
    public var detectionScoreThreshold: Float = 0.5
    /// At most this many objects with `shouldEnableMultipleObjects` (an addition);
    /// `nil` (default) or ≤ 0 means the bundle's `maxDetections`.
    public var maxObjectCount: Int?
    /// Float (and int8) models' input normalization (an addition). `nil` (default): the
    /// `NormalizationOptions` input 0 declares in the model's TFLite metadata, else
    /// `[-1, 1]`, the convention of the SSD models AutoML exports (their input is
    /// `normalized_input_image_tensor`). Unreadable or unusable metadata is ignored.
    public var inputNormalization: InputNormalization?
    /// The manager whose cache a remote model is read from (an addition); `nil` (default)
    /// is ``ModelManager/modelManager()``.
    public var modelManager: ModelManager?

    let localModel: LocalModel?
    let remoteModel: CustomRemoteModel?

    /// Options for the bundle at `localModel.path`: a directory holding
    /// `tflite_metadata.json`, `dict.txt` and the model (`model.tflite`, else its only
    /// `.tflite` file) — or the model file itself, with the other two beside it.
    public init(localModel: LocalModel) {
        self.localModel = localModel
        remoteModel = nil
        super.init()
    }

    /// Options for a detection bundle ``ModelManager`` downloads (published from the
    /// bundle's directory with `tflite publish`).
    public init(remoteModel: CustomRemoteModel) {
        localModel = nil
        self.remoteModel = remoteModel
        super.init()
    }
}

/// A label of an ``Object``: ML Kit's `ObjectLabel`.
public final class ObjectLabel: NSObject, @unchecked Sendable {
    /// The label text from `dict.txt` (empty if the class index is outside it).
    public let text: String
    /// The class index the model reported.
    public let index: Int
    /// The detection score in `[0, 1]`.
    public let confidence: Float

    init(text: String, index: Int, confidence: Float) {
        self.text = text; self.index = index; self.confidence = confidence
        super.init()
    }
}

/// An object found by an ``ObjectDetector``: ML Kit's `Object`.
public final class Object: NSObject, @unchecked Sendable {
    /// The object's box in the pixels of the image as displayed (after its orientation),
    /// clamped to the image; origin at the top-left. Use
    /// ``VisionImage/storedFrame(forDisplayed:)`` for stored-pixel coordinates.
    public let frame: CGRect
    /// The object's labels, most confident first; empty without classification.
    public let labels: [ObjectLabel]
    /// Always `nil`: there is no tracker across frames, in either detector mode.
    public let trackingID: NSNumber? = nil

    init(frame: CGRect, labels: [ObjectLabel]) {
        self.frame = frame; self.labels = labels
        super.init()
    }

    public override var description: String {
        let l = labels.first.map { "\($0.index) \($0.text) \($0.confidence)" } ?? "-"
        return "Object(\(frame), \(l))"
    }
}

/// A detection as the model reports it: box and its one label.
struct DetectedObject {
    let frame: CGRect
    let labels: [ObjectLabel]
}

/// Detects objects with a custom AutoML Vision Edge object-detection model: ML Kit's
/// `ObjectDetector`. Thread-safe.
public final class ObjectDetector: NSObject, @unchecked Sendable {
    private let options: Settings
    private let model: LazyModel<DetectionModel>
    private let delivery: CompletionDelivery

    /// What the detector keeps of its options.
    private struct Settings {
        var classification: Bool
        var multiple: Bool
        var labelThreshold: Float
        var labelCount: Int
        var scoreThreshold: Float
        var maxCount: Int?
    }

    /// A detector with `options` (``CustomObjectDetectorOptions``; other options give a
    /// detector whose every call fails, as there is no base model here).
    public class func objectDetector(options: CommonObjectDetectorOptions) -> ObjectDetector {
        ObjectDetector(options: options)
    }

    private init(options: CommonObjectDetectorOptions) {
        let custom = options as? CustomObjectDetectorOptions
        self.options = Settings(
            classification: options.shouldEnableClassification,
            multiple: options.shouldEnableMultipleObjects,
            labelThreshold: custom?.classificationConfidenceThreshold?.floatValue ?? 0,
            labelCount: (custom?.maxPerObjectLabelCount).flatMap { $0 > 0 ? $0 : nil } ?? 10,
            scoreThreshold: custom?.detectionScoreThreshold ?? 0.5,
            maxCount: custom?.maxObjectCount.flatMap { $0 > 0 ? $0 : nil })
        delivery = CompletionDelivery(label: "object-detector", completionQueue: options.completionQueue)
        let local = custom?.localModel, remote = custom?.remoteModel, manager = custom?.modelManager
        let normalization = custom?.inputNormalization
        model = LazyModel {
            let path: String
            if let remote {
                path = try (manager ?? .modelManager()).installedFiles(remote).directory
            } else if let local {
                path = local.path
            } else {
                throw VisionError.invalidModel("no base model; use CustomObjectDetectorOptions")
            }
            return try DetectionModel(bundlePath: path, normalization: normalization)
        }
        super.init()
    }

    /// Detects objects in `image`; `completion` gets them by decreasing score, or an error.
    /// Runs on a private serial queue; `completion` runs later on `completionQueue` (by
    /// default the main queue when called on the main thread, else that private queue).
    public func process(_ image: VisionImage, completion: @escaping ([Object]?, (any Error)?) -> Void) {
        delivery.deliver({ try self.results(in: image) }, completion: completion)
    }

    /// What loading the bundle had to work around (loading it if needed): a
    /// `tflite_metadata.json` naming tensors the model does not have, in which case the
    /// model's only image input and the outputs of its `TFLite_Detection_PostProcess`
    /// operator are used instead. Empty when the metadata matches the model.
    ///
    /// - Throws: the error that makes the bundle unusable, as ``results(in:)`` would.
    public func loadWarnings() throws -> [String] {
        try model.get().warnings
    }

    /// The objects in `image`, synchronously (callable from any thread here).
    public func results(in image: VisionImage) throws -> [Object] {
        let m = try model.get()
        let limit = options.multiple ? (options.maxCount ?? m.metadata.maxDetections) : 1
        let found = try m.detect(image.upright(), threshold: options.scoreThreshold, maxCount: limit)
        return found.map { detection in
            let labels =
                options.classification
                ? Array(detection.labels.filter { $0.confidence >= options.labelThreshold }.prefix(options.labelCount))
                : []
            return Object(frame: detection.frame, labels: labels)
        }
    }
}
