import TFLiteModel

/// The computation subgraph of STABLEHLO_REDUCE_WINDOW or STABLEHLO_SCATTER, recognised
/// rather than run, as LiteRT does: the runtime reads which one operator it holds and
/// applies that operation to the elements itself (spec/stablehlo.md).
///
/// The subgraph must have two inputs and one output, and its operator must read both
/// inputs (in either order) and write the output, without a fused activation, so the
/// operation applied is exactly the one the subgraph states. (LiteRT looks at the
/// operator's code alone.)
enum StableHLOComputation {
    /// What the subgraph computes from (accumulated or current value, new element).
    enum Operation: Sendable, Equatable {
        case add, multiply, maximum, minimum
        /// LiteRT's ALL / ANY: 1 when both / either is nonzero, else 0 (not bitwise).
        case logicalAnd, logicalOr
        /// No operator: the result is the second input (scatter's plain update).
        case replace

        var name: String {
            switch self {
            case .add: "add"
            case .multiply: "multiply"
            case .maximum: "maximum"
            case .minimum: "minimum"
            case .logicalAnd: "logical and"
            case .logicalOr: "logical or"
            case .replace: "replace"
            }
        }
    }

    /// Recognises subgraph `index`, named `role` in messages, among the operations
    /// `accepted` maps from operator codes; `allowsEmpty` accepts a subgraph without
    /// operators that returns its second input (`.replace`).
    static func recognise(
        _ context: PrepareContext, subgraph index: Int, role: String, accepted: [BuiltinOperator: Operation],
        allowsEmpty: Bool
    ) throws(KernelError) -> Operation {
        guard let model = context.interpreterState?.model else { throw .invalid("no interpreter interpreterState") }
        guard index >= 0, index < model.subgraphs.count else {
            throw .invalid("its \(role) subgraph \(index) does not exist (the model has \(model.subgraphs.count))")
        }
        let graph = model.subgraphs[index]
        let label = "its \(role) subgraph \(index) ('\(graph.name)')"
        guard graph.inputs.count == 2, graph.outputs.count == 1 else {
            throw .invalid(
                "\(label) takes \(graph.inputs.count) inputs and gives \(graph.outputs.count) outputs; a \(role) computation takes 2 and gives 1"
            )
        }
        let accepts = accepted.keys.map(\.name).sorted().joined(separator: ", ")
        if graph.operators.isEmpty {
            guard allowsEmpty, graph.outputs[0] == graph.inputs[1] else {
                throw .invalid(
                    "\(label) has no operator\(allowsEmpty ? " and does not return its second input" : ""); it must be one operator of \(accepts)"
                )
            }
            return .replace
        }
        guard graph.operators.count == 1, let op = graph.operators.first else {
            throw .invalid(
                "\(label) has \(graph.operators.count) operators; only one operator (\(accepts)) is supported")
        }
        guard let operation = accepted[op.code.builtin] else {
            throw .invalid("\(label) computes \(op.code.name); only \(accepts) are supported")
        }
        let reads = Set(op.inputs)
        guard op.inputs.count == 2, reads == Set(graph.inputs), op.outputs == graph.outputs else {
            throw .invalid("\(label): its \(op.code.name) does not combine the two inputs into the output")
        }
        switch op.options {
        case .add(let activation, _) where activation != .none, .mul(let activation) where activation != .none:
            throw .invalid("\(label): its \(op.code.name) has a fused activation")
        default:
            return operation
        }
    }
}
