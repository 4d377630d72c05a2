import Foundation
import Testing
import TFLiteFuzzing

/// The model-invoke fuzz target's seeds include a sample of every conformance operator
/// (`scripts/fuzz/run.sh`); this replays all cases of the math, comparison and selection
/// operators through the target's entry point, whose two invokes (zeroed inputs, then
/// the model's own bytes as inputs) feed zero divisors and exponents, NaNs, huge values
/// and bool bytes other than 0 and 1. Every one must come back as a result or a typed
/// error, never a trap.
@Suite struct MathKernelFuzzSeedTests {
    static let operators = [
        "ABS", "NEG", "LOG", "SIN", "COS", "FLOOR", "CEIL", "ROUND", "SIGN", "SQUARE", "ELU", "GELU", "POW",
        "FLOOR_DIV", "FLOOR_MOD", "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_NOT", "EQUAL", "NOT_EQUAL", "LESS",
        "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "SELECT", "SELECT_V2",
    ]

    static func models(of op: String) -> [URL] {
        let dir = FuzzRegressionTests.root.appendingPathComponent("Fixtures/conformance/\(op)")
        let cases = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return cases.sorted().map { dir.appendingPathComponent($0).appendingPathComponent("model.tflite") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    @Test(arguments: operators)
    func invokeNeverTraps(op: String) throws {
        let models = Self.models(of: op)
        #expect(!models.isEmpty, "no conformance cases for \(op)")
        var invoked = 0
        for url in models {
            let outcome = FuzzEntryPoints.modelInvoke(try [UInt8](Data(contentsOf: url)))
            let name = "\(op)/\(url.deletingLastPathComponent().lastPathComponent)"
            #expect(outcome.hasPrefix("invoked") || outcome.hasPrefix("rejected at run"), "\(name): \(outcome)")
            if outcome.hasPrefix("invoked") { invoked += 1 }
        }
        #expect(invoked > 0, "no \(op) case ran to the end")
    }

    /// Zeroed integer divisors are refused at invoke with a typed error naming the cause.
    @Test func zeroIntegerDivisorIsATypedError() throws {
        let url = FuzzRegressionTests.root.appendingPathComponent(
            "Fixtures/conformance/FLOOR_DIV/f32_int32_bcast/model.tflite")
        let outcome = FuzzEntryPoints.modelInvoke(try [UInt8](Data(contentsOf: url)))
        #expect(outcome.hasPrefix("rejected at run") && outcome.contains("division by zero"), "\(outcome)")
    }
}
