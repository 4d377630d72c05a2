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
        var state: UInt64 = 0x5EED_0018
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var outcomes: [String: Int] = [:]
        for url in Self.models {
            let original = try [UInt8](Data(contentsOf: url))
            for _ in 0 ..< 150 {
                var bytes = original
                for _ in 0 ..< 1 + next() % 4 {
                    bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next())
                }
                let outcome = FuzzEntryPoints.modelInvoke(bytes)
                let kind = outcome.split(separator: ":").first.map(String.init) ?? outcome
                outcomes[kind, default: 0] += 1
            }
        }
        // Mutants that still load and run reach the dynamic path; the rest are refused.
        #expect(outcomes.keys.contains("invoked"), "\(outcomes)")
        #expect(outcomes.keys.allSatisfy { ["invoked", "rejected at load", "rejected at run"].contains($0) })
    }
}
