import TFLiteModel

/// HASHTABLE_FIND: for each key of input 1, its value in the table whose handle input 0
/// holds, or the first element of input 2 (the default) when the table has no such key.
/// The output has the keys' shape. Finding in a table no HASHTABLE_IMPORT has filled is an
/// error, as in LiteRT.
enum HashtableFindKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        let handle = try context.resourceHandle(0)
        let keys = try context.input(1)
        let fallback = try context.input(2)
        let output = try context.output(0)
        guard fallback.type == output.type else { throw context.unsupportedTypes() }
        try context.requireTableTypes(key: keys.type, value: output.type)
        guard fallback.elementCount >= 1 else { throw .invalid("the default value has no elements") }
        if output.type == .string {
            try context.setStringOutputShape(0, keys.shape)
        } else {
            try context.setOutputShape(0, keys.shape)
        }
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        return HashtableFind(
            interpreterState: interpreterState, handle: handle, keys: keys.index, fallback: fallback.index,
            output: try context.outputIndex(0), keyType: keys.type, valueType: output.type, count: keys.elementCount)
    }
}

struct HashtableFind: StatefulKernel {
    let interpreterState: InterpreterState
    let handle: Int
    let keys: Int
    let fallback: Int
    let output: Int
    let keyType: ElementType
    let valueType: ElementType
    let count: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let id = context.pointer(handle, as: Int32.self).pointee
        let table = try interpreterState.table(id, key: keyType, value: valueType)
        guard table.imported != nil else {
            throw .invalid("table \(id) is read before HASHTABLE_IMPORT filled it")
        }
        if keyType == .string {
            let keyStrings = context.strings(keys)
            let fallbackValue = context.pointer(fallback, as: Int64.self).pointee
            let out = context.pointer(output, as: Int64.self)
            for i in 0 ..< count { out[i] = table.stringToInteger[Array(keyStrings[i])] ?? fallbackValue }
        } else {
            let fallbackValue = Array(context.strings(fallback)[0])
            let keyValues = context.pointer(keys, as: Int64.self)
            var strings = StringTensorBuilder()
            for i in 0 ..< count { strings.append(table.integerToString[keyValues[i]] ?? fallbackValue) }
            try context.setStrings(output, strings)
        }
    }
}
