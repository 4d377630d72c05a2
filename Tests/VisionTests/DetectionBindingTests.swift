import Foundation
import Testing
@testable import MLKit

/// Detection bundles whose `tflite_metadata.json` names tensors the model does not have.
@Suite struct DetectionBindingTests {
    static let shapes = VisionFixtures.repoRoot.appendingPathComponent("Fixtures/bundles/shapes")

    /// The shapes bundle with its metadata naming the tensors as a newer export would.
    static func renamedShapesBundle(_ dir: TemporaryDirectory) throws {
        try dir.copy(shapes.appendingPathComponent("model.tflite").path, as: "model.tflite")
        try dir.copy(shapes.appendingPathComponent("dict.txt").path, as: "dict.txt")
        try dir.write(
            "tflite_metadata.json",
            #"""
            {"inferenceType": "QUANTIZED_UINT8", "inputShape": [1, 320, 320, 3], "inputTensor": "serving_default_x:0",
             "maxDetections": 10,
             "outputTensorRepresentation": ["bounding_boxes", "class_labels", "class_confidences", "num_of_boxes"],
             "outputTensors": ["StatefulPartitionedCall:0", "StatefulPartitionedCall:1", "StatefulPartitionedCall:2", "StatefulPartitionedCall:3"]}
            """#)
    }

    static func detector(_ path: String) -> ObjectDetector {
        let options = VisionFixtures.everyDetection(path)
        options.detectionScoreThreshold = 0.1
        return ObjectDetector.objectDetector(options: options)
    }

    @Test func mismatchedNamesFallBackToThePostProcessOutputsWithAWarning() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.renamedShapesBundle(dir)
        let renamed = Self.detector(dir.path)
        let original = Self.detector(Self.shapes.path)
        #expect(try original.loadWarnings().isEmpty)
        let warnings = try renamed.loadWarnings()
        #expect(warnings.count == 2)
        #expect(
            warnings.contains {
                $0.contains("inputTensor \"serving_default_x:0\"") && $0.contains("normalized_input_image_tensor")
            })
        #expect(
            warnings.contains {
                $0.contains(
                    "TFLite_Detection_PostProcess operator in their defined order (boxes, classes, scores, count)")
            })
        let images = try FileManager.default.contentsOfDirectory(
            atPath: VisionFixtures.repoRoot.appendingPathComponent("Fixtures/images/shapes").path
        )
        .filter { $0.hasSuffix(".png") }.sorted()
        #expect(images.count >= 3)
        var found = 0
        for name in images {
            let image = try VisionImage(
                contentsOfFile: VisionFixtures.repoRoot.appendingPathComponent("Fixtures/images/shapes/\(name)").path)
            let want = try original.results(in: image)
            let got = try renamed.results(in: image)
            #expect(got.map(\.frame) == want.map(\.frame), "\(name)")
            #expect(got.map { $0.labels.map(\.text) } == want.map { $0.labels.map(\.text) }, "\(name)")
            #expect(got.map { $0.labels.map(\.confidence) } == want.map { $0.labels.map(\.confidence) }, "\(name)")
            found += want.count
        }
        #expect(found > 0)
    }

    @Test func aModelWithoutPostProcessIsRefusedWithTheReason() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.copy(VisionFixtures.model("mobilenet_float"), as: "model.tflite")
        try dir.write("dict.txt", "a\nb\n")
        try dir.write(
            "tflite_metadata.json",
            #"{"inputShape": [1, 32, 32, 3], "inputTensor": "normalized_input_image_tensor", "outputTensors": ["TFLite_Detection_PostProcess", "TFLite_Detection_PostProcess:1", "TFLite_Detection_PostProcess:2", "TFLite_Detection_PostProcess:3"]}"#
        )
        #expect(
            throws: VisionError.unexpectedOutput(
                "the model has 1 outputs; a detection model ending in TFLite_Detection_PostProcess has 4 (this model has no TFLite_Detection_PostProcess operator)"
            )
        ) {
            _ = try Self.detector(dir.path).loadWarnings()
        }
    }
}
