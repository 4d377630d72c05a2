import TFLiteModel

/// ASSIGN_VARIABLE: stores a copy of input 1 (any type and shape) as the value of the
/// resource variable whose id input 0 holds, replacing what it held. The value lives in
/// the interpreter's ``InterpreterState`` until the interpreter goes or its variables are reset.
enum AssignVariableKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 0)
        let handle = try context.resourceHandle(0)
        let value = try context.input(1)
        guard let bytes = value.byteCount else { throw context.unsupportedTypes() }
        guard let interpreterState = context.interpreterState, let valueIndex = context.inputIndex(1) else {
            throw .invalid("the value input is missing")
        }
        return AssignVariable(
            interpreterState: interpreterState, handle: handle, value: valueIndex, type: value.type, shape: value.shape,
            bytes: bytes)
    }
}

struct AssignVariable: StatefulKernel {
    let interpreterState: InterpreterState
    let handle: Int
    let value: Int
    let type: ElementType
    let shape: [Int]
    let bytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let id = context.pointer(handle, as: Int32.self).pointee
        try interpreterState.assign(
            id: id, type: type, shape: shape, from: UnsafeRawPointer(context.raw(value)), bytes: bytes)
    }
}

extension InterpreterState {
    /// Copies `bytes` from `source` into variable `id`, reusing its storage when the size
    /// is unchanged. The variables' total must stay within the memory budget.
    func assign(id: Int32, type: ElementType, shape: [Int], from source: UnsafeRawPointer, bytes: Int)
        throws(KernelError)
    {
        guard id >= 0, Int(id) < resourceIDs.count else {
            throw .invalid("resource id \(id) names no variable of this model")
        }
        let storage: AlignedBuffer
        if let old = variables[id], old.bytes.count == bytes {
            storage = old.bytes
        } else {
            var held = 0
            for (other, variable) in variables where other != id { held += variable.bytes.count }
            guard bytes <= options.memoryBudget - Swift.min(held, options.memoryBudget) else {
                throw .invalid("a \(bytes)-byte value would take the variables past the memory budget")
            }
            storage = AlignedBuffer(zeroedCount: bytes)
        }
        if bytes > 0 { storage.pointer.copyMemory(from: source, byteCount: bytes) }
        variables[id] = ResourceVariable(type: type, shape: shape, bytes: storage)
    }

    /// The name VAR_HANDLE gave variable `id`, for messages.
    func variableName(_ id: Int32) -> String {
        resourceIDs.first { $0.value == id }.map { "'\($0.key.sharedName)'" } ?? "\(id)"
    }
}
