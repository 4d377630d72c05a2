import Foundation
import Testing
@testable import MLKit

/// The demo shapes detector (a quantized SSD ending in TFLite_Detection_PostProcess,
/// uint8 input) through the ML Kit object detector, against the detections LiteRT's
/// reference kernels produced for the same PNG scenes (REPORT.json).
@Suite struct ShapesBundleTests {
    static let bundle = VisionFixtures.repoRoot.appendingPathComponent("Fixtures/bundles/shapes")

    struct Report: Decodable {
        struct Detection: Decodable { var label: String; var class_index: Int; var score: Float; var box: [Float] }
        struct Entry: Decodable { var file: String; var detections: [Detection] }
        struct Options: Decodable { var nms_score_threshold: Float }
        var per_image: [Entry]
        var postprocess_options: Options
    }

    @Test func detectionsEqualLiteRT() throws {
        let report = try JSONDecoder().decode(
            Report.self, from: Data(contentsOf: Self.bundle.appendingPathComponent("REPORT.json")))
        let options = VisionFixtures.everyDetection(Self.bundle.path)
        // REPORT.json lists every detection the op emits (score above its NMS threshold).
        options.detectionScoreThreshold = report.postprocess_options.nms_score_threshold
        let detector = ObjectDetector.objectDetector(options: options)
        var checked = 0
        for entry in report.per_image {
            let image = try VisionImage(contentsOfFile: VisionFixtures.repoRoot.appendingPathComponent(entry.file).path)
            let got = try detector.results(in: image)
            #expect(
                got.count == entry.detections.count,
                "\(entry.file): \(got.count) objects, LiteRT \(entry.detections.count)")
            for (object, want) in zip(got, entry.detections) {
                let label = try #require(object.labels.first)
                #expect(label.text == want.label && label.index == want.class_index, "\(entry.file)")
                #expect(
                    abs(label.confidence - want.score) < 1e-5, "\(entry.file): \(label.confidence) vs \(want.score)")
                // LiteRT boxes are normalized [ymin, xmin, ymax, xmax] on the 320x320 scene.
                let frame = object.frame
                let box = [frame.minY, frame.minX, frame.maxY, frame.maxX].map { Float($0) / 320 }
                for (a, b) in zip(box, want.box) { #expect(abs(a - b) < 1e-4, "\(entry.file): \(box) vs \(want.box)") }
            }
            checked += 1
        }
        #expect(checked >= 6)
    }
}
