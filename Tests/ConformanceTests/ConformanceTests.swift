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
        let expectedFailures = try ExpectedFailures(contentsOf: Self.root.appendingPathComponent("expected-failures.txt"))
        let testCase = try #require(Self.cases.first { $0.id == id })
        let result = ConformanceRunner.run(testCase)
        if let reason = expectedFailures.reason(for: id) {
            #expect(!result.passed, "\(id) passes now: remove it from expected-failures.txt (was: \(reason))")
        } else {
            #expect(result.passed, "\(id): \(result.error ?? "max error \(result.vsReference?.maxAbsError ?? .nan) outside \(testCase.tolerance.rawValue) tolerance")")
        }
    }
}
