import Foundation
import Testing
@testable import TFLiteCommands

/// `tflite segment` on the astronaut photo with MediaPipe's selfie segmentation model.
@Suite struct SegmentCommandTests {
    static func path(_ relative: String) -> String { VisionCommandTests.path(relative) }

    @Test func segmentsThePersonAndWritesTheBlendedImage() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("segment-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = await run(
            "segment", Self.path("Fixtures/images/astronaut.png"),
            "--model", Self.path("Fixtures/mediapipe/models/selfie_segmentation.tflite"), "-o", out, "--json")
        #expect(r.code == ExitCode.success, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let fraction = try #require(json["person_fraction"] as? Double)
        // The astronaut fills about half of the photo.
        #expect(fraction > 0.35 && fraction < 0.75, "person fraction \(fraction)")
        #expect(json["mask_size"] as? [Int] == [256, 256])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func refusesAModelThatIsNotASegmenter() async {
        let r = await run(
            "segment", Self.path("Fixtures/images/astronaut.png"),
            "--model", Self.path("Fixtures/models/mobilenet_float.tflite"), "-o", "/tmp/unused.png")
        #expect(r.code == ExitCode.failure && r.err.contains("is not a selfie segmentation model"), "\(r.err)")
    }
}
