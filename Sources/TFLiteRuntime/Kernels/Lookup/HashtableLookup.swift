import TFLiteModel

/// HASHTABLE_LOOKUP (the old builtin, not the HASHTABLE resource): for each int32 id of
/// input 0, the row of input 2 whose key in input 1 (int32, sorted ascending) equals it,
/// found by binary search; a row of zeros (an empty string for a STRING table) when no key
/// does. Output 1 (uint8) is 1 where the key was found, 0 where not. The search is C's
/// `bsearch` as LiteRT calls it, with the keys compared by their 32-bit difference, so
/// unsorted keys (or keys far enough apart that the difference wraps) find what LiteRT's
/// would (spec/text-ops.md).
enum HashtableLookupKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 2)
        let lookup = try context.input(0)
        let keys = try context.input(1)
        let values = try context.input(2)
        let output = try context.output(0)
        let hits = try context.output(1)
        guard lookup.type == .int32, keys.type == .int32, hits.type == .uint8, output.type == values.type else {
            throw context.unsupportedTypes()
        }
        guard lookup.rank == 1, keys.rank == 1, values.rank >= 1, values.shape[0] == keys.shape[0] else {
            throw .invalid(
                "ids \(lookup.shape), keys \(keys.shape) and values \(values.shape): ids and keys must be 1-D, with one key per row of values"
            )
        }
        guard keys.shape[0] > 0 else { throw .invalid("the table has no rows") }
        let count = lookup.shape[0]
        try context.setOutputShape(1, [count])
        let kernel: HashtableLookup
        if values.type == .string {
            guard values.rank == 1 else { throw .invalid("a STRING table must be 1-D, not \(values.shape)") }
            try context.setStringOutputShape(0, [count])
            kernel = HashtableLookup(
                lookup: lookup.index, keys: keys.index, values: values.index, output: try context.outputIndex(0),
                hits: try context.outputIndex(1), count: count, rows: keys.shape[0], rowBytes: nil)
        } else {
            guard let bytes = values.byteCount else { throw context.unsupportedTypes() }
            try context.setOutputShape(0, [count] + values.shape.dropFirst())
            kernel = HashtableLookup(
                lookup: lookup.index, keys: keys.index, values: values.index, output: try context.outputIndex(0),
                hits: try context.outputIndex(1), count: count, rows: keys.shape[0], rowBytes: bytes / keys.shape[0])
        }
        return kernel
    }
}

struct HashtableLookup: PreparedKernel {
    let lookup: Int
    let keys: Int
    let values: Int
    let output: Int
    let hits: Int
    let count: Int
    let rows: Int
    /// Bytes per row of values, nil for a STRING table.
    let rowBytes: Int?

    /// The row `bsearch` finds for `id`, or nil.
    static func find(_ id: Int32, in keys: UnsafePointer<Int32>, rows: Int) -> Int? {
        var low = 0
        var high = rows
        while low < high {
            let middle = (low + high) / 2
            let order = id &- keys[middle]
            if order < 0 {
                high = middle
            } else if order > 0 {
                low = middle + 1
            } else {
                return middle
            }
        }
        return nil
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let ids = context.pointer(lookup, as: Int32.self)
        let keyData = context.pointer(keys, as: Int32.self)
        let found = context.pointer(hits, as: UInt8.self)
        guard let rowBytes else {
            let table = context.strings(values)
            var strings = StringTensorBuilder()
            for i in 0 ..< count {
                let row = Self.find(ids[i], in: keyData, rows: rows)
                strings.append(row.map { table[$0] } ?? UnsafeRawBufferPointer(start: nil, count: 0))
                found[i] = row == nil ? 0 : 1
            }
            try context.setStrings(output, strings)
            return
        }
        let source = context.raw(values)
        let destination = context.raw(output)
        for i in 0 ..< count {
            if let row = Self.find(ids[i], in: keyData, rows: rows) {
                if rowBytes > 0 {
                    (destination + i * rowBytes).copyMemory(from: source + row * rowBytes, byteCount: rowBytes)
                }
                found[i] = 1
            } else {
                if rowBytes > 0 {
                    (destination + i * rowBytes).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
                }
                found[i] = 0
            }
        }
    }
}
