import Foundation
import Testing
@testable import MLKit
import TensorFlowLite

/// The demo digits bundle (a uint8-quantized AutoML-style export from the `bundles`
/// branch) through both labeler APIs, against LiteRT's raw uint8 scores in its
/// REPORT.json: labels, order and confidences must be identical.
@Suite struct DigitsBundleTests {
    static let bundle = VisionFixtures.repoRoot.appendingPathComponent("Fixtures/bundles/digits")

    struct Report: Decodable {
        struct Output: Decodable { var scale: Float; var zero_point: Int }
        struct Entry: Decodable { var file: String; var scores_uint8: [Int] }
        var output: Output
        var per_image: [Entry]
    }

    @Test func labelsEqualLiteRTScores() throws {
        let report = try JSONDecoder().decode(
            Report.self, from: Data(contentsOf: Self.bundle.appendingPathComponent("REPORT.json")))
        let manifest = Self.bundle.appendingPathComponent("manifest.json").path
        let labels = try LabelDictionary.read(contentsOfFile: Self.bundle.appendingPathComponent("dict.txt").path)
        let model = try #require(LocalModel(manifestPath: manifest))
        let options = CustomImageLabelerOptions(localModel: model)
        options.confidenceThreshold = 0
        let labeler = ImageLabeler.imageLabeler(options: options)
        let legacyOptions = VisionOnDeviceAutoMLImageLabelerOptions(
            localModel: AutoMLLocalModel(manifestPath: manifest))
        legacyOptions.confidenceThreshold = 0
        let legacy = Vision.vision().onDeviceAutoMLImageLabeler(options: legacyOptions)
        var checked = 0
        for entry in report.per_image {
            let path = VisionFixtures.repoRoot.appendingPathComponent(entry.file).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let image = try VisionImage(contentsOfFile: path)
            let expected = entry.scores_uint8.enumerated()
                .sorted { $0.element != $1.element ? $0.element > $1.element : $0.offset < $1.offset }
                .map {
                    (index: $0.offset, confidence: report.output.scale * Float($0.element - report.output.zero_point))
                }
            let got = try labeler.results(in: image)
            #expect(got.map(\.index) == expected.map(\.index), "\(entry.file)")
            #expect(got.map(\.confidence) == expected.map(\.confidence), "\(entry.file)")
            #expect(got.map(\.text) == expected.map { labels[$0.index] })
            let old = try legacy.results(in: image)
            #expect(
                old.map(\.text) == expected.map { labels[$0.index] }
                    && old.map { $0.confidence?.floatValue } == expected.map(\.confidence))
            checked += 1
        }
        #expect(checked >= 20)
    }
}
