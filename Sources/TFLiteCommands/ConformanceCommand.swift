import ArgumentParser
import Foundation
import TFLiteConformance
import TFLiteModel
import TFLiteRuntime

/// `tflite conformance [--corpus DIR] [--markdown FILE] [--threads N]`.
struct ConformanceCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the conformance corpus and report distances to LiteRT's outputs",
        discussion: """
            Runs every case (a folder with case.json, model.tflite, input_<i>.npy and \
            expected_<i>.npy) through the Interpreter API. Prints one line per failing case and a \
            summary; with --markdown, writes the per-op report (CONFORMANCE.md), with the quantized \
            cases also run with --requantization float32 and reported apart. Exits 1 if a case \
            fails that is not listed in <corpus>/expected-failures.txt.
            """
    )

    @Option(help: ArgumentHelp("Corpus root (default: Fixtures/conformance)", valueName: "dir"), completion: .directory)
    var corpus: String?
    @Option(
        help: ArgumentHelp("Write the Markdown report to FILE", valueName: "file"),
        completion: .file(extensions: ["md"]))
    var markdown: String?
    @Option(help: ArgumentHelp("Interpreter threads (default 1)", valueName: "n"), transform: value(in: 1 ... 256))
    var threads = 1

    func run(console: Console) async throws -> Int32 {
        let root = URL(fileURLWithPath: corpus ?? "Fixtures/conformance")
        let cases = try ConformanceCase.discover(in: root)
        guard !cases.isEmpty else { throw ToolError("no conformance cases found under \(root.path)") }
        let expected = try ExpectedFailures(contentsOf: root.appendingPathComponent("expected-failures.txt"))
        // What LiteRT itself runs, for the coverage section (absent from other corpora).
        let litert = try LiteRTKernels(contentsOf: root.appendingPathComponent("litert-builtin-kernels.json"))
        var results: [CaseResult] = []
        var unexpected = 0
        for c in cases {
            let r = ConformanceRunner.run(c, threads: threads)
            results.append(r)
            if !r.passed {
                let listed = expected.reason(for: c.id) != nil
                if !listed { unexpected += 1 }
                let detail = r.error ?? "max error \(r.vsReference?.maxAbsError ?? .nan)"
                console.out("\(listed ? "XFAIL" : "FAIL ") \(c.id): \(detail)" + "\n")
            }
        }
        // The opt-in inexact mode is reported, never judged: it is not expected to match.
        let quantized = cases.filter { $0.dtype == "int8" || $0.dtype == "uint8" }
        let float32 =
            markdown == nil
            ? []
            : quantized.map {
                ConformanceRunner.run($0, threads: threads, requantization: .float32)
            }
        let passed = results.filter(\.passed).count
        console.out("\(passed) passed, \(results.count - passed) failed (\(unexpected) not in expected-failures.txt)\n")
        if let path = markdown {
            let text = ConformanceReport.markdown(
                results, float32Requantization: float32, expectedFailures: expected,
                generatedBy:
                    "swift run -c release tflite conformance --markdown \((path as NSString).lastPathComponent)",
                coverage: ConformanceCoverage(
                    schemaBuiltins: BuiltinOperator.schemaOperators.map(\.name),
                    supported: Set(KernelRegistry.supportedBuiltins.map(\.name)),
                    customs: KernelRegistry.supportedCustoms, litert: litert))
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw ToolError("cannot write \(path): \(error.localizedDescription)")
            }
        }
        return unexpected == 0 ? ExitCode.success : ExitCode.failure
    }
}
