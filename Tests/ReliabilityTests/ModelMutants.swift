import Foundation
import TFLiteFuzzing

/// Mutants of seed models for the model-invoke fuzz entry point: each seed with 1 to 4
/// bytes replaced at places drawn from a seeded generator, so the values a fuzzer would
/// corrupt (shapes, types, counts, scales) go wrong reproducibly.
enum ModelMutants {
    /// How often each kind of outcome ("invoked", "rejected at load", "rejected at run",
    /// or anything else the entry point returned) came back over `perModel` mutants of
    /// every model.
    static func outcomes(of models: [URL], perModel: Int, seed: UInt64) throws -> [String: Int] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var outcomes: [String: Int] = [:]
        for url in models {
            let original = try [UInt8](Data(contentsOf: url))
            for _ in 0 ..< perModel {
                var bytes = original
                for _ in 0 ..< 1 + next() % 4 {
                    bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next())
                }
                let outcome = FuzzEntryPoints.modelInvoke(bytes)
                let kind = outcome.split(separator: ":").first.map(String.init) ?? outcome
                outcomes[kind, default: 0] += 1
            }
        }
        return outcomes
    }
}
