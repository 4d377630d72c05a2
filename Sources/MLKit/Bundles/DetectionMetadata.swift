/// An AutoML Vision Edge object-detection export's `tflite_metadata.json`.
///
///     { "inferenceType": "QUANTIZED_UINT8", "inputShape": [1, 320, 320, 3],
///       "inputTensor": "normalized_input_image_tensor", "maxDetections": 40,
///       "outputTensorRepresentation": ["bounding_boxes", "class_labels", "class_confidences", "num_of_boxes"],
///       "outputTensors": ["TFLite_Detection_PostProcess", "TFLite_Detection_PostProcess:1", ...] }
///
/// Every key is optional; absent keys take the documented defaults (input
/// `[1, 320, 320, 3]`, 40 detections, the representation order above). Keys that are
/// present must be well-formed.
struct DetectionMetadata: Equatable, Sendable {
    static let defaultRepresentation = ["bounding_boxes", "class_labels", "class_confidences", "num_of_boxes"]

    var inferenceType: String?
    var inputShape: [Int] = [1, 320, 320, 3]
    var inputTensor: String?
    var maxDetections = 40
    /// What each output (in ``outputTensors`` order, else the model's order) holds.
    var outputTensorRepresentation = DetectionMetadata.defaultRepresentation
    var outputTensors: [String]?

    init() {}

    init(contentsOfFile path: String) throws(ModelBundleError) {
        try self.init(bytes: BundleFiles.read(path), path: path)
    }

    /// Parses metadata bytes read from `path` (which names the file in errors).
    init(bytes: [UInt8], path: String) throws(ModelBundleError) {
        let m = try BundleFiles.json(bytes, path: path)
        func strings(_ key: String) throws(ModelBundleError) -> [String]? {
            guard let node = m[key] else { return nil }
            guard case .array(let items) = node else {
                throw .invalidValue(path: path, key: key, expected: "an array of strings")
            }
            var out: [String] = []
            for item in items {
                guard case .string(let s) = item else {
                    throw .invalidValue(path: path, key: key, expected: "an array of strings")
                }
                out.append(s)
            }
            return out
        }
        func integer(_ node: JSONNode, _ key: String, _ range: ClosedRange<Int>) throws(ModelBundleError) -> Int {
            guard case .number(let v) = node, v.rounded() == v, v >= Double(range.lowerBound),
                v <= Double(range.upperBound)
            else {
                throw .invalidValue(
                    path: path, key: key, expected: "an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return Int(v)
        }
        if let node = m["inferenceType"] {
            guard case .string(let s) = node else {
                throw .invalidValue(path: path, key: "inferenceType", expected: "a string")
            }
            inferenceType = s
        }
        if let node = m["inputShape"] {
            guard case .array(let items) = node, items.count == 4 else {
                throw .invalidValue(path: path, key: "inputShape", expected: "[1, height, width, 3]")
            }
            var shape: [Int] = []
            for item in items { shape.append(try integer(item, "inputShape", 1 ... ImageLimits.maxSide)) }
            guard shape[0] == 1, shape[3] == 3 else {
                throw .invalidValue(path: path, key: "inputShape", expected: "[1, height, width, 3]")
            }
            inputShape = shape
        }
        if let node = m["inputTensor"] {
            guard case .string(let s) = node else {
                throw .invalidValue(path: path, key: "inputTensor", expected: "a string")
            }
            inputTensor = s
        }
        if let node = m["maxDetections"] { maxDetections = try integer(node, "maxDetections", 1 ... 100_000) }
        if let r = try strings("outputTensorRepresentation") {
            guard Set(r) == Set(Self.defaultRepresentation), r.count == 4 else {
                throw .invalidValue(
                    path: path, key: "outputTensorRepresentation",
                    expected: "a permutation of \(Self.defaultRepresentation)")
            }
            outputTensorRepresentation = r
        }
        if let t = try strings("outputTensors") {
            guard t.count == 4 else {
                throw .invalidValue(path: path, key: "outputTensors", expected: "four tensor names")
            }
            outputTensors = t
        }
    }
}
