import Foundation
import Testing
@testable import TFLiteCommands

/// `tflite label`, `detect` and `faces` with explicit paths (the bundled defaults are
/// looked up from the current directory, which tests do not rely on).
@Suite struct VisionCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    @Test func facesJSON() async throws {
        let r = await run(
            "faces", Self.path("Fixtures/images/astronaut.png"), "--model",
            Self.path("Fixtures/models/face_detection_short_range.tflite"), "--json")
        #expect(r.code == ExitCode.success, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let faces = try #require(json["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        let box = try #require(faces.first?["box"] as? [Double])
        // Fixtures/images/astronaut.faces.json, LiteRT's reference (rounded to 0.001 pixel).
        let reference = [80.559, 177.283, 175.123, 271.847]
        #expect(box.count == 4 && zip(box, reference).allSatisfy { abs($0 - $1) <= 0.002 }, "\(box)")
    }

    @Test func annotateWritesAPNG() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("faces-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = await run(
            "faces", Self.path("Fixtures/images/astronaut.png"), "--model",
            Self.path("Fixtures/models/face_detection_short_range.tflite"), "--annotate", out)
        #expect(r.code == ExitCode.success, "\(r.err)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func clearErrors() async {
        let notPNG = await run(
            "faces", Self.path("Package.swift"), "--model",
            Self.path("Fixtures/models/face_detection_short_range.tflite"))
        #expect(notPNG.code == ExitCode.failure && notPNG.err.contains("not a PNG image"))
        let noBundle = await run("label", Self.path("Fixtures/images/astronaut.png"), "--model", "/nonexistent/bundle")
        #expect(noBundle.code == ExitCode.failure && noBundle.err.contains("cannot read /nonexistent/bundle"))
        let badThreshold = await run("detect", "x.png", "--threshold", "2")
        #expect(badThreshold.code == ExitCode.usage)
    }
}
