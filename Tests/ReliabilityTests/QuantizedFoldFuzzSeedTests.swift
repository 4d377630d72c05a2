import Foundation
import Testing
import TFLiteFuzzing

/// The 8-bit and 16-bit conformance models of the quantized reductions and tables
/// (REDUCE_PROD's per-step rescaling, REDUCE_MAX over codes, EXP, SQRT, RSQRT) are model-invoke
/// fuzz seeds. This replays them through the target's entry point, then mutants of them
/// (bytes changed at seeded random places, so scales, zero points, shapes, axes and types
/// read from the file go wrong as a fuzzer would make them). Every one must come back as a
/// result or a typed error, never a trap.
@Suite struct QuantizedFoldFuzzSeedTests {
    static let operators = ["REDUCE_PROD", "REDUCE_MAX", "REDUCE_MIN", "EXP", "SQRT", "RSQRT"]

    static var models: [URL] {
        operators.flatMap { op in
            MathKernelFuzzSeedTests.models(of: op).filter {
                let name = $0.deletingLastPathComponent().lastPathComponent
                return name.hasPrefix("i8_") || name.hasPrefix("u8_") || name.hasPrefix("i16_")
            }
        }
    }

    @Test func everyCaseInvokes() throws {
        let models = Self.models
        #expect(models.count >= 30)
        for url in models {
            let outcome = FuzzEntryPoints.modelInvoke(try [UInt8](Data(contentsOf: url)))
            let name = url.deletingLastPathComponent().path.split(separator: "/").suffix(2).joined(separator: "/")
            #expect(outcome.hasPrefix("invoked"), "\(name): \(outcome)")
        }
    }

    @Test func mutantsNeverTrap() throws {
        let outcomes = try ModelMutants.outcomes(of: Self.models, perModel: 150, seed: 0x5EED_0F01)
        #expect(outcomes.keys.contains("invoked"), "\(outcomes)")
        #expect(outcomes.keys.allSatisfy { ["invoked", "rejected at load", "rejected at run"].contains($0) })
    }
}
