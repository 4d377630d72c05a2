import Foundation
import NumPy
import Testing

@testable import TFLiteCommands

/// `tflite run` with string tensors: `<U` and `|S` inputs, `<U` outputs (`|S` where a
/// string is not UTF-8), and `inspect` listing them.
@Suite struct RunStringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-strings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func unicodeInputGivesUnicodeOutput() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = Self.root.appendingPathComponent("Fixtures/conformance/SKIP_GRAM/n2_skip0")
        let r = await runCorpusCase(folder, outputDir: dir)
        #expect(r.code == ExitCode.success, "\(r.err)")
        let output = try NPYArray(contentsOf: dir.appendingPathComponent("output_0.npy"))
        let expected = try NPYArray(contentsOf: folder.appendingPathComponent("expected_0.npy"))
        #expect(output.dtype.isString && output.shape == expected.shape)
        #expect(try output.strings() == expected.strings())
        #expect(r.out.contains("strings [\"the quick\""), "\(r.out)")
    }

    @Test func bytesInputAndBytesOutput() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Words of bytes that are not UTF-8: the grams are written as |S.
        let input = dir.appendingPathComponent("x.npy")
        try NPYArray(byteStrings: [[0xFF, 0x20, 0x61, 0x20, 0xFE]]).write(to: input)
        let model = Self.root.appendingPathComponent("Fixtures/conformance/SKIP_GRAM/n2_skip0/model.tflite").path
        let r = await run("run", model, "--input", input.path, "--output-dir", dir.path)
        #expect(r.code == ExitCode.success, "\(r.err)")
        let output = try NPYArray(contentsOf: dir.appendingPathComponent("output_0.npy"))
        #expect(output.dtype == .bytes(length: 3))
        #expect(try output.byteStrings() == [[0xFF, 0x20, 0x61], [0x61, 0x20, 0xFE]])
    }

    @Test func numbersForAStringInputAreRefused() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("x.npy")
        try NPYArray(values: [Float(1)]).write(to: input)
        let model = Self.root.appendingPathComponent("Fixtures/conformance/SKIP_GRAM/n2_skip0/model.tflite").path
        let r = await run("run", model, "--input", input.path, "--output-dir", dir.path)
        #expect(r.code != ExitCode.success)
        #expect(r.err.contains("has type string"), "\(r.err)")
    }

    @Test func inspectListsStringTensors() async throws {
        let r = await run("inspect", Self.root.appendingPathComponent("Fixtures/smartreply/smartreply.tflite").path)
        #expect(r.code == ExitCode.success, "\(r.err)")
        #expect(r.out.contains("input_sentence  STRING"), "\(r.out)")
        #expect(r.out.contains("string tensors    4, sized by their strings at run time"), "\(r.out)")
    }
}
