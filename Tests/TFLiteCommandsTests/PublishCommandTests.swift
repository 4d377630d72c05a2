import Foundation
import Testing
@testable import TFLiteCommands

/// `tflite publish` writes the model-server layout of spec/model-server.md.
@Suite struct PublishCommandTests {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/models/mobilenet_float.tflite").path

    @Test func publishWritesDescriptorAndFile() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("publish-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = await run("publish", Self.model, "--name", "flowers", "--version", "3", "--to", dir.path)
        #expect(r.code == ExitCode.success, "\(r.err)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.model))
        #expect(try Data(contentsOf: dir.appendingPathComponent("flowers/model-v3.tflite")) == bytes)
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("flowers/model.json")))
            as? [String: Any]
        #expect(json?["name"] as? String == "flowers")
        #expect((json?["version"] as? NSNumber)?.intValue == 3)
        #expect((json?["size"] as? NSNumber)?.intValue == bytes.count)
        #expect(json?["file"] as? String == "model-v3.tflite")
        let sha = try #require(json?["sha256"] as? String)
        #expect(sha.count == 64)
        #expect(r.out.contains("published flowers version 3: \(bytes.count) bytes, sha256 \(sha)"))

        // Not above the published version: refused unless --replace.
        let stale = await run("publish", Self.model, "--name", "flowers", "--version", "3", "--to", dir.path)
        #expect(stale.code == ExitCode.failure)
        #expect(
            stale.err
                == "error: \(dir.appendingPathComponent("flowers/model.json").path) already publishes version 3; publish a higher version than that (or replace it explicitly).\n"
        )
        let replaced = await run(
            "publish", Self.model, "--name", "flowers", "--version", "3", "--to", dir.path, "--replace")
        #expect(replaced.code == ExitCode.success)
    }

    @Test func publishRejectsBadNamesModelsAndMissingOptions() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("publish-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let badName = await run("publish", Self.model, "--name", "../x", "--version", "1", "--to", dir.path)
        #expect(badName.code == ExitCode.failure)
        #expect(
            badName.err
                == "error: '../x' is not a valid model name; use 1-128 letters, digits, '.', '_' or '-', not starting with '.'.\n"
        )
        let text = dir.appendingPathExtension("txt")
        try Data("not a model".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        let notModel = await run("publish", text.path, "--name", "x", "--version", "1", "--to", dir.path)
        #expect(notModel.code == ExitCode.failure)
        #expect(notModel.err.hasPrefix("error: \(text.path) is not a valid TensorFlow Lite model: "))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x").path))
        let noName = await run("publish", Self.model, "--version", "1", "--to", dir.path)
        #expect(noName.code == ExitCode.usage)
        #expect(noName.err.hasPrefix("Error: Missing expected argument '--name <name>'\n"))
    }
}
