import TFLiteModel

/// SPARSE_TO_DENSE: a tensor of shape `output_shape` (input 1) holding `default_value`
/// (input 3) everywhere except at `indices` (input 0), which get `values` (input 2).
///
/// - `indices`: INT32 or INT64, a scalar or `[n]` (positions in a 1-D output) or `[n, d]`
///   (`d` coordinates each, `d` = the output's rank, at most 4).
/// - `values`: a scalar (used for every index) or `[n]`, of type float32, int32, int64,
///   int8 or uint8; `default_value` is one element of the same type. Codes are copied.
/// - Indices are written in order, so a repeated index keeps its last value; an index
///   outside the output is an error at invoke. `validate_indices` (sortedness, no
///   repeats) is not checked, as TFLite does not check it either.
/// - `output_shape` has at most 4 entries, none negative. When it is computed at run
///   time the output shape is resolved at invoke (``DynamicShapeKernel``).
enum SparseToDenseKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 4, outputs: 1)
        let indices = try context.input(0)
        let shape = try context.input(1)
        let values = try context.input(2)
        let fallback = try context.input(3)
        try context.deriveOutputType(0, values.type)
        let output = try context.output(0)
        let size: Int
        switch values.type {
        case .float32, .int32: size = 4
        case .int64: size = 8
        case .int8, .uint8: size = 1
        default: throw context.unsupportedTypes()
        }
        guard indices.type == .int32 || indices.type == .int64, shape.type == .int32 || shape.type == .int64,
            fallback.type == values.type
        else { throw context.unsupportedTypes() }
        guard indices.rank <= 2 else { throw .invalid("indices have rank \(indices.rank); at most 2 is supported") }
        guard shape.rank == 1 else { throw .invalid("output_shape has shape \(shape.shape); it must be 1-D") }
        guard values.rank <= 1 else { throw .invalid("values have rank \(values.rank); a scalar or 1-D is expected") }
        guard fallback.elementCount == 1 else {
            throw .invalid("default_value has shape \(fallback.shape); it must hold one element")
        }
        let rank = shape.shape[0]
        guard rank <= 4 else { throw .invalid("output_shape has \(rank) entries; at most 4 are supported") }
        let count: Int, width: Int
        if indices.rank < 2 {
            count = indices.elementCount; width = 1
            guard rank == 1 else {
                throw .invalid(
                    "indices of rank \(indices.rank) address a 1-D output, but output_shape has \(rank) entries")
            }
        } else {
            count = indices.shape[0]; width = indices.shape[1]
            guard width == rank else {
                throw .invalid("indices have \(width) coordinates each, but output_shape has \(rank) entries")
            }
        }
        if values.rank == 1 {
            guard values.shape[0] == count else {
                throw .invalid("there are \(count) indices but \(values.shape[0]) values")
            }
        }
        let kernel = SparseToDense(
            indices: indices.index, shapeTensor: shape.index, values: values.index, fallback: fallback.index,
            output: output.index, wideIndices: indices.type == .int64, wideShape: shape.type == .int64, rank: rank,
            count: count, scalarValue: values.rank == 0, elementSize: size)
        guard shape.isConstant else { return SparseToDenseDynamic(sparse: kernel) }
        let dims = try ShapeSupport.constantIntegers(shape, role: "output_shape")
        try context.setOutputShape(0, try SparseToDense.outputShape(dims))
        return kernel
    }
}

struct SparseToDense: PreparedKernel {
    let indices: Int
    let shapeTensor: Int
    let values: Int
    let fallback: Int
    let output: Int
    let wideIndices: Bool
    let wideShape: Bool
    /// Entries of `output_shape` (coordinates per index).
    let rank: Int
    /// Number of indices.
    let count: Int
    let scalarValue: Bool
    let elementSize: Int

    static func outputShape(_ dims: [Int]) throws(KernelError) -> [Int] {
        guard dims.allSatisfy({ $0 >= 0 }) else { throw .invalid("output_shape \(dims) has a negative entry") }
        return dims
    }

    /// The output shape from the `output_shape` tensor now in memory.
    func dims(_ context: EvalContext) -> [Int] {
        let s = UnsafeRawPointer(context.raw(shapeTensor))
        return (0 ..< rank).map {
            wideShape
                ? Int(s.load(fromByteOffset: 8 * $0, as: Int64.self))
                : Int(s.load(fromByteOffset: 4 * $0, as: Int32.self))
        }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        switch elementSize {
        case 1: try scatter(context, UInt8.self)
        case 4: try scatter(context, UInt32.self)
        default: try scatter(context, UInt64.self)
        }
    }

    @inline(__always)
    private func scatter<T>(_ context: EvalContext, _: T.Type) throws(KernelError) {
        // At most 4 dimensions, read again at each invoke (the output's shape may be
        // resolved at run time); a tuple keeps eval free of allocation.
        var dims = (1, 1, 1, 1)
        let s = UnsafeRawPointer(context.raw(shapeTensor))
        var total = 1
        let rank = self.rank, wide = wideIndices
        withUnsafeMutableBytes(of: &dims) { raw in
            let d = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
            for k in 0 ..< rank {
                d[k] =
                    wideShape
                    ? Int(s.load(fromByteOffset: 8 * k, as: Int64.self))
                    : Int(s.load(fromByteOffset: 4 * k, as: Int32.self))
                total = total &* d[k]
            }
        }
        let y = context.pointer(output, as: T.self)
        let v = context.pointer(values, as: T.self)
        y.update(repeating: context.pointer(fallback, as: T.self).pointee, count: total)
        let x = UnsafeRawPointer(context.raw(indices))
        try withUnsafeBytes(of: dims) { (raw) throws(KernelError) in
            let d = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
            for i in 0 ..< count {
                var offset = 0
                for k in 0 ..< rank {
                    let p = i * rank + k
                    let c =
                        wide
                        ? Int(x.load(fromByteOffset: 8 * p, as: Int64.self))
                        : Int(x.load(fromByteOffset: 4 * p, as: Int32.self))
                    guard c >= 0, c < d[k] else {
                        throw .invalid("index \(i) has coordinate \(c) on axis \(k), outside 0..<\(d[k])")
                    }
                    offset = offset * d[k] + c
                }
                y[offset] = v[scalarValue ? 0 : i]
            }
        }
    }
}

/// SPARSE_TO_DENSE whose `output_shape` is computed at run time.
struct SparseToDenseDynamic: DynamicShapeKernel {
    let sparse: SparseToDense

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [try SparseToDense.outputShape(sparse.dims(context))]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try sparse.eval(context)
    }
}
