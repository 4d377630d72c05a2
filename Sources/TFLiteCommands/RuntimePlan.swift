import TFLiteModel
import TFLiteRuntime

/// What the runtime makes of a model: whether every operator has a kernel for its
/// types and shapes, the size of the tensor arena it plans, and the work one invoke
/// declares (multiply-accumulates and NMS comparisons, as `EngineOptions.workBudget` counts).
struct RuntimePlan {
    var arenaBytes: Int?
    var work: Int?
    var error: String?
    /// Every builtin and custom op of the model without a kernel (once each).
    var unsupportedOperators: [UnsupportedOperator] = []

    init(_ model: Model) {
        do {
            let engine = try Engine(model: model)
            try engine.allocate()
            arenaBytes = engine.arenaSize
            work = engine.work
        } catch {
            self.error = error.description
            unsupportedOperators = error.unsupportedOperators
        }
    }

    var json: JSONValue {
        .object([
            "runnable": .bool(error == nil),
            "arena_bytes": arenaBytes.map { .int($0) } ?? .null,
            "work": work.map { .int($0) } ?? .null,
            "error": error.map { .string($0) } ?? .null,
            "unsupported_operators": .array(
                unsupportedOperators.map {
                    .object(["index": .int($0.index), "op": .string($0.op)])
                }),
        ])
    }

    var text: String {
        if let arenaBytes {
            return
                "Runtime:\n  runnable; planned tensor arena \(arenaBytes) bytes (inputs, outputs, activations and scratch, 64-byte aligned)\n  work per invoke \(work ?? 0) multiply-accumulates and NMS comparisons"
        }
        return "Runtime:\n  not runnable: \(error ?? "unknown reason")"
    }
}
