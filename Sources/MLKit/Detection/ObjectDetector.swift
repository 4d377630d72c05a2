import Foundation
import TensorFlowLite

/// Options of an ``ObjectDetector`` for an AutoML Vision Edge object-detection export.
public final class ObjectDetectorOptions: NSObject, @unchecked Sendable {
    /// Objects with a lower score are dropped; default 0.5.
    public var scoreThreshold: Float = 0.5
    /// At most this many objects; `nil` (default) or ≤ 0 means the bundle's `maxDetections`.
    public var maxResultCount: Int?
    /// Float (and int8) models' input normalization. `nil` (default): the
    /// `NormalizationOptions` input 0 declares in the model's TFLite metadata, else
    /// `[-1, 1]`, the convention of the SSD models AutoML exports (their input is
    /// `normalized_input_image_tensor`). Unreadable or unusable metadata is ignored.
    public var inputNormalization: InputNormalization?
    /// Where completions run; `nil` (default) is the detector's private serial queue.
    public var completionQueue: DispatchQueue?

    let localModel: LocalModel

    /// Options for the bundle at `localModel.path`: a directory holding
    /// `tflite_metadata.json`, `dict.txt` and the model (`model.tflite`, else its only
    /// `.tflite` file) — or the model file itself, with the other two beside it.
    public init(localModel: LocalModel) {
        self.localModel = localModel
        super.init()
    }
}

/// A label of a ``DetectedObject``.
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

/// An object found by an ``ObjectDetector``.
public final class DetectedObject: NSObject, @unchecked Sendable {
    /// The object's box in the pixels of the image as displayed (after its orientation),
    /// clamped to the image; origin at the top-left. Use
    /// ``VisionImage/storedFrame(forDisplayed:)`` for stored-pixel coordinates.
    public let frame: CGRect
    /// The object's labels (one: the detector's class), most confident first.
    public let labels: [ObjectLabel]
    /// Always `nil` (no tracking across frames).
    public let trackingID: NSNumber? = nil

    init(frame: CGRect, labels: [ObjectLabel]) {
        self.frame = frame; self.labels = labels
        super.init()
    }

    public override var description: String {
        let l = labels.first.map { "\($0.index) \($0.text) \($0.confidence)" } ?? "-"
        return "DetectedObject(\(frame), \(l))"
    }
}

/// Detects objects with an AutoML Vision Edge object-detection model (an SSD whose graph
/// ends in `TFLite_Detection_PostProcess`). Thread-safe.
public final class ObjectDetector: NSObject, @unchecked Sendable {
    private let threshold: Float
    private let maxCount: Int?
    private let model: LazyModel<DetectionModel>
    private let delivery: CompletionDelivery

    public class func objectDetector(options: ObjectDetectorOptions) -> ObjectDetector {
        ObjectDetector(options: options)
    }

    private init(options: ObjectDetectorOptions) {
        threshold = options.scoreThreshold
        maxCount = options.maxResultCount.flatMap { $0 > 0 ? $0 : nil }
        delivery = CompletionDelivery(label: "object-detector", completionQueue: options.completionQueue)
        let path = options.localModel.path, normalization = options.inputNormalization
        model = LazyModel { try DetectionModel(bundlePath: path, normalization: normalization) }
        super.init()
    }

    /// Detects objects in `image`; `completion` gets them by decreasing score, or an error.
    /// Runs on a private serial queue; `completion` runs on `completionQueue` (default:
    /// that private queue — Linux never drains the main queue without `dispatchMain()`).
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([DetectedObject]?, (any Error)?) -> Void) {
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

    /// The objects in `image`, synchronously.
    public func results(in image: VisionImage) throws -> [DetectedObject] {
        let m = try model.get()
        return try m.detect(image.upright(), threshold: threshold, maxCount: maxCount ?? m.metadata.maxDetections)
    }
}
