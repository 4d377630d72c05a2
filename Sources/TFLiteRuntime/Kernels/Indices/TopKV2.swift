import TFLiteModel

/// TOPK_V2: the `k` largest elements of each row (the last axis) of the input, largest
/// first, with their indices in the row. `k` is input 1, one constant int32 or int64
/// value in `0...n` (TFLite refuses a larger one). Equal values keep their order in the
/// row: the lower index comes first. Outputs: the values (the input's type) and the
/// indices (int32 or int64, the output tensor's type), both of shape `[..., k]`.
enum TopKV2Kernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 2)
        let input = try context.input(0)
        let values = try context.output(0)
        let indices = try context.output(1)
        let kValues = try ShapeSupport.constantIntegers(try context.input(1), role: "k")
        guard kValues.count == 1 else { throw .invalid("k must be one value, found \(kValues.count)") }
        guard input.rank >= 1, let n = input.shape.last else { throw .invalid("the input must have rank 1 or more") }
        let k = kValues[0]
        guard k >= 0, k <= n else {
            throw .invalid("k = \(k) must be in 0...\(n), the size of the input's last dimension")
        }
        guard input.type == values.type, indices.type == .int32 || indices.type == .int64 else {
            throw context.unsupportedTypes()
        }
        guard indices.type == .int64 || n <= Int(Int32.max) else {
            throw .invalid("rows of \(n) elements are too long for INT32 indices")
        }
        let element: FoldElement
        switch input.type {
        case .float32: element = .float32
        case .int32: element = .int32
        case .int64: element = .int64
        case .int16: element = .int16
        case .int8:
            try ShapeSupport.requireSameQuantization([input], output: values)
            element = .int8
        case .uint8:
            try ShapeSupport.requireSameQuantization([input], output: values)
            element = .uint8
        default: throw context.unsupportedTypes()
        }
        let shape = Array(input.shape.dropLast()) + [k]
        try context.setOutputShape(0, shape)
        try context.setOutputShape(1, shape)
        let rows = input.elementCount / Swift.max(n, 1)
        // Sorting a row costs about n·log2(n) comparisons.
        context.declareWork([rows, n, Swift.max(1, Int.bitWidth - n.leadingZeroBitCount)])
        let (bytes, overflow) = n.multipliedReportingOverflow(by: MemoryLayout<Int>.stride)
        guard !overflow else { throw .invalid("rows of \(n) elements are too long") }
        return TopKV2(
            element: element, wideIndices: indices.type == .int64, input: input.index,
            values: values.index, indices: indices.index, rows: n == 0 ? 0 : rows, n: n, k: k,
            order: context.requestScratch(bytes: bytes))
    }
}

struct TopKV2: PreparedKernel {
    let element: FoldElement
    let wideIndices: Bool
    let input: Int
    let values: Int
    let indices: Int
    let rows: Int
    let n: Int
    let k: Int
    /// Scratch slot of one row's index permutation.
    let order: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        switch element {
        case .float32: run(context, Float.self)
        case .int32: run(context, Int32.self)
        case .int64: run(context, Int64.self)
        case .int16: run(context, Int16.self)
        case .int8: run(context, Int8.self)
        case .uint8, .bool: run(context, UInt8.self)
        }
    }

    private func run<T: Comparable>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let v = context.pointer(values, as: T.self)
        let out = context.raw(indices)
        var perm = UnsafeMutableBufferPointer(start: context.scratch(order, as: Int.self), count: n)
        for r in 0 ..< rows {
            let row = x + r * n
            for i in 0 ..< n { perm[i] = i }
            // A total order (ties by index), so the unstable sort's result is unique.
            perm.sort { a, b in
                if row[a] > row[b] { return true }
                if row[a] < row[b] { return false }
                return a < b
            }
            for j in 0 ..< k {
                v[r * k + j] = row[perm[j]]
                if wideIndices {
                    out.storeBytes(of: Int64(perm[j]), toByteOffset: 8 * (r * k + j), as: Int64.self)
                } else {
                    out.storeBytes(
                        of: Int32(truncatingIfNeeded: perm[j]), toByteOffset: 4 * (r * k + j), as: Int32.self)
                }
            }
        }
    }
}
