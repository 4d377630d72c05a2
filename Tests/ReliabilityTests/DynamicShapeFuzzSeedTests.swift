import Foundation
import Testing
import TFLiteFuzzing

/// WHERE's conformance models are model-invoke fuzz seeds (`scripts/fuzz/run.sh`): their
/// output shapes, and those of the operators after them, are resolved at invoke. This
/// replays them through the target's entry point (zeroed inputs, then the model's own
/// bytes, so the number of true elements swings from none to most), and then mutants of
/// them, bytes changed at seeded random places, so shapes, types and counts read from the
/// file go wrong in ways a fuzzer would try. Every one must come back as a result or a
/// typed error, never a trap.
@Suite struct DynamicShapeFuzzSeedTests {
    static var models: [URL] { MathKernelFuzzSeedTests.models(of: "WHERE") }

    @Test func everyCaseInvokes() throws {
        let models = Self.models
        #expect(models.count >= 10)
        for url in models {
            let outcome = FuzzEntryPoints.modelInvoke(try [UInt8](Data(contentsOf: url)))
            let name = url.deletingLastPathComponent().lastPathComponent
            #expect(outcome.hasPrefix("invoked") && outcome.hasSuffix("pattern invoked"), "\(name): \(outcome)")
        }
    }

    @Test func mutantsNeverTrap() throws {
        let outcomes = try ModelMutants.outcomes(of: Self.models, perModel: 150, seed: 0x5EED_0018)
        // Mutants that still load and run reach the dynamic path; the rest are refused.
        #expect(outcomes.keys.contains("invoked"), "\(outcomes)")
        #expect(outcomes.keys.allSatisfy { ["invoked", "rejected at load", "rejected at run"].contains($0) })
    }
}
