import TFLiteModel

/// The float RNN cell step (``RecurrentStep``), summed in LiteRT's order per output:
/// `y = bias`, then `+ W·x`, `+ W_aux·a`, `+ R·h` (each product summed on its own, in the
/// microkernel's order), then the activation, then `h = y`.
///
/// Outputs are computed in blocks of ``block`` units, split over the threads when a step
/// has enough work; a block reads all of `h`, which is overwritten only once every block
/// is done.
struct RecurrentCellF32: RecurrentCell {
    let weights: FloatWeights
    let aux: FloatWeights?
    let recurrent: FloatWeights
    let bias: Int
    let units: Int
    let activation: RecurrentActivation
    let product: FloatMatrixProduct
    /// Tasks per parallel chunk (at least one), so that a chunk is worth a thread: a task
    /// is one block of one row (`rowByRow`) or of all rows (`blas`).
    let minimumTasks: Int
    static let block = 64

    init(
        _ context: PrepareContext, _ cell: RecurrentCellOperands, rows: Int, activation: RecurrentActivation,
        role: String
    ) throws(KernelError) {
        product = FloatMatrixProduct(level: context.kernelLevel, rows: rows)
        let packs = product == .rowByRow
        weights = try FloatWeights(context, cell.weights, packs: packs, role: "\(role)input weights")
        aux = try cell.auxWeights.map { w throws(KernelError) in
            try FloatWeights(context, w, packs: packs, role: "\(role)aux input weights")
        }
        recurrent = try FloatWeights(context, cell.recurrent, packs: packs, role: "\(role)recurrent weights")
        (bias, units, self.activation) = (cell.bias.index, cell.units, activation)
        let depth = try RecurrentCheck.sum([weights.depth, aux?.depth ?? 0, units], "\(role)RNN")
        try ConvCheck.blasSizes([rows, units, depth], "RNN")
        let rowsPerTask = product.isRowByRow ? 1 : rows
        minimumTasks = Parallel.minimumChunk(cost: try ConvCheck.product([rowsPerTask, Self.block, depth], "RNN"))
    }

    func step(_ context: EvalContext, _ s: RecurrentStep) {
        let w = UnsafePointer(context.pointer(weights.tensor, as: Float.self))
        let wa = aux.map { UnsafePointer(context.pointer($0.tensor, as: Float.self)) }
        let r = UnsafePointer(context.pointer(recurrent.tensor, as: Float.self))
        let b = UnsafePointer(context.pointer(bias, as: Float.self))
        let (units, weights, aux, recurrent, activation) = (units, weights, aux, recurrent, activation)
        let h = UnsafePointer(s.h)
        let blocks = (units + Self.block - 1) / Self.block
        switch product {
        case .rowByRow, .blasRowByRow:
            context.parallel.forEachChunk(s.rows * blocks, minimumChunk: minimumTasks) { range in
                for task in range {
                    let row = task / blocks, o0 = (task % blocks) * Self.block
                    let n = Swift.min(Self.block, units - o0)
                    let y = s.y + row * s.yStride
                    (y + o0).update(from: b + o0, count: n)
                    product.accumulate(weights, w: w, x: s.x + row * s.xStride, y: y, first: o0, count: n)
                    if let aux, let wa, let a = s.aux {
                        product.accumulate(aux, w: wa, x: a + row * s.auxStride, y: y, first: o0, count: n)
                    }
                    product.accumulate(recurrent, w: r, x: h + row * units, y: y, first: o0, count: n)
                    activation.apply(y + o0, count: n)
                }
            }
        case .blas:
            context.parallel.forEachChunk(blocks, minimumChunk: minimumTasks) { range in
                for block in range {
                    let o0 = block * Self.block, n = Swift.min(Self.block, units - o0)
                    for row in 0 ..< s.rows { (s.y + row * s.yStride + o0).update(from: b + o0, count: n) }
                    FloatMatrixProduct.accumulateRows(
                        weights, w: w, rows: s.rows, x: s.x, ldx: s.xStride, y: s.y, ldy: s.yStride, first: o0, count: n
                    )
                    if let aux, let wa, let a = s.aux {
                        FloatMatrixProduct.accumulateRows(
                            aux, w: wa, rows: s.rows, x: a, ldx: s.auxStride, y: s.y, ldy: s.yStride, first: o0,
                            count: n)
                    }
                    FloatMatrixProduct.accumulateRows(
                        recurrent, w: r, rows: s.rows, x: h, ldx: units, y: s.y, ldy: s.yStride, first: o0, count: n)
                    for row in 0 ..< s.rows { activation.apply(s.y + row * s.yStride + o0, count: n) }
                }
            }
        }
        for row in 0 ..< s.rows { (s.h + row * units).update(from: s.y + row * s.yStride, count: units) }
    }
}
