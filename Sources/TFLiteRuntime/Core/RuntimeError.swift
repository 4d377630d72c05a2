import TFLiteModel

/// Why the runtime could not prepare or run a model. Messages name the operator
/// (index and TFLite name) and what was expected versus found.
public enum RuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No kernel exists for this operator code (the model's only missing one).
    case unsupportedOperator(index: Int, op: String)
    /// No kernel exists for several operator codes: each missing builtin or custom op
    /// once, at the first operator that uses it, in graph order.
    case unsupportedOperators([UnsupportedOperator])
    /// A kernel exists for the op, but not for this combination of types.
    case unsupportedTypes(index: Int, op: String, types: String)
    /// The operator's inputs, outputs, shapes or options are invalid for it.
    case invalidOperator(index: Int, op: String, reason: String)
    /// Planned memory exceeds the configured budget (checked before allocating).
    case memoryBudgetExceeded(required: Int, budget: Int)
    /// The graph declares more work than ``EngineOptions/workBudget`` allows (checked at
    /// prepare, before any operator runs).
    case workBudgetExceeded(required: Int, budget: Int)
    /// The allocation itself failed.
    case allocationFailed(bytes: Int)
    /// The model's structure cannot be run (e.g. no subgraph, control flow).
    case unsupportedModel(String)
    /// An input index or a resize request is invalid.
    case invalidInput(String)
    /// A kernel found bad data at run time (e.g. a gather index out of range).
    case invokeFailed(index: Int, op: String, reason: String)
    /// `invoke()` was called before a successful `allocate()`.
    case notAllocated

    public var description: String {
        switch self {
        case .unsupportedOperator(let index, let op) where op.hasPrefix("CUSTOM:"):
            let name = op.dropFirst("CUSTOM:".count)
            return
                "operator \(index) is the custom operator '\(name)', which this runtime has no kernel for; register one for the name '\(name)' (Interpreter.Options.registerCustomOperator)"
        case .unsupportedOperator(let index, let op):
            return "operator \(index) (\(op)) is not supported by this runtime"
        case .unsupportedOperators(let ops):
            let names = ops.map {
                $0.subgraph == 0 ? "\($0.index) (\($0.op))" : "\($0.index) of subgraph \($0.subgraph) (\($0.op))"
            }
            let list =
                names.count > 1
                ? names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "") : names.joined()
            let hint =
                ops.contains { $0.op.hasPrefix("CUSTOM:") }
                ? "; register a kernel for each custom operator's name (Interpreter.Options.registerCustomOperator)"
                : ""
            return "operators \(list) are not supported by this runtime\(hint)"
        case .unsupportedTypes(let index, let op, let types):
            return "operator \(index) (\(op)) does not support the types \(types)"
        case .invalidOperator(let index, let op, let reason):
            return "operator \(index) (\(op)): \(reason)"
        case .memoryBudgetExceeded(let required, let budget):
            return "the model needs \(required) bytes of tensor memory, more than the budget of \(budget) bytes"
        case .workBudgetExceeded(let required, let budget):
            let amount = required == .max ? "more than \(Int.max)" : "\(required)"
            return
                "the model needs \(amount) multiply-accumulates (or comparisons) per invoke, more than the work budget of \(budget)"
        case .allocationFailed(let bytes):
            return "could not allocate \(bytes) bytes of tensor memory"
        case .unsupportedModel(let message):
            return "unsupported model: \(message)"
        case .invalidInput(let message):
            return message
        case .invokeFailed(let index, let op, let reason):
            return "operator \(index) (\(op)) failed: \(reason)"
        case .notAllocated:
            return "tensors are not allocated; call allocateTensors() first"
        }
    }
}

/// An operator code the runtime has no kernel for, named at the first operator using it.
public struct UnsupportedOperator: Hashable, Sendable {
    /// Index of the first operator (in graph order) with this code.
    public var index: Int
    /// The TFLite name (`RFFT2D`), or `CUSTOM:<name>` for a custom op.
    public var op: String
    /// The subgraph of that operator (0: the main one; others run through IF, WHILE or
    /// CALL_ONCE).
    public var subgraph: Int

    public init(index: Int, op: String, subgraph: Int = 0) {
        self.index = index
        self.op = op
        self.subgraph = subgraph
    }
}

extension RuntimeError {
    /// The operators a model needs that the runtime lacks, for either unsupported-operator
    /// case; empty for every other error.
    public var unsupportedOperators: [UnsupportedOperator] {
        switch self {
        case .unsupportedOperator(let index, let op): return [UnsupportedOperator(index: index, op: op)]
        case .unsupportedOperators(let ops): return ops
        default: return []
        }
    }
}

/// The error a kernel throws while preparing; the engine adds the operator's index and name.
public struct KernelError: Error, Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case unsupportedTypes, invalid
        /// Preparing needs the value of a tensor computed at run time (a slice's size, a
        /// reshape's shape): the engine prepares the operator again at invoke, once the
        /// value is there (``LatePreparedKernel``).
        case valueNeeded(tensor: Int)
    }
    public var kind: Kind
    public var message: String

    public static func invalid(_ message: String) -> KernelError { KernelError(kind: .invalid, message: message) }
    public static func types(_ message: String) -> KernelError {
        KernelError(kind: .unsupportedTypes, message: message)
    }
    /// Tensor `tensor`'s value is needed to prepare the operator and is known only at invoke.
    public static func valueNeeded(tensor: Int, _ message: String) -> KernelError {
        KernelError(kind: .valueNeeded(tensor: tensor), message: message)
    }
}
