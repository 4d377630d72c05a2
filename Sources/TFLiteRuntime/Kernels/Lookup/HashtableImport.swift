import TFLiteModel

/// HASHTABLE_IMPORT: fills the table whose handle input 0 holds with the keys of input 1
/// and the values of input 2 (same shape; STRING → INT64 or INT64 → STRING, the table's
/// types). A key that repeats keeps its first value. A table is filled once: importing the
/// same keys and values again changes nothing (a converted graph may import on every
/// invoke), and importing other contents into a filled table is an error naming the
/// operator (LiteRT silently keeps the first contents).
enum HashtableImportKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 0)
        let handle = try context.resourceHandle(0)
        let keys = try context.input(1)
        let values = try context.input(2)
        try context.requireTableTypes(key: keys.type, value: values.type)
        guard keys.shape == values.shape else {
            throw .invalid("the keys have shape \(keys.shape) and the values \(values.shape); they must match")
        }
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        return HashtableImport(
            interpreterState: interpreterState, handle: handle, keys: keys.index, values: values.index,
            keyType: keys.type,
            valueType: values.type, count: keys.elementCount)
    }
}

struct HashtableImport: StatefulKernel {
    let interpreterState: InterpreterState
    let handle: Int
    let keys: Int
    let values: Int
    let keyType: ElementType
    let valueType: ElementType
    let count: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let id = context.pointer(handle, as: Int32.self).pointee
        let table = try interpreterState.table(id, key: keyType, value: valueType)
        let stringKeys = keyType == .string ? context.strings(keys) : nil
        let stringValues = valueType == .string ? context.strings(values) : nil
        let integerKeys =
            keyType == .int64 ? UnsafeBufferPointer(start: context.pointer(keys, as: Int64.self), count: count) : nil
        let integerValues =
            valueType == .int64
            ? UnsafeBufferPointer(start: context.pointer(values, as: Int64.self), count: count) : nil
        let fingerprint = (
            keys: Fingerprint64.hash(
                stringKeys?.bytes ?? UnsafeRawBufferPointer(integerKeys ?? .init(start: nil, count: 0))),
            values: Fingerprint64.hash(
                stringValues?.bytes ?? UnsafeRawBufferPointer(integerValues ?? .init(start: nil, count: 0)))
        )
        if let imported = table.imported {
            guard imported == fingerprint else {
                throw .invalid("table \(id) was already imported with other keys and values; a table is filled once")
            }
            return
        }
        try table.fill(
            stringKeys: stringKeys, integerKeys: integerKeys, stringValues: stringValues, integerValues: integerValues,
            fingerprint: fingerprint
        ) { (bytes: Int) throws(KernelError) in
            let (total, overflow) = interpreterState.heldBytes(besides: nil).addingReportingOverflow(bytes)
            guard !overflow, total <= interpreterState.options.memoryBudget else {
                throw .invalid(
                    "table \(id)'s \(bytes) bytes pass the memory budget of \(interpreterState.options.memoryBudget) bytes"
                )
            }
        }
    }
}
