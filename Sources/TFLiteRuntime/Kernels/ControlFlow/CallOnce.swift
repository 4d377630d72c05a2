import TFLiteModel

/// CALL_ONCE: runs its initialization subgraph (no inputs, no outputs: it assigns
/// variables, fills tables) at the first invoke that reaches it, and never again in the
/// interpreter's life, whichever subgraph or signature reaches it next. Resetting the
/// interpreter's variables (``Session/resetVariables()``) makes it run again.
enum CallOnceKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .callOnce(let index) = context.op.options else { throw .invalid("missing CallOnceOptions") }
        try context.expectCounts(inputs: 0, outputs: 0)
        guard let session = context.session else { throw .invalid("no interpreter session") }
        let initialization = try CalledSubgraph(index, role: "init", session: session, inputShapes: [])
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
        let session = initialization.session
        guard !session.initializedSubgraphs.contains(index) else { return }
        try initialization.invoke()
        session.initializedSubgraphs.insert(index)
    }
}
