import TFLiteModel

/// IF: runs the `then` subgraph when input 0 (one BOOL) is true, the `else` subgraph when
/// it is false, passing it inputs 1... and taking its outputs as the operator's.
///
/// Both branches are prepared for the inputs' shapes. When both give outputs of the same
/// shapes, those are the operator's, fixed at prepare; when they differ between the
/// branches, or a branch has shapes known only at invoke, the operator's outputs take the
/// shapes of the branch that ran (a ``DynamicShapeKernel``).
enum IfKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .ifBranches(let thenIndex, let elseIndex) = context.op.options else {
            throw .invalid("missing IfOptions")
        }
        guard context.inputCount >= 1 else { throw .invalid("expected a condition input") }
        let condition = try context.input(0)
        guard condition.type == .bool else { throw .types("the condition is \(condition.type), not BOOL") }
        guard condition.elementCount == 1 else {
            throw .invalid("the condition has shape \(condition.shape); it must hold one element")
        }
        guard let session = context.session else { throw .invalid("no interpreter session") }
        let shapes = try context.passedShapes(from: 1)
        let branches = [
            try CalledSubgraph(thenIndex, role: "then", session: session, inputShapes: shapes),
            try CalledSubgraph(elseIndex, role: "else", session: session, inputShapes: shapes),
        ]
        for branch in branches {
            guard branch.inputCount == shapes.count, branch.outputCount == context.outputCount else {
                throw .invalid(
                    "its \(branch.label) takes \(branch.inputCount) inputs and gives \(branch.outputCount) outputs")
            }
            for i in 0 ..< branch.outputCount where branch.outputState(i).type != (try context.output(i)).type {
                throw .invalid(
                    "its \(branch.label) gives output \(i) as \(branch.outputState(i).type); the operator's is \((try context.output(i)).type)"
                )
            }
        }
        let kernel = IfBranch(
            condition: try context.requiredInputIndex(0), inputs: Array(context.op.inputs.dropFirst()),
            outputs: context.op.outputs, branches: branches)
        let sameShapes = (0 ..< context.outputCount).allSatisfy {
            branches[0].outputState($0).shape == branches[1].outputState($0).shape
        }
        if branches.contains(where: \.engine.hasRunTimeShapes) || !sameShapes { return IfBranchDynamic(branch: kernel) }
        for i in 0 ..< context.outputCount {
            if try context.output(i).type == .string {
                try context.setStringOutputShape(i, branches[0].outputState(i).shape)
            } else {
                try context.setOutputShape(i, branches[0].outputState(i).shape)
            }
        }
        return kernel
    }
}

struct IfBranch: StatefulKernel {
    let condition: Int
    /// The tensors passed to the branch (the operator's inputs after the condition).
    let inputs: [Int]
    let outputs: [Int]
    /// `then`, `else`.
    let branches: [CalledSubgraph]

    /// Runs the branch the condition picks and returns it.
    func run(_ context: EvalContext) throws(KernelError) -> CalledSubgraph {
        let branch = branches[context.pointer(condition, as: Bool.self).pointee ? 0 : 1]
        for (i, t) in inputs.enumerated() {
            if let slot = branch.inputSlot(i) {
                try slot.assign(copying: context.strings(t).bytes)
                continue
            }
            let destination = try branch.input(i)
            guard let base = destination.baseAddress else { continue }
            copyTensor(from: context.raw(t), to: base, bytes: destination.count)
        }
        try branch.invoke()
        return branch
    }

    func copyOutputs(of branch: CalledSubgraph, _ context: EvalContext) throws(KernelError) {
        for (i, t) in outputs.enumerated() where t >= 0 {
            if let slot = branch.outputSlot(i) {
                try context.stringSlot(t).assign(copying: slot.view.bytes)
                continue
            }
            let source = try branch.output(i)
            guard let base = source.baseAddress else { continue }
            copyTensor(from: base, to: context.raw(t), bytes: source.count)
        }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try copyOutputs(of: try run(context), context)
    }
}

/// IF whose output shapes are those of the branch that runs.
final class IfBranchDynamic: DynamicShapeKernel, StatefulKernel {
    let branch: IfBranch
    /// The branch `outputShapes` ran, whose outputs `eval` copies.
    private var ran: CalledSubgraph?

    init(branch: IfBranch) { self.branch = branch }

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let taken = try branch.run(context)
        ran = taken
        return (0 ..< taken.outputCount).map { taken.outputState($0).shape }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        guard let ran else { throw .invalid("the branch has not run") }
        try branch.copyOutputs(of: ran, context)
        self.ran = nil
    }
}

extension PrepareContext {
    /// The tensor index of required input `i`.
    func requiredInputIndex(_ i: Int) throws(KernelError) -> Int {
        guard let index = inputIndex(i) else { throw .invalid("input \(i) is missing") }
        return index
    }
}
