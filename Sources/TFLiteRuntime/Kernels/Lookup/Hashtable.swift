import TFLiteModel

/// HASHTABLE: the handle of the interpreter's hash table `table_id` (its options), as a
/// one-element RESOURCE tensor, creating the table (empty, with the options' key and value
/// types) the first time. Tables are the interpreter's, like resource variables: every
/// subgraph naming the id shares the table, HASHTABLE_IMPORT fills it once (the
/// converter's initialization subgraph, run by CALL_ONCE), and resetting the variables
/// empties it. A table is string → INT64 or INT64 → string, as in LiteRT; an id already
/// used with other types is an error naming the operator.
enum HashtableKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 0, outputs: 1)
        guard case .hashtable(let id, let key, let value) = context.op.options else {
            throw .invalid("missing HashtableOptions")
        }
        guard LookupTable.supports(key: key, value: value) else {
            throw .types("a table of \(key) keys and \(value) values; tables map STRING to INT64 or INT64 to STRING")
        }
        let output = try context.output(0)
        guard output.type == .resource || output.type == .int32 else { throw context.unsupportedTypes() }
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        try context.setOutputShape(0, [1])
        return Hashtable(
            interpreterState: interpreterState, id: id, keyType: key, valueType: value,
            output: try context.outputIndex(0))
    }
}

struct Hashtable: StatefulKernel {
    let interpreterState: InterpreterState
    let id: Int32
    let keyType: ElementType
    let valueType: ElementType
    let output: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        if let table = interpreterState.tables[id] {
            guard table.keyType == keyType, table.valueType == valueType else {
                throw .invalid(
                    "table \(id) already exists with \(table.keyType) keys and \(table.valueType) values; this operator declares \(keyType) keys and \(valueType) values"
                )
            }
        } else {
            interpreterState.tables[id] = LookupTable(keyType: keyType, valueType: valueType)
        }
        context.pointer(output, as: Int32.self).pointee = id
    }
}

extension InterpreterState {
    /// The table whose id `handle` holds, checked against the key and value types the
    /// operator reads or writes.
    func table(_ handle: Int32, key: ElementType, value: ElementType) throws(KernelError) -> LookupTable {
        guard let table = tables[handle] else {
            throw .invalid("no hash table has id \(handle) (no HASHTABLE operator has created it)")
        }
        guard table.keyType == key, table.valueType == value else {
            throw .invalid(
                "table \(handle) maps \(table.keyType) to \(table.valueType), but the operator's keys are \(key) and its values \(value)"
            )
        }
        return table
    }
}

extension PrepareContext {
    /// Checks that keys of `key` and values of `value` form a table type LiteRT has.
    func requireTableTypes(key: ElementType, value: ElementType) throws(KernelError) {
        guard LookupTable.supports(key: key, value: value) else {
            throw .types("\(key) keys and \(value) values; tables map STRING to INT64 or INT64 to STRING")
        }
    }
}
