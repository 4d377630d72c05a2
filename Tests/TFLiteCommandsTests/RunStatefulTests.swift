import Foundation
import NumPy
import Testing
@testable import TFLiteCommands

/// `tflite run --invokes` carries a model's state from one invoke to the next, and
/// `--signature` runs another subgraph; both match LiteRT on corpus cases that keep state.
@Suite struct RunStatefulTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance")

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The 20 invokes of the streaming-average case, given step by step, each written to
    /// its own folder and equal to LiteRT's output at that step.
    @Test func invokesCarryStateAndWriteEachStep() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = Self.corpus.appendingPathComponent("ASSIGN_VARIABLE/f32_streaming_average")
        let steps = 20
        var arguments = ["run", folder.appendingPathComponent("model.tflite").path, "--invokes", "\(steps)"]
        for k in 0 ..< steps { arguments += ["--input", folder.appendingPathComponent("step\(k)/input_0.npy").path] }
        let r = await run(arguments + ["--output-dir", dir.path])
        #expect(r.code == ExitCode.success, "\(r.err)")
        for k in [0, 1, 19] {
            let got = try NPYArray(contentsOf: dir.appendingPathComponent("invoke\(k)/output_0.npy"))
            let want = try NPYArray(contentsOf: folder.appendingPathComponent("step\(k)/expected_0.npy"))
            let (a, b) = (try got.values(as: Float.self), try want.values(as: Float.self))
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) }, "invoke \(k)")
        }
        #expect(r.out.contains("invoke 19 output 0"))
        let short = await run(Array(arguments.dropLast(2)) + ["--output-dir", dir.path])
        #expect(short.code != ExitCode.success)
        #expect(short.err.contains("for each of the 20 invokes (got 19)"), "\(short.err)")
    }

    /// `--signature total` runs the `total` signature's subgraph: its output order is its
    /// subgraph's, not the SignatureDef's alphabetical one.
    @Test func signatureRunsItsSubgraph() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = Self.corpus.appendingPathComponent("models/shared_accumulator/f32")
        let model = folder.appendingPathComponent("model.tflite").path
        let scale = dir.appendingPathComponent("scale.npy")
        try NPYArray(dtype: .float32, shape: [], data: withUnsafeBytes(of: Float(2)) { Array($0) }).write(to: scale)
        let r = await run("run", model, "--signature", "total", "--input", scale.path, "--output-dir", dir.path)
        #expect(r.code == ExitCode.success, "\(r.err)")
        // Before any `add`, the variable holds its initial [1, -2, 0.5] and no call was counted.
        let outputs = try (0 ..< 2).map { try NPYArray(contentsOf: dir.appendingPathComponent("output_\($0).npy")) }
        let values = try outputs.map { try $0.values(as: Float.self) }
        #expect(values.contains([2, -4, 1]) && values.contains([0]), "\(values)")
        let missing = await run("run", model, "--signature", "nope", "--input", scale.path)
        #expect(missing.err.contains("the model has no signature 'nope'; its signatures are ['add', 'total']"))
    }
}
