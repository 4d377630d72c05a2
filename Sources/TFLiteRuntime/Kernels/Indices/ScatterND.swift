import TFLiteModel

/// SCATTER_ND: a zero tensor of shape `shape` (input 2, constant int32 or int64) into
/// which each slice `updates[t, ...]` is added at the place index tuple `t` names:
/// `out[indices[t, 0], …, indices[t, K−1], ...] += updates[t, ...]`. Tuples that repeat
/// add up (in tuple order); places no tuple names stay zero. `updates` must have shape
/// `indices.shape[..<last] + shape[K...]`. Integers wrap; bool updates combine with OR.
/// An index out of range fails the invoke, as in TFLite.
enum ScatterNDKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        let indices = try context.input(0)
        let updates = try context.input(1)
        let output = try context.output(0)
        let shape = try ShapeSupport.constantIntegers(try context.input(2), role: "shape")
        guard shape.allSatisfy({ $0 >= 0 }) else { throw .invalid("the shape \(shape) has a negative dimension") }
        try ShapeSupport.requireRank(shape, role: "the output")
        guard updates.type == output.type else { throw context.unsupportedTypes() }
        let element: FoldElement
        switch updates.type {
        case .float32: element = .float32
        case .int32: element = .int32
        case .int64: element = .int64
        case .int8: element = .int8
        case .uint8: element = .uint8
        case .bool: element = .bool
        default: throw context.unsupportedTypes()
        }
        try context.setOutputShape(0, shape)
        let tuples = try IndexTuples(indices, indexing: shape, role: "output")
        let expected = Array(indices.shape.dropLast()) + Array(shape[tuples.length...])
        guard updates.shape == expected else {
            throw .invalid(
                "updates have shape \(updates.shape); indices \(indices.shape) into shape \(shape) need \(expected)")
        }
        return ScatterND(
            element: element, updates: updates.index, output: output.index, tuples: tuples,
            sliceCount: try ShapeSupport.product(shape[tuples.length...], role: "the slices"),
            outputCount: shape.reduce(1, *))
    }
}

struct ScatterND: PreparedKernel {
    let element: FoldElement
    let updates: Int
    let output: Int
    let tuples: IndexTuples
    /// Elements per slice.
    let sliceCount: Int
    let outputCount: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        switch element {
        case .float32: try run(context, Float(0), +)
        case .int32: try run(context, Int32(0), &+)
        case .int64: try run(context, Int64(0), &+)
        case .int16: try run(context, Int16(0), &+)
        case .int8: try run(context, Int8(0), &+)
        case .uint8: try run(context, UInt8(0), &+)
        case .bool: try run(context, UInt8(0)) { $0 != 0 || $1 != 0 ? 1 : 0 }
        }
    }

    @inline(__always)
    private func run<T>(_ context: EvalContext, _ zero: T, _ add: (T, T) -> T) throws(KernelError) {
        let u = UnsafePointer(context.pointer(updates, as: T.self))
        let y = context.pointer(output, as: T.self)
        for i in 0 ..< outputCount { y[i] = zero }
        for t in 0 ..< tuples.count {
            let base = try tuples.slice(t, in: context) * sliceCount
            for e in 0 ..< sliceCount { y[base + e] = add(y[base + e], u[t * sliceCount + e]) }
        }
    }
}
