import Foundation
import Testing
import TFLiteModel
@testable import TFLiteCommands

/// Checks `inspect --json` against `Fixtures/models/<name>.expected.json` for every
/// `<name>.tflite` that has one (generated from LiteRT by `Fixtures/generate/`).
///
/// Before the fixtures exist the directory is absent and there is nothing to check;
/// once it exists, it must hold at least one pair, so a broken fixture layout fails
/// loudly instead of silently testing nothing.
@Suite struct FixtureModelTests {
    static let modelsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TFLiteCommandsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures/models")

    @Test func inspectJSONMatchesExpectedFiles() throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: Self.modelsDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        let pairs = try fm.contentsOfDirectory(atPath: Self.modelsDirectory.path)
            .filter { $0.hasSuffix(".tflite") }
            .sorted()
            .compactMap { file -> (model: URL, expected: URL)? in
                let stem = String(file.dropLast(".tflite".count))
                let expected = Self.modelsDirectory.appendingPathComponent("\(stem).expected.json")
                return fm.fileExists(atPath: expected.path) ? (Self.modelsDirectory.appendingPathComponent(file), expected) : nil
            }
        #expect(!pairs.isEmpty, "Fixtures/models exists but holds no <name>.tflite with a <name>.expected.json")
        for pair in pairs {
            let name = pair.model.lastPathComponent
            let model = try Model(contentsOfFile: pair.model.path)
            let actual = try TestJSON.parse(inspectJSON(model).serialized())
            let expected = try TestJSON.parse(String(decoding: try Data(contentsOf: pair.expected), as: UTF8.self))
            let difference = TestJSON.firstDifference(actual, expected)
            #expect(difference == nil, "\(name): \(difference ?? "")")
        }
    }
}
