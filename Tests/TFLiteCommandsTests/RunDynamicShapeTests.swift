import Foundation
import NumPy
import Testing
@testable import TFLiteCommands

/// `tflite run` on the model and first input of the conformance case in `folder`.
func runCorpusCase(_ folder: URL, outputDir: URL) async -> (code: Int32, out: String, err: String) {
    await run(
        "run", folder.appendingPathComponent("model.tflite").path,
        "--input", folder.appendingPathComponent("input_0.npy").path, "--output-dir", outputDir.path)
}

/// `tflite run` on WHERE models: the .npy output has the shape of this run.
@Suite struct RunDynamicShapeTests {
    static let corpus = RunCommandTests.root.appendingPathComponent("Fixtures/conformance/WHERE")

    func check(_ name: String) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("run-where-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = Self.corpus.appendingPathComponent(name)
        let r = await runCorpusCase(folder, outputDir: dir)
        #expect(r.code == ExitCode.success, "\(r.err)")
        let output = try NPYArray(contentsOf: dir.appendingPathComponent("output_0.npy"))
        let expected = try NPYArray(contentsOf: folder.appendingPathComponent("expected_0.npy"))
        #expect(output.dtype == .int64)
        #expect(output.shape == expected.shape)
        #expect(output.data == expected.data)
    }

    @Test func writesTheCoordinatesWithTheirShape() async throws {
        try await check("i32_nonzero")
    }

    @Test func writesAnEmptyArrayWhenNothingIsTrue() async throws {
        try await check("b_all_false")
    }
}
