/// A subgraph an operator runs, and the part it plays there.
public struct SubgraphCall: Hashable, Sendable {
    /// `then`, `else`, `cond`, `body`, `init` (IF, WHILE, CALL_ONCE), `decomposition`
    /// (STABLEHLO_COMPOSITE), `branch 0`, `branch 1`, ... (STABLEHLO_CASE), `reduction`
    /// (STABLEHLO_REDUCE_WINDOW) or `update` (STABLEHLO_SCATTER).
    public var role: String
    /// The subgraph's index in the model, as the file gives it (not yet checked).
    public var subgraph: Int

    public init(role: String, subgraph: Int) {
        self.role = role
        self.subgraph = subgraph
    }
}

extension Operator {
    /// The subgraphs this operator runs: IF's two branches, WHILE's condition and body,
    /// CALL_ONCE's initialization subgraph, STABLEHLO_COMPOSITE's decomposition,
    /// STABLEHLO_CASE's branches, and the computation STABLEHLO_REDUCE_WINDOW and
    /// STABLEHLO_SCATTER apply (which the runtime recognises rather than runs); empty for
    /// every other operator.
    public var subgraphCalls: [SubgraphCall] {
        // Only the operator each table belongs to calls: a file could attach a table to
        // any operator.
        switch (code.builtin, options2) {
        case (.stablehloComposite, .stablehloComposite(_, let decomposition, _)):
            return [SubgraphCall(role: "decomposition", subgraph: decomposition)]
        case (.stablehloCase, .stablehloCase(let branches)):
            return branches.enumerated().map { SubgraphCall(role: "branch \($0.offset)", subgraph: $0.element) }
        case (.stablehloReduceWindow, .stablehloReduceWindow(let o)):
            return [SubgraphCall(role: "reduction", subgraph: o.bodySubgraph)]
        case (.stablehloScatter, .stablehloScatter(let o)):
            return [SubgraphCall(role: "update", subgraph: o.updateComputationSubgraph)]
        default:
            break
        }
        switch options {
        case .ifBranches(let thenSubgraph, let elseSubgraph):
            return [
                SubgraphCall(role: "then", subgraph: thenSubgraph), SubgraphCall(role: "else", subgraph: elseSubgraph),
            ]
        case .whileLoop(let cond, let body):
            return [SubgraphCall(role: "cond", subgraph: cond), SubgraphCall(role: "body", subgraph: body)]
        case .callOnce(let initSubgraph):
            return [SubgraphCall(role: "init", subgraph: initSubgraph)]
        default:
            return []
        }
    }
}
