import TFLiteModel

/// EMBEDDING_LOOKUP_SPARSE: weighted sums of embedding rows, one per position of a sparse
/// batch, as TFLite computes them (spec/ops-data.md, "EMBEDDING_LOOKUP_SPARSE").
///
/// Inputs: `ids` (INT32 `[n]`, rows of the table), `indices` (INT32 `[n, r]`, each id's
/// position in a sparse tensor of dense shape `dense_shape`, whose last coordinate is
/// ignored), `dense_shape` (INT32 `[r]`), `weights` (float32 `[n]`) and the float32 table
/// (rank ≥ 2). The output is `dense_shape[..<r−1] + table.shape[1...]`, zero where no id
/// lands; a `dense_shape` computed at run time makes it known only at invoke.
///
/// Ids are taken in order; consecutive ids with the same position form a group, summed as
/// `Σ w · row`, then divided by `Σ w` (MEAN) or `√Σ w²` (SQRTN) unless the combiner is SUM.
/// A position that appears again later is divided again with its new group's total, and
/// positions outside the output contribute nothing, as in TFLite.
enum EmbeddingLookupSparseKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 5, outputs: 1)
        let ids = try context.input(0)
        let indices = try context.input(1)
        let shape = try context.input(2)
        let weights = try context.input(3)
        let table = try context.input(4)
        try context.deriveOutputType(0, .float32)
        let output = try context.output(0)
        guard ids.type == .int32, indices.type == .int32, shape.type == .int32, weights.type == .float32,
            table.type == .float32
        else { throw context.unsupportedTypes() }
        guard ids.rank == 1, indices.rank == 2, shape.rank == 1, weights.rank == 1, table.rank >= 2 else {
            throw .invalid(
                "expected ids [n], indices [n, r], dense_shape [r], weights [n] and a table of rank 2 or more, found \(ids.shape), \(indices.shape), \(shape.shape), \(weights.shape), \(table.shape)"
            )
        }
        let n = ids.shape[0]
        guard indices.shape[0] == n, weights.shape[0] == n else {
            throw .invalid(
                "ids, indices and weights must have \(n) entries each, found \(indices.shape[0]) indices and \(weights.shape[0]) weights"
            )
        }
        let rank = indices.shape[1]
        guard rank >= 1, shape.shape[0] == rank else {
            throw .invalid("dense_shape has \(shape.shape[0]) entries; the indices have \(rank) coordinates")
        }
        var combiner = SparseCombiner.sum
        if case .embeddingLookupSparse(let code) = context.op.options {
            guard let c = SparseCombiner(rawValue: code) else {
                throw .invalid("combiner \(code) is not SUM, MEAN or SQRTN")
            }
            combiner = c
        }
        let rowShape = Array(table.shape.dropFirst())
        guard rank - 1 + rowShape.count <= ShapeSupport.maxRank else {
            throw .invalid(
                "the output would have rank \(rank - 1 + rowShape.count); at most \(ShapeSupport.maxRank) is supported")
        }
        let kernel = EmbeddingLookupSparse(
            ids: ids.index, indices: indices.index, shapeTensor: shape.index, weights: weights.index,
            table: table.index, output: output.index, count: n, rank: rank, rows: table.shape[0],
            width: try ShapeSupport.product(rowShape[...], role: "a table row"), rowShape: rowShape,
            combiner: combiner)
        guard shape.isConstant else { return EmbeddingLookupSparseDynamic(sparse: kernel) }
        let dims = try ShapeSupport.constantIntegers(shape, role: "dense_shape")
        try context.setOutputShape(0, try kernel.outputShape(dims))
        context.declareWork([n, kernel.width])
        return kernel
    }
}

/// How the rows of one group combine (schema `CombinerType`).
enum SparseCombiner: Int8, Sendable {
    case sum = 0, mean = 1, sqrtn = 2
}

struct EmbeddingLookupSparse: PreparedKernel {
    let ids: Int
    let indices: Int
    let shapeTensor: Int
    let weights: Int
    let table: Int
    let output: Int
    let count: Int
    /// Coordinates per index (the dense shape's length).
    let rank: Int
    let rows: Int
    let width: Int
    let rowShape: [Int]
    let combiner: SparseCombiner

    func outputShape(_ dense: [Int]) throws(KernelError) -> [Int] {
        guard dense.allSatisfy({ $0 >= 0 }) else { throw .invalid("dense_shape \(dense) has a negative entry") }
        return Array(dense.dropLast()) + rowShape
    }

    func dense(_ context: EvalContext) -> [Int] {
        let s = context.pointer(shapeTensor, as: Int32.self)
        return (0 ..< rank).map { Int(s[$0]) }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let id = UnsafePointer(context.pointer(ids, as: Int32.self))
        let position = UnsafePointer(context.pointer(indices, as: Int32.self))
        let dense = UnsafePointer(context.pointer(shapeTensor, as: Int32.self))
        let w = UnsafePointer(context.pointer(weights, as: Float.self))
        let t = UnsafePointer(context.pointer(table, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        var positions = 1
        for k in 0 ..< rank - 1 { positions &*= Int(dense[k]) }
        let outputCount = positions * width, tableCount = rows * width
        y.update(repeating: 0, count: outputCount)
        var current = 0, members = 0
        var total: Float = 0, squares: Float = 0
        for i in 0 ..< count {
            let row = Int(id[i])
            guard row >= 0, row < rows else {
                throw .invalid("id \(row) (at position \(i) of the ids) is out of range 0..<\(rows)")
            }
            var bucket = 0, scale = 1
            for k in stride(from: rank - 2, through: 0, by: -1) {
                bucket &+= Int(position[i * rank + k]) &* scale
                scale &*= Int(dense[k])
            }
            let offset = bucket &* width
            if offset != current {
                finish(y, at: current, members: members, total: total, squares: squares, outputCount: outputCount)
                members = 0; total = 0; squares = 0
                current = offset
            }
            members += 1
            let weight = w[i]
            squares += weight * weight
            total += weight
            let source = row * width
            for k in 0 ..< width where current + k >= 0 && current + k < outputCount && source + k < tableCount {
                y[current + k] += t[source + k] * weight
            }
        }
        finish(y, at: current, members: members, total: total, squares: squares, outputCount: outputCount)
    }

    /// Divides the group's row by its combiner's total (MEAN: `Σ w`, SQRTN: `√Σ w²`).
    @inline(__always)
    private func finish(
        _ y: UnsafeMutablePointer<Float>, at offset: Int, members: Int, total: Float, squares: Float, outputCount: Int
    ) {
        guard combiner != .sum, members > 0 else { return }
        let divisor = combiner == .mean ? total : squares.squareRoot()
        for k in 0 ..< width where offset + k >= 0 && offset + k < outputCount { y[offset + k] /= divisor }
    }
}

/// EMBEDDING_LOOKUP_SPARSE whose dense shape is computed at run time.
struct EmbeddingLookupSparseDynamic: DynamicShapeKernel {
    let sparse: EmbeddingLookupSparse

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [try sparse.outputShape(sparse.dense(context))]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try sparse.eval(context)
    }
}
