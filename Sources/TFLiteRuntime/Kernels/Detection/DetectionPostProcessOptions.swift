import TFLiteFormat

/// Options of `TFLite_Detection_PostProcess`, read from the operator's FlexBuffers map.
///
/// As in TFLite, a missing key reads as 0 (or false), except `detections_per_class`
/// (100) and `use_regular_nms` (false); unknown keys are ignored. `validate()` then
/// rejects values TFLite would fail on at invoke, or turn into meaningless boxes.
struct DetectionPostProcessOptions: Hashable, Sendable {
    var maxDetections: Int
    var maxClassesPerDetection: Int
    var detectionsPerClass: Int
    var useRegularNMS: Bool
    var scoreThreshold: Float
    var iouThreshold: Float
    var numClasses: Int
    var yScale: Float
    var xScale: Float
    var hScale: Float
    var wScale: Float

    static let defaultDetectionsPerClass = 100

    /// Parses the FlexBuffers bytes of `custom_options` (bounds-checked by the reader).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(KernelError) -> DetectionPostProcessOptions {
        do throws(FlexBufferError) {
            let map = try FlexBuffer(copying: bytes).root.asMap()
            func int(_ key: String) throws(FlexBufferError) -> Int { Int(try map[key]?.asInt32() ?? 0) }
            func float(_ key: String) throws(FlexBufferError) -> Float { try map[key]?.asFloat() ?? 0 }
            let perClass = map["detections_per_class"]
            let regular = map["use_regular_nms"]
            return DetectionPostProcessOptions(
                maxDetections: try int("max_detections"),
                maxClassesPerDetection: try int("max_classes_per_detection"),
                detectionsPerClass: perClass == nil || perClass?.isNull == true
                    ? defaultDetectionsPerClass : Int(try perClass?.asInt32() ?? 0),
                useRegularNMS: try regular?.asBool() ?? false,
                scoreThreshold: try float("nms_score_threshold"),
                iouThreshold: try float("nms_iou_threshold"),
                numClasses: try int("num_classes"),
                yScale: try float("y_scale"), xScale: try float("x_scale"),
                hScale: try float("h_scale"), wScale: try float("w_scale"))
        } catch {
            throw .invalid("custom options: \(error.message)")
        }
    }

    func validate() throws(KernelError) {
        guard maxDetections >= 0 else { throw .invalid("max_detections (\(maxDetections)) must not be negative") }
        guard maxClassesPerDetection > 0 else {
            throw .invalid("max_classes_per_detection (\(maxClassesPerDetection)) must be positive")
        }
        guard numClasses > 0 else { throw .invalid("num_classes (\(numClasses)) must be positive") }
        guard !useRegularNMS || detectionsPerClass > 0 else {
            throw .invalid("detections_per_class (\(detectionsPerClass)) must be positive")
        }
        guard iouThreshold > 0, iouThreshold <= 1 else {
            throw .invalid("nms_iou_threshold (\(iouThreshold)) must be in (0, 1]")
        }
        guard !scoreThreshold.isNaN else { throw .invalid("nms_score_threshold is NaN") }
        for (name, value) in [("y_scale", yScale), ("x_scale", xScale), ("h_scale", hScale), ("w_scale", wScale)] {
            guard value.isFinite, value != 0 else { throw .invalid("\(name) (\(value)) must be finite and non-zero") }
        }
    }
}
