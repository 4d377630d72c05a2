import Foundation
import Testing
import TFLiteConformance

/// Runs every case of `Fixtures/conformance/` through the public `Interpreter` and
/// compares with LiteRT's reference outputs at the case's tolerance level.
///
/// A case listed in `Fixtures/conformance/expected-failures.txt` must fail (with the
/// reason given there); once it passes, the entry has to go.
@Suite struct ConformanceTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/conformance")

    static let cases: [ConformanceCase] = (try? ConformanceCase.discover(in: root)) ?? []

    @Test func corpusIsPresentAndReadable() throws {
        let discovered = try ConformanceCase.discover(in: Self.root)
        #expect(!discovered.isEmpty, "no conformance cases under \(Self.root.path)")
    }

    @Test(arguments: cases.map(\.id))
    func conformsToReference(_ id: String) throws {
        let expectedFailures = try ExpectedFailures(
            contentsOf: Self.root.appendingPathComponent("expected-failures.txt"))
        let testCase = try #require(Self.cases.first { $0.id == id })
        let result = ConformanceRunner.run(testCase)
        if let reason = expectedFailures.reason(for: id) {
            #expect(!result.passed, "\(id) passes now: remove it from expected-failures.txt (was: \(reason))")
        } else {
            #expect(
                result.passed,
                "\(id): \(result.error ?? "max error \(result.vsReference?.maxAbsError ?? .nan) outside \(testCase.tolerance.rawValue) tolerance")"
            )
        }
    }

    /// Cases that keep state between invokes, loop or branch run at 2 threads too: the
    /// subgraphs control-flow operators call share their caller's worker threads, and a
    /// recurrent kernel splits its gate products over them.
    @Test(arguments: cases.filter { $0.steps.count > 1 || ["WHILE", "IF"].contains($0.op) }.map(\.id))
    func matchesAtTwoThreads(_ id: String) throws {
        let expectedFailures = try ExpectedFailures(
            contentsOf: Self.root.appendingPathComponent("expected-failures.txt"))
        guard expectedFailures.reason(for: id) == nil else { return }
        let testCase = try #require(Self.cases.first { $0.id == id })
        let result = ConformanceRunner.run(testCase, threads: 2)
        #expect(
            result.passed,
            "\(id) at 2 threads: \(result.error ?? "max error \(result.vsReference?.maxAbsError ?? .nan)")")
    }

    /// The opt-in float32 requantization is within one code of the reference on every
    /// single-operator case it changes, and differs from it somewhere (it is a different
    /// arithmetic, so a run that matched everywhere would mean the option did nothing).
    @Test func float32RequantizationIsWithinOneCode() throws {
        let changed: Set<String> = ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "TRANSPOSE_CONV"]
        let quantized = Self.cases.filter { changed.contains($0.op) && ($0.dtype == "int8" || $0.dtype == "uint8") }
        #expect(quantized.count > 40)
        var differing = 0
        for testCase in quantized {
            let result = ConformanceRunner.run(testCase, requantization: .float32)
            let d = try #require(result.vsReference, "\(testCase.id): \(result.error ?? "")")
            #expect(d.maxAbsError <= 1, "\(testCase.id): \(d.maxAbsError) LSB")
            differing += d.differing
        }
        #expect(differing > 0)
    }
}
