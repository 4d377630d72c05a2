import Foundation
import Testing
@testable import MLKit

/// ML Kit's custom object detection options on the demo shapes bundle: what each option
/// does to the objects and labels reported, against the detector run with every object
/// and label (checked against LiteRT in ShapesBundleTests).
@Suite struct CustomObjectDetectorTests {
    static let bundle = VisionFixtures.repoRoot.appendingPathComponent("Fixtures/bundles/shapes").path
    /// A scene with four shapes (Fixtures/images/shapes/boxes.json).
    static func scene() throws -> VisionImage {
        try VisionImage(
            contentsOfFile: VisionFixtures.repoRoot.appendingPathComponent("Fixtures/images/shapes/scene_5.png").path)
    }

    @Test func defaultsReportTheMostConfidentObjectWithoutLabels() throws {
        let image = try Self.scene()
        let all = try ObjectDetector.objectDetector(options: VisionFixtures.everyDetection(Self.bundle)).results(
            in: image)
        #expect(all.count > 1)
        let options = CustomObjectDetectorOptions(localModel: LocalModel(path: Self.bundle))
        #expect(
            options.detectorMode == .stream && !options.shouldEnableClassification
                && !options.shouldEnableMultipleObjects)
        #expect(options.classificationConfidenceThreshold == nil && options.maxPerObjectLabelCount == 10)
        let one = try ObjectDetector.objectDetector(options: options).results(in: image)
        #expect(one.count == 1)
        #expect(one.first?.frame == all.first?.frame)
        #expect(one.first?.labels.isEmpty == true)
        #expect(one.first?.trackingID == nil)
    }

    @Test func classificationThresholdDropsLabelsNotObjects() throws {
        let image = try Self.scene()
        let options = VisionFixtures.everyDetection(Self.bundle)
        options.detectorMode = .singleImage
        let all = try ObjectDetector.objectDetector(options: options).results(in: image)
        let best = try #require(all.first?.labels.first?.confidence)
        options.classificationConfidenceThreshold = NSNumber(value: best)
        options.maxPerObjectLabelCount = 0 // invalid: the default
        let filtered = try ObjectDetector.objectDetector(options: options).results(in: image)
        #expect(filtered.map(\.frame) == all.map(\.frame))
        #expect(filtered.map(\.labels.count) == all.map { $0.labels.first!.confidence >= best ? 1 : 0 })
        let label = try #require(filtered.first?.labels.first)
        #expect(label.text == all.first?.labels.first?.text && label.index == all.first?.labels.first?.index)
    }

    @Test func processCallsBackWithObjects() async throws {
        let image = try Self.scene()
        let detector = ObjectDetector.objectDetector(options: VisionFixtures.everyDetection(Self.bundle))
        let objects: [Object] = try await withCheckedThrowingContinuation { c in
            detector.process(image) { objects, error in
                if let objects {
                    c.resume(returning: objects)
                } else {
                    c.resume(throwing: error ?? VisionError.invalidModel("nothing"))
                }
            }
        }
        #expect(objects.map(\.frame) == (try detector.results(in: image)).map(\.frame))
    }

    @Test func baseModelOptionsFail() throws {
        let detector = ObjectDetector.objectDetector(options: ObjectDetectorOptions())
        #expect(throws: VisionError.invalidModel("no base model; use CustomObjectDetectorOptions")) {
            try detector.results(in: try Self.scene())
        }
    }
}
