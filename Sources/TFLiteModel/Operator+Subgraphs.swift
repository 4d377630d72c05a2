/// A subgraph an operator runs, and the part it plays there.
public struct SubgraphCall: Hashable, Sendable {
    /// `then`, `else`, `cond`, `body` or `init`.
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
    /// CALL_ONCE's initialization subgraph; empty for every other operator.
    public var subgraphCalls: [SubgraphCall] {
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
