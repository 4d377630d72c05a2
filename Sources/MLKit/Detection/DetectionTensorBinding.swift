import TensorFlowLite

/// Which model tensors a detection bundle's roles (image input; boxes, classes, scores,
/// count) are, given its `tflite_metadata.json`.
///
/// The names in the metadata are used when the model has them. Exports often name the
/// tensors after an older converter (`normalized_input_image_tensor`,
/// `TFLite_Detection_PostProcess:0..3`) while the model says `serving_default_x:0`,
/// `StatefulPartitionedCall:0..3`; then the binding falls back to what the model's
/// structure says: its only input when that is an image, and the four outputs of its
/// `TFLite_Detection_PostProcess` operator, whose order is fixed by the operator (boxes,
/// classes, scores, count). Each fallback adds a warning. A model that fits neither way
/// (no image input, no post-process outputs, or outputs of the wrong shapes) is refused
/// with the reason.
struct DetectionTensorBinding: Equatable {
    static let postProcessName = "TFLite_Detection_PostProcess"

    /// Model output index of each role.
    var boxes: Int, classes: Int, scores: Int, count: Int
    /// What the binding did instead of following the metadata.
    var warnings: [String] = []

    init(metadata: DetectionMetadata, interpreter: Interpreter) throws {
        let input = try interpreter.input(at: 0)
        if let name = metadata.inputTensor, name != input.name {
            let dims = input.shape.dimensions
            guard interpreter.inputTensorCount == 1, dims.count == 4, dims[3] == 3 else {
                throw VisionError.invalidModel(
                    "tflite_metadata.json says inputTensor \"\(name)\", which the model does not have, and the model's inputs are not a single image (input 0 is \"\(input.name)\" \(dims), \(interpreter.inputTensorCount) inputs)"
                )
            }
            warnings.append(
                "tflite_metadata.json says inputTensor \"\(name)\", which the model does not have; using the model's only input, \"\(input.name)\""
            )
        }
        let names = try (0 ..< interpreter.outputTensorCount).map { try interpreter.output(at: $0).name }
        let postProcess = Self.postProcessOutputs(interpreter)
        guard names.count == 4 else {
            throw VisionError.unexpectedOutput(
                "the model has \(names.count) outputs; a detection model ending in \(Self.postProcessName) has 4"
                    + (postProcess == nil ? " (this model has no \(Self.postProcessName) operator)" : ""))
        }
        var index: [String: Int] = [:]
        if let wanted = metadata.outputTensors, !wanted.allSatisfy(names.contains) {
            guard let postProcess else {
                throw VisionError.invalidModel(
                    "tflite_metadata.json names outputs \(wanted), which the model does not have (it has \(names)), and the model has no \(Self.postProcessName) operator whose four outputs are model outputs to use instead"
                )
            }
            try Self.checkShapes(postProcess, interpreter)
            for (role, i) in zip(DetectionMetadata.defaultRepresentation, postProcess) { index[role] = i }
            let used = postProcess.map { "\"\(names[$0])\"" }.joined(separator: ", ")
            warnings.append(
                "tflite_metadata.json names outputs \(wanted), which the model does not have; using the outputs of its \(Self.postProcessName) operator in their defined order (boxes, classes, scores, count): \(used)"
            )
        } else {
            // By name when outputTensors names them, else by position.
            for (k, role) in metadata.outputTensorRepresentation.enumerated() {
                index[role] = metadata.outputTensors.flatMap { names.firstIndex(of: $0[k]) } ?? k
            }
        }
        guard let b = index["bounding_boxes"], let c = index["class_labels"], let s = index["class_confidences"],
            let n = index["num_of_boxes"]
        else {
            throw VisionError.invalidModel("incomplete outputTensorRepresentation")
        }
        (boxes, classes, scores, count) = (b, c, s, n)
    }

    /// Model output positions of the post-process operator's four outputs, in the
    /// operator's order; nil without such an operator, or when its outputs are not all
    /// model outputs.
    static func postProcessOutputs(_ interpreter: Interpreter) -> [Int]? {
        guard let graph = interpreter.model.subgraphs.first,
            let op = graph.operators.first(where: { $0.code.customName == postProcessName }),
            op.outputs.count == 4
        else { return nil }
        let positions = op.outputs.compactMap { graph.outputs.firstIndex(of: $0) }
        return positions.count == 4 ? positions : nil
    }

    /// Boxes `[1, N, 4]`, classes and scores `[1, N]`, count `[1]`.
    static func checkShapes(_ outputs: [Int], _ interpreter: Interpreter) throws {
        let shapes = try outputs.map { try interpreter.output(at: $0).shape.dimensions }
        let n = shapes[0].count == 3 ? shapes[0][1] : -1
        guard shapes[0].count == 3, shapes[0][0] == 1, shapes[0][2] == 4, shapes[1] == [1, n], shapes[2] == [1, n],
            shapes[3] == [1]
        else {
            throw VisionError.unexpectedOutput(
                "the outputs of \(postProcessName) have shapes \(shapes), expected boxes [1, N, 4], classes [1, N], scores [1, N], count [1]"
            )
        }
    }
}
