import TFLiteModel

/// Operators that run one of several subgraphs on their inputs and take its outputs as
/// theirs: IF (two branches, a BOOL picks), STABLEHLO_CASE (any number, an int32 index
/// picks) and STABLEHLO_COMPOSITE (one, its decomposition).
///
/// Every branch is prepared for the passed inputs' shapes. When all give outputs of the
/// same shapes, those are the operator's, fixed at prepare; when they differ between the
/// branches, or a branch has shapes known only at invoke, the operator's outputs take the
/// shapes of the branch that ran (a ``DynamicShapeKernel``).
enum Branches {
    /// How the branch to run is chosen at invoke.
    enum Selector: Sendable {
        /// IF: a BOOL tensor; true runs branch 0, false branch 1.
        case condition(Int)
        /// STABLEHLO_CASE: an int32 tensor; an index outside `0 ..< count` runs the last
        /// branch, as StableHLO's `case` specifies and LiteRT does.
        case index(Int)
        /// STABLEHLO_COMPOSITE: always branch 0.
        case only
    }

    /// Prepares `calls` (subgraph index and role) for the operator's inputs from
    /// `firstPassed` on, checks that each gives what the operator's outputs take, and
    /// returns the kernel.
    static func prepare(
        _ context: inout PrepareContext, calls: [(index: Int, role: String)], selector: Selector, firstPassed: Int
    ) throws(KernelError) -> any PreparedKernel {
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        guard !calls.isEmpty else { throw .invalid("it names no subgraph to run") }
        let shapes = try context.passedShapes(from: firstPassed)
        var branches: [CalledSubgraph] = []
        for call in calls {
            let branch = try CalledSubgraph(
                call.index, role: call.role, interpreterState: interpreterState, inputShapes: shapes)
            guard branch.inputCount == shapes.count, branch.outputCount == context.outputCount else {
                throw .invalid(
                    "its \(branch.label) takes \(branch.inputCount) inputs and gives \(branch.outputCount) outputs")
            }
            for i in 0 ..< branch.outputCount where branch.outputState(i).type != (try context.output(i)).type {
                throw .invalid(
                    "its \(branch.label) gives output \(i) as \(branch.outputState(i).type); the operator's is \((try context.output(i)).type)"
                )
            }
            branches.append(branch)
        }
        let kernel = BranchRun(
            selector: selector, inputs: Array(context.op.inputs.dropFirst(firstPassed)), outputs: context.op.outputs,
            branches: branches)
        let sameShapes = (0 ..< context.outputCount).allSatisfy { i in
            branches.allSatisfy { $0.outputState(i).shape == branches[0].outputState(i).shape }
        }
        if branches.contains(where: \.engine.hasRunTimeShapes) || !sameShapes {
            return BranchRunDynamic(branch: kernel)
        }
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

struct BranchRun: StatefulKernel {
    let selector: Branches.Selector
    /// The tensors passed to the branch.
    let inputs: [Int]
    let outputs: [Int]
    let branches: [CalledSubgraph]

    /// The branch the selector picks now.
    func chosen(_ context: EvalContext) -> CalledSubgraph {
        switch selector {
        case .condition(let t): return branches[context.pointer(t, as: Bool.self).pointee ? 0 : 1]
        case .index(let t):
            let k = Int(context.pointer(t, as: Int32.self).pointee)
            return branches[k >= 0 && k < branches.count ? k : branches.count - 1]
        case .only: return branches[0]
        }
    }

    /// Runs the branch the selector picks and returns it.
    func run(_ context: EvalContext) throws(KernelError) -> CalledSubgraph {
        let branch = chosen(context)
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

/// A branching operator whose output shapes are those of the branch that runs.
final class BranchRunDynamic: DynamicShapeKernel, StatefulKernel {
    let branch: BranchRun
    /// The branch `outputShapes` ran, whose outputs `eval` copies.
    private var ran: CalledSubgraph?

    init(branch: BranchRun) { self.branch = branch }

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
