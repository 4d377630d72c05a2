import Foundation
import NumPy
import Testing
@testable import TFLiteCommands

/// `tflite run`: .npy in, .npy out, and clear errors naming the input.
@Suite struct RunCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let model = root.appendingPathComponent("Fixtures/models/mobilenet_float.tflite").path

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writesOutputsAsNpy() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let values = (0 ..< 32 * 32 * 3).map { Float(sin(0.1 * Double($0))) }
        let input = dir.appendingPathComponent("x.npy")
        try NPYArray(shape: [1, 32, 32, 3], values: values).write(to: input)
        let r = await run("run", Self.model, "--input", input.path, "--output-dir", dir.path)
        #expect(r.code == ExitCode.success, "\(r.err)")
        let output = try NPYArray(contentsOf: dir.appendingPathComponent("output_0.npy"))
        #expect(output.shape == [1, 10])
        let probabilities = try output.values(as: Float.self)
        // LiteRT's reference kernels on the same input (see Tests/TensorFlowLiteTests).
        #expect(abs(probabilities[1] - 0.18071779608726501) < 1e-4)
        #expect(r.out.contains("output 0"))
    }

    /// An RFFT2D model's complex64 output is written as a `<c8` array, equal to LiteRT's
    /// (LiteRT's zero imaginary parts are −0; compared as numbers, so 0 == −0).
    @Test func writesComplexOutputsAsNpy() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = Self.root.appendingPathComponent("Fixtures/conformance/RFFT2D/f32_8x8")
        let r = await runCorpusCase(folder, outputDir: dir)
        #expect(r.code == ExitCode.success, "\(r.err)")
        let output = try NPYArray(contentsOf: dir.appendingPathComponent("output_0.npy"))
        let expected = try NPYArray(contentsOf: folder.appendingPathComponent("expected_0.npy"))
        #expect(output.dtype == .complex64 && expected.dtype == .complex64)
        #expect(output.shape == [8, 5])
        let parts = { (a: NPYArray) throws -> [Float] in
            try NPYArray(dtype: .float32, shape: [a.data.count / 4], data: a.data).values(as: Float.self)
        }
        #expect(try parts(output) == parts(expected))
    }

    @Test func resizesTheBatchFromTheArrayShape() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("x.npy")
        try NPYArray(shape: [2, 32, 32, 3], values: [Float](repeating: 0.5, count: 2 * 32 * 32 * 3)).write(to: input)
        let r = await run("run", Self.model, "--input", input.path, "--output-dir", dir.path)
        #expect(r.code == ExitCode.success, "\(r.err)")
        #expect(try NPYArray(contentsOf: dir.appendingPathComponent("output_0.npy")).shape == [2, 10])
    }

    @Test func wrongDtypeNamesTheInput() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("x.npy")
        try NPYArray(shape: [1, 32, 32, 3], values: [UInt8](repeating: 1, count: 32 * 32 * 3)).write(to: input)
        let r = await run("run", Self.model, "--input", input.path)
        #expect(r.code == ExitCode.failure)
        #expect(r.err.contains("input 0 ('serving_default_image:0') has type float32"), "\(r.err)")
    }

    @Test func missingInputIsAnError() async {
        let r = await run("run", Self.model)
        #expect(r.code == ExitCode.failure)
        #expect(r.err.contains("the model has 1 input(s); give exactly that many --input files (got 0)"), "\(r.err)")
    }

    @Test func malformedNpyIsAnError() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("bad.npy")
        try Data("not numpy".utf8).write(to: input)
        let r = await run("run", Self.model, "--input", input.path)
        #expect(r.code == ExitCode.failure)
        #expect(r.err.contains("input file \(input.path)"), "\(r.err)")
    }
}
