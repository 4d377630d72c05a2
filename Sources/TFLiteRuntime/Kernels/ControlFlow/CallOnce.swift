import TFLiteModel

/// CALL_ONCE: runs its initialization subgraph (no inputs, no outputs: it assigns
/// variables, fills tables) at the first invoke that reaches it, and never again in the
/// interpreter's life, whichever subgraph or signature reaches it next. Resetting the
/// interpreter's variables (``InterpreterState/resetVariables()``) makes it run again.
enum CallOnceKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .callOnce(let index) = context.op.options else { throw .invalid("missing CallOnceOptions") }
        try context.expectCounts(inputs: 0, outputs: 0)
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        let initialization = try CalledSubgraph(
            index, role: "init", interpreterState: interpreterState, inputShapes: [])
        guard initialization.inputCount == 0, initialization.outputCount == 0 else {
            throw .invalid("its \(initialization.label) must have no inputs and no outputs")
        }
        return CallOnce(index: index, initialization: initialization)
    }
}

struct CallOnce: StatefulKernel {
    let index: Int
    let initialization: CalledSubgraph

    func eval(_ context: EvalContext) throws(KernelError) {
        let interpreterState = initialization.interpreterState
        guard !interpreterState.initializedSubgraphs.contains(index) else { return }
        try initialization.invoke()
        interpreterState.initializedSubgraphs.insert(index)
    }
}
