import TFLiteModel

/// VAR_HANDLE: the resource id of the variable named `(container, shared_name)`, as a
/// one-element RESOURCE (or INT32) tensor. Ids are the interpreter's
/// (``InterpreterState/resourceIDs``), so every subgraph naming the variable gets the same one.
/// The id is known at prepare, so the engine folds the operator into a constant.
enum VarHandleKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 0, outputs: 1)
        guard case .varHandle(let container, let sharedName) = context.op.options else {
            throw .invalid("missing VarHandleOptions")
        }
        guard let interpreterState = context.interpreterState,
            let id = interpreterState.resourceIDs[ResourceName(container: container, sharedName: sharedName)]
        else {
            throw .invalid("no resource id for the variable '\(sharedName)'")
        }
        let output = try context.output(0)
        guard output.type == .resource || output.type == .int32 else { throw context.unsupportedTypes() }
        guard output.elementCount == 1 else {
            throw .invalid("output has shape \(output.shape); a resource handle is one element")
        }
        try context.setOutputShape(0, output.shape)
        return VarHandle(id: id, output: try context.outputIndex(0))
    }
}

struct VarHandle: PreparedKernel {
    let id: Int32
    let output: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        context.pointer(output, as: Int32.self).pointee = id
    }
}

extension PrepareContext {
    /// Checks that input `i` is a resource handle: one RESOURCE or INT32 element.
    func resourceHandle(_ i: Int) throws(KernelError) -> Int {
        let handle = try input(i)
        guard handle.type == .resource || handle.type == .int32 else {
            throw .types("input \(i) is \(handle.type), not a resource handle (RESOURCE or INT32)")
        }
        guard handle.elementCount == 1 else {
            throw .invalid("input \(i) has shape \(handle.shape); a resource handle is one element")
        }
        guard let index = inputIndex(i) else { throw .invalid("input \(i) is missing") }
        return index
    }
}
