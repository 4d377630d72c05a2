import Foundation
import Testing
import TFLiteModel
@testable import TFLiteCommands

/// Checks `inspect --json` against `Fixtures/models/<name>.expected.json` for every
/// `<name>.tflite` (generated from LiteRT by `scripts/fixtures/`). The fixtures are
/// committed: a missing directory, a model without its expected file, or an empty
/// directory is a failure, not a pass.
@Suite struct FixtureInspectTests {
    static let modelsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // TFLiteCommandsTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // package root
        .appendingPathComponent("Fixtures/models")

    @Test func inspectJSONMatchesExpectedFiles() throws {
        let fm = FileManager.default
        let models = try fm.contentsOfDirectory(atPath: Self.modelsDirectory.path)
            .filter { $0.hasSuffix(".tflite") }
            .sorted()
        #expect(!models.isEmpty, "Fixtures/models holds no .tflite")
        let pairs = models.map { file -> (model: URL, expected: URL) in
            let stem = String(file.dropLast(".tflite".count))
            return (
                Self.modelsDirectory.appendingPathComponent(file),
                Self.modelsDirectory.appendingPathComponent("\(stem).expected.json")
            )
        }
        for pair in pairs {
            #expect(fm.fileExists(atPath: pair.expected.path), "\(pair.model.lastPathComponent) has no expected JSON")
        }
        for pair in pairs where fm.fileExists(atPath: pair.expected.path) {
            let name = pair.model.lastPathComponent
            let model = try Model(contentsOfFile: pair.model.path)
            let actual = try TestJSON.parse(inspectJSON(model).serialized())
            let expected = try TestJSON.parse(String(decoding: try Data(contentsOf: pair.expected), as: UTF8.self))
            let difference = TestJSON.firstDifference(actual, expected)
            #expect(difference == nil, "\(name): \(difference ?? "")")
        }
    }
}
