import TFLiteModel

/// HASHTABLE_SIZE: the number of keys in the table whose handle input 0 holds, as a
/// one-element INT64 tensor (0 before the table is imported).
enum HashtableSizeKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let handle = try context.resourceHandle(0)
        guard try context.output(0).type == .int64 else { throw context.unsupportedTypes() }
        try context.setOutputShape(0, [1])
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        return HashtableSize(interpreterState: interpreterState, handle: handle, output: try context.outputIndex(0))
    }
}

struct HashtableSize: StatefulKernel {
    let interpreterState: InterpreterState
    let handle: Int
    let output: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let id = context.pointer(handle, as: Int32.self).pointee
        guard let table = interpreterState.tables[id] else {
            throw .invalid("no hash table has id \(id) (no HASHTABLE operator has created it)")
        }
        context.pointer(output, as: Int64.self).pointee = Int64(table.count)
    }
}
