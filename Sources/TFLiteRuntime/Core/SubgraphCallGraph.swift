import TFLiteModel

/// The calls between a model's subgraphs (IF, WHILE, CALL_ONCE and the StableHLO
/// operators that name subgraphs, ``Operator/subgraphCalls``), checked once when an
/// interpreter is created, before any subgraph is prepared: every called index exists,
/// no subgraph calls itself through any chain of calls (the runtime would recurse
/// without end), each call passes as many tensors, of the same types, as the callee
/// takes and gives back, and every operator of every subgraph that can run has a kernel.
enum SubgraphCallGraph {
    /// The subgraphs reachable from `root` through calling operators, `root` first.
    /// Throws the first problem found, naming the operator and its subgraph.
    static func validate(_ model: Model, root: Int, extra: CustomKernelTable) throws(RuntimeError) -> [Int] {
        let count = model.subgraphs.count
        // Iterative depth-first search: a file can chain thousands of subgraphs, and
        // recursion that deep would overflow the stack.
        var state = [UInt8](repeating: 0, count: count) // 0 new, 1 on the path, 2 done
        var order: [Int] = []
        var stack: [(subgraph: Int, next: [(op: Operator, call: SubgraphCall)])] = []
        func enter(_ s: Int) {
            state[s] = 1
            order.append(s)
            let calls = model.subgraphs[s].operators.flatMap { op in op.subgraphCalls.map { (op, $0) } }
            stack.append((s, calls.reversed()))
        }
        enter(root)
        while let top = stack.last {
            guard let (op, call) = stack[stack.count - 1].next.popLast() else {
                state[top.subgraph] = 2
                stack.removeLast()
                continue
            }
            let caller = top.subgraph
            let at = "operator \(op.index) (\(op.code.name)) of subgraph \(caller)"
            guard call.subgraph >= 0, call.subgraph < count else {
                throw .unsupportedModel(
                    "\(at) calls subgraph \(call.subgraph) as its \(call.role) subgraph, but the model has \(count) subgraphs"
                )
            }
            if state[call.subgraph] == 1 {
                let path = stack.map(\.subgraph) + [call.subgraph]
                throw .unsupportedModel(
                    "\(at) calls subgraph \(call.subgraph), which is already running: a cycle of calls (\(path.map(String.init).joined(separator: " → ")))"
                )
            }
            try checkSignature(op, caller: model.subgraphs[caller], call: call, model: model, at: at)
            if state[call.subgraph] == 0 { enter(call.subgraph) }
        }
        var missing: [UnsupportedOperator] = []
        var seen = Set<String>()
        for s in order {
            for op in model.subgraphs[s].operators
            where !KernelRegistry.supports(op.code, extra: extra) && seen.insert(op.code.name).inserted {
                missing.append(UnsupportedOperator(index: op.index, op: op.code.name, subgraph: s))
            }
        }
        if let first = missing.first {
            throw missing.count == 1 && first.subgraph == root
                ? .unsupportedOperator(index: first.index, op: first.op) : .unsupportedOperators(missing)
        }
        return order
    }

    /// Checks that `op` passes the callee what it takes and expects what it gives back:
    /// counts and element types (shapes are checked when the operator is prepared).
    private static func checkSignature(_ op: Operator, caller: Subgraph, call: SubgraphCall, model: Model, at: String)
        throws(RuntimeError)
    {
        let callee = model.subgraphs[call.subgraph]
        let name = "\(call.role) subgraph \(call.subgraph) ('\(callee.name)')"
        if case .whileLoop(let cond, let body) = op.options, cond == body {
            throw .unsupportedModel("\(at) uses subgraph \(cond) as both its condition and its body")
        }
        // The caller's tensors passed to the callee, and those the callee's outputs fill.
        let passed: [Int]
        let filled: [Int]
        switch call.role {
        case "then", "else": (passed, filled) = (Array(op.inputs.dropFirst()), op.outputs)
        case "cond": (passed, filled) = (op.inputs, [])
        case "body", "decomposition": (passed, filled) = (op.inputs, op.outputs)
        case "reduction", "update":
            // A computation on scalars that the kernel recognises (one operator) rather
            // than runs: its form is checked when the operator is prepared.
            return
        case _ where call.role.hasPrefix("branch "): (passed, filled) = (Array(op.inputs.dropFirst()), op.outputs)
        default: (passed, filled) = ([], [])
        }
        guard callee.inputs.count == passed.count else {
            throw .unsupportedModel(
                "\(at) passes \(passed.count) tensors to its \(name), which takes \(callee.inputs.count)")
        }
        if call.role == "cond" {
            guard callee.outputs.count == 1, let out = callee.outputs.first, callee.tensors[out].type == .bool else {
                throw .unsupportedModel("\(at): its \(name) must give one BOOL output")
            }
        } else {
            guard callee.outputs.count == filled.count else {
                throw .unsupportedModel(
                    "\(at) expects \(filled.count) outputs from its \(name), which gives \(callee.outputs.count)")
            }
        }
        for (i, (t, c)) in zip(passed, callee.inputs).enumerated() where t >= 0 {
            let (given, taken) = (caller.tensors[t].type, callee.tensors[c].type)
            guard given == taken else {
                throw .unsupportedModel(
                    "\(at) passes a \(given) tensor as input \(i) of its \(name), which takes \(taken)")
            }
        }
        for (i, (t, c)) in zip(filled, callee.outputs).enumerated() where t >= 0 {
            let (given, expected) = (callee.tensors[c].type, caller.tensors[t].type)
            guard given == expected else {
                throw .unsupportedModel("\(at) expects output \(i) of its \(name) as \(expected); it gives \(given)")
            }
        }
    }
}
